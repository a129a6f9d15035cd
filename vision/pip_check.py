"""A second witness for number cards: how many pips the card's body shows.

The corner models read a card from its two index corners; in some fonts a small 6 looks like an
8, a 4 like a 6, and both corners of one card are printed alike, so they can agree on the wrong
rank. The body of a number card says its rank another way: a 6 shows six pips. Counting pips is
rough (a pip cut by a neighbour lying over the card or by an outline a few pixels off, two pips
run together under blur), so the count is used in two careful ways:

- it takes a reading back to "unsure" when it is exactly the rank the corners nearly read instead
  (the runner-up) and not the rank they read;
- when the pips lie as a deck prints them (none cut, each mirrored through the card's centre), the
  count is strong evidence (trusted 99 to 1): the corners' posterior is weighed by it, and a card
  of the counted rank is named when it then passes the reader's threshold. The corners must
  really hesitate between the two ranks: one they hold at 0.1 % stays far below it.

(The body check, :mod:`vision.body_check`, asks a regular layout about every sure reading too,
whatever the runner-up: a regular count of another number makes it unsure.)

Measured (synthetic, detected outlines): of 511 regular layouts on number cards of training-font
scenes none was miscounted (34 of 382 other counts were); on the hold-out's cards apart a 6 the
corners read 8 or 6 (0.56/0.44) is named 6s.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.classify import HESITATION, corner_ranks, rank_mass
from vision.mark_reader import card_regions
from vision.pip_layouts import counts_in_sight
from vision.rectify import Pyramid

BODY = (120, 168)
"""Width and height in pixels of the straightened card whose pips are counted."""

PIP_BOX = (0.2, 0.1, 0.8, 0.9)
"""The part of an upright card (x0, y0, x1, y1 as fractions) where a number card's pips lie and its
indices do not."""

_LARGEST_SHARE = 0.25
"""A blob of ink counts as a pip when it is at least this share of the largest blob's area."""

_ALIKE = 2.0
"""The pips of one card are alike: the largest counted blob may be at most this many times the smallest."""

_RUNNER_UP = 0.001
"""The runner-up rank must hold at least this posterior for the count to be asked at all."""

_MIRROR_TOLERANCE = 0.06
"""Pips mirror each other through the card's centre to within this share of the card's width."""

_COUNT_TRUST = 0.99
"""How far a regular layout's count is trusted: of 511 regular counts on number cards of 160
training-font scenes (cards apart and touching rows, detected outlines), none was wrong."""

_MIDDLE_COLUMN = {2: 2, 3: 3, 4: 0, 5: 1, 6: 0, 7: 1, 8: 2, 9: 1, 10: 2}
"""How many pips a number card of each count prints on its middle column (the standard layouts)."""

NUMBER_RANKS = 9
"""Card ids rank * 4 + suit: ranks 0..8 are the number cards 2..10."""


def count_pips(body_bgr: np.ndarray) -> int | None:
    """The number of pip-sized blobs of ink in the middle of a straightened card (BGR, upright or
    upside down), split from the paper by Otsu's threshold; None when they are not alike in size
    (a pip cut by a card lying over it, pips run together): then the count is not trusted."""
    return pip_layout(body_bgr).count


@dataclass(frozen=True)
class PipLayout:
    """What the middle of a straightened card shows: ``count`` as :func:`count_pips` answers it, and
    whether the pips lie as a deck prints them (``regular``): none cut by the edge of the part
    looked at, as many on the middle column as the standard layout of that count has, and every
    pip mirrored by another through the card's centre (a seven's one extra pip on the middle
    column excepted). An outline a few pixels off, or a card lying over this
    one, cuts or shifts pips and breaks that symmetry."""

    count: int | None
    regular: bool


@dataclass(frozen=True)
class InkBlobs:
    """The blobs of ink in the part of a straightened card where pips lie (:data:`PIP_BOX`), split
    from the paper by Otsu's threshold: ``stats`` their ``cv2.connectedComponentsWithStats`` rows
    (K, 5) and ``centres`` (K, 2) in the part's pixels, ``box`` the part (x0, y0, x1, y1) and
    ``size`` the card's (width, height) in pixels."""

    stats: np.ndarray
    centres: np.ndarray
    box: tuple[int, int, int, int]
    size: tuple[int, int]


def ink_blobs(body_bgr: np.ndarray) -> InkBlobs:
    """The blobs of ink of a straightened card (BGR, upright or upside down): :class:`InkBlobs`."""
    grey = cv2.cvtColor(body_bgr, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape
    x0, y0, x1, y1 = (int(f * n) for f, n in zip(PIP_BOX, (w, h, w, h), strict=True))
    _, ink = cv2.threshold(grey[y0:y1, x0:x1], 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    _, _, stats, centres = cv2.connectedComponentsWithStats(ink, connectivity=8)
    return InkBlobs(stats[1:], centres[1:], (x0, y0, x1, y1), (w, h))


def pip_layout(body_bgr: np.ndarray) -> PipLayout:
    """The pips of a straightened card (BGR, upright or upside down): :class:`PipLayout`."""
    return layout_of(ink_blobs(body_bgr))


def layout_of(blobs: InkBlobs) -> PipLayout:
    """The pips among a card's blobs of ink (:func:`ink_blobs`): :class:`PipLayout`."""
    stats, (x0, y0, x1, y1), (w, h) = blobs.stats, blobs.box, blobs.size
    areas = stats[:, cv2.CC_STAT_AREA]
    if not len(areas):
        return PipLayout(0, False)
    big = areas > _LARGEST_SHARE * areas.max()
    pips, boxes = areas[big], stats[big]
    if pips.max() > _ALIKE * pips.min():
        return PipLayout(None, False)
    inside = ((boxes[:, cv2.CC_STAT_LEFT] > 0) & (boxes[:, cv2.CC_STAT_TOP] > 0)
              & (boxes[:, cv2.CC_STAT_LEFT] + boxes[:, cv2.CC_STAT_WIDTH] < x1 - x0)
              & (boxes[:, cv2.CC_STAT_TOP] + boxes[:, cv2.CC_STAT_HEIGHT] < y1 - y0)).all()  # fmt: skip
    at = blobs.centres[big] + (x0, y0)
    middle = int((np.abs(at[:, 0] - w / 2) < _MIRROR_TOLERANCE * w).sum())
    printed = middle == _MIDDLE_COLUMN.get(len(pips), -1)  # a ten with its two middle pips hidden is no eight
    return PipLayout(len(pips), bool(inside) and printed and _symmetric(at, w, h))


def _symmetric(centres: np.ndarray, w: int, h: int) -> bool:
    """Whether pip centres (K, 2) are point-symmetric about the card's centre, as printed layouts
    are (a seven's extra pip, on the middle column, excepted)."""
    mirrored = np.array([w, h], np.float64) - centres
    gap = np.linalg.norm(centres[:, None, :] - mirrored[None, :, :], axis=2).min(axis=1)
    unmatched = gap > _MIRROR_TOLERANCE * w
    if len(centres) == 7 and unmatched.sum() == 1:
        return bool(abs(centres[unmatched][0, 0] - w / 2) < _MIRROR_TOLERANCE * w)
    return not unmatched.any()


@dataclass(frozen=True)
class PipEvidence:
    """What the pips say of N cards: ``named`` a card they name (-1: none) with its ``confidence``,
    ``veto`` they contradict the corners' best card, ``asked`` the cards whose pips were counted."""

    named: np.ndarray
    confidence: np.ndarray
    veto: np.ndarray
    asked: np.ndarray


def pip_evidence(frame: np.ndarray, corners: np.ndarray, face_up: np.ndarray, posterior: np.ndarray, *,
                 pyramid: Pyramid, threshold: float, hesitated: np.ndarray | None = None,
                 prior: np.ndarray | None = None) -> PipEvidence:  # fmt: skip
    """The pips' evidence on N cards (``corners`` (N, 4, 2) in the reader's order, ``face_up`` (N,),
    ``posterior`` (N, 52) the corners' voted posterior over the cards, ``threshold`` the reader's).

    Asked are the face-up cards whose best card is a number card and either whose runner-up of
    another rank is a number too (:data:`_RUNNER_UP`) or that the corners leave unsure:

    - when the pips lie as a deck prints them (:attr:`PipLayout.regular`) and number one of the
      two ranks, the count is evidence trusted :data:`_COUNT_TRUST` to 1 - that: the posterior is
      weighed by it (every card of the counted rank against every other), and the counted rank in
      the best card's suit is named when its weighed posterior reaches ``threshold``, with that as
      its confidence. The corners must really hesitate: a rank they hold at 0.1 % stays far below;
    - otherwise, when the part of the card no other card's outline hides fits one number card's
      layout alone (:func:`vision.pip_layouts.fitting_counts`: a neighbour in a touching row hides
      a corner and some pips), and that is the corners' best rank or their runner-up's, the
      layout's rank is weighed in the same way (its likeliest suit named);
    - otherwise the pips veto the best card when their count numbers the runner-up's rank and the
      best rank's layout does not fit the pips in sight (a neighbour may hide some of them).

    ``hesitated`` (N,), when given, is a number rank one of each card's corners held beside its
    best (-1 for none: :func:`corner_runner_up`). The vote of two corners printed alike can leave
    that rank far under :data:`_RUNNER_UP` (a 6 read as an 8 at 0.82 and 0.65, the 6 at 0.06 and
    0.24, is an 8 at 0.9996); such a card is asked with it as the runner-up. ``prior`` (N, 52),
    when given with it, is what the corners say one by one (:func:`hesitant_prior`): where the
    vote names nothing, the count or the layout in sight is weighed against that too, so a regular
    count of six pips names the 6 the corners gave 0.06 and 0.24 (weighed 0.94), which the vote
    left at 0.04 %.
    """
    n = len(corners)
    named, confidence = np.full(n, -1, np.int64), np.zeros(n)
    veto, looked = np.zeros(n, bool), np.zeros(n, bool)
    asked: list[tuple[int, int, int, list[np.ndarray]]] = []  # card, best id, runner-up rank (-1: none), priors
    for i in np.flatnonzero(face_up):
        best = int(np.argmax(posterior[i]))
        rank, suit = divmod(best, 4)
        if rank >= NUMBER_RANKS:
            continue
        other = posterior[i].copy()
        other[rank * 4 : rank * 4 + 4] = -1.0  # every suit of the best rank
        alternative = int(np.argmax(other)) // 4
        wavered = hesitated is not None and 0 <= hesitated[i] < NUMBER_RANKS and hesitated[i] != rank
        priors = [posterior[i], prior[i]] if wavered and prior is not None else [posterior[i]]
        if alternative < NUMBER_RANKS and other[alternative * 4 + suit] > _RUNNER_UP:
            asked.append((int(i), best, alternative, priors))
        elif wavered:
            assert hesitated is not None
            asked.append((int(i), best, int(hesitated[i]), priors))
        elif posterior[i, best] < threshold:
            asked.append((int(i), best, -1, priors))
    if not asked:
        return PipEvidence(named, confidence, veto, looked)
    bodies = card_regions(pyramid, [corners[k] for k, *_ in asked], (0.0, 0.0, 1.0, 1.0), BODY, ordered=True)
    frame_size = (frame.shape[1], frame.shape[0])
    for (k, best, alternative, priors), body in zip(asked, bodies, strict=True):
        looked[k] = True
        rank, suit = divmod(best, 4)
        layout = pip_layout(body) if alternative >= 0 else PipLayout(None, False)
        in_sight: list[int] | None = None
        for weighing in priors:  # the vote; then, for corners that hesitated, what each says alone
            if layout.regular and layout.count is not None and layout.count - 2 in (rank, alternative):
                counted = (layout.count - 2) * 4 + suit
                if (sure := weighed(weighing, counted)) >= threshold:
                    named[k], confidence[k] = counted, sure
                    break
            in_sight = counts_in_sight(body, corners, k, frame_size) if in_sight is None else in_sight
            fitted = _fitted_card(in_sight, weighing)
            if fitted >= 0 and (sure := weighed(weighing, fitted)) >= threshold:
                named[k], confidence[k] = fitted, sure
                break
        if named[k] < 0 and layout.count is not None and layout.count - 2 == alternative:
            # A count cut short by a neighbour is no evidence against a rank whose printed layout
            # fits the pips still in sight.
            veto[k] = rank + 2 not in (in_sight or [])
    return PipEvidence(named, confidence, veto, looked)


def corner_runner_up(cards: np.ndarray, none: np.ndarray, best: np.ndarray) -> np.ndarray:
    """The number rank (0-8; -1 for none) other than the best card's that one of each card's
    corners holds at :data:`vision.classify.HESITATION` or more, the likeliest such: ``cards`` (N,
    C, 52) each corner's probabilities, ``none`` (N, C) its P(no index), ``best`` (N,) the voted
    best card. A corner that hardly sees an index (P(no index) above a half) is not asked."""
    numbers = corner_ranks(cards, none, best)[:, :NUMBER_RANKS]
    out: np.ndarray = np.where(numbers.max(axis=1, initial=0.0) >= HESITATION, numbers.argmax(axis=1), -1)
    return out.astype(np.int64)


def hesitant_prior(posterior: np.ndarray, cards: np.ndarray, none: np.ndarray) -> np.ndarray:
    """Each card's posterior (N, 52) with the rank as its corners say it one by one: the mean of
    their ranks' probabilities over the corners that see an index (P(no index) at most a half; all
    corners where none does), shared among the suits as the vote ``posterior`` shares each rank.
    ``cards`` (N, C, 52), ``none`` (N, C). Two corners printed alike make the same mistake, so their
    vote is surer of the rank than either; the mean is what one of them says. The suit stays the
    vote's: a corner that hardly sees its index still tells the suit's colour and shape."""
    if not len(cards):
        return np.zeros((0, 52))
    seeing = np.asarray(none) <= 0.5
    seeing[~seeing.any(axis=1)] = True
    weights = seeing / seeing.sum(axis=1, keepdims=True)
    ranks = np.einsum("nc,ncr->nr", weights, rank_mass(np.asarray(cards, np.float64)))  # (N, 13)
    by_rank = np.asarray(posterior, np.float64).reshape(-1, 13, 4)
    held = by_rank.sum(axis=2, keepdims=True)
    suits = np.where(held > 1e-12, by_rank / np.maximum(held, 1e-12), 0.25)
    out: np.ndarray = (ranks[..., None] * suits).reshape(-1, 52)
    return out


def weighed(posterior: np.ndarray, card: int) -> float:
    """The posterior (52,) of ``card`` once the body is seen to show its rank (its pips, or an
    ace's one large pip), that cue trusted :data:`_COUNT_TRUST` to 1 - that."""
    rank = card // 4
    of_rank = float(posterior[rank * 4 : rank * 4 + 4].sum())
    return float(posterior[card] * _COUNT_TRUST / (of_rank * _COUNT_TRUST + (1.0 - of_rank) * (1.0 - _COUNT_TRUST)))


def _fitted_card(counts: list[int], posterior: np.ndarray) -> int:
    """The card (id; -1 for none) whose rank alone fits the pips a card shows where the other
    cards' outlines and the frame's edge leave it in sight (``counts``, the pip counts whose layouts
    fit: :func:`vision.pip_layouts.counts_in_sight`), when that rank is the corners' best or
    runner-up (the runner-up only when the best is a number card too), in its likeliest suit."""
    if len(counts) != 1:
        return -1
    by_rank = posterior.reshape(13, 4).sum(axis=1)
    first, second = (int(r) for r in np.argsort(-by_rank)[:2])
    fitted = counts[0] - 2
    if fitted != first and not (fitted == second and first < NUMBER_RANKS):
        return -1
    return fitted * 4 + int(np.argmax(posterior[fitted * 4 : fitted * 4 + 4]))


def pip_verdicts(frame: np.ndarray, corners: np.ndarray, readings: tuple[np.ndarray, np.ndarray, np.ndarray],
                 posterior: np.ndarray, *, pyramid: Pyramid, threshold: float
                 ) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Readings (card ids (N,) with -1 for none, face up (N,), confidences (N,)) after the pips have
    been asked (:func:`pip_evidence`): new (card ids, confidences). A vetoed card becomes unsure
    and keeps its best guess's confidence."""
    card_ids, face_up, confidence = (np.array(a) for a in readings)
    found = pip_evidence(frame, corners, face_up, posterior, pyramid=pyramid, threshold=threshold)
    by_pips = found.named >= 0
    card_ids[by_pips], confidence[by_pips] = found.named[by_pips], found.confidence[by_pips]
    card_ids[found.veto & ~by_pips] = -1
    return card_ids, confidence
