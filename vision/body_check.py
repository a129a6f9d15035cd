"""A card's body against its reading's rank class: a sure reading the body plainly contradicts is unsure.

Both index corners of a card are printed in one font, so where the corner models misread it they
tend to agree, and the reading can be sure and wrong: a small 6 taken for an 8, a 10 for a Q, a 9
for a J, the French ace's "1" for a J, an A for a 5. The body of the card says the rank another
way. These cues are read from the straightened card, each only where it is plain:

- a regular pip count (:attr:`vision.pip_check.PipLayout.regular`: the pips lie as a deck prints
  them, none cut, mirrored through the centre): a number card of that many pips;
- many pips (six or more pip-sized blobs all alike in size, laid out regularly or not): no court
  card or ace;
- a picture (two or more hue families, :func:`vision.picture.hue_families`): a court card;
- one large solid blob in the middle (:func:`ace_pip`): an ace.

The ace's pip also names an ace the corners hesitate over (:func:`ace_evidence`, asked by the pips
stage): it is the plainest of the cues, seen on no number or court card below.

A sure reading is vetoed (the card is unsure, never named as another) when they contradict it
(:meth:`BodyCues.contradicts`): a number card by a regular count of another number, or (unless
the pips lie regularly and number the reading itself) a picture or an ace's pip; a court card or
an ace by pips (a regular count of three or more, or six alike blobs) in a body that shows no
picture; a court card by an ace's pip too. A regular count of two says nothing against a court
card: a point-symmetric court picture can split into two mirrored blobs.

Measured with ``TOCKTABLE_FONTS=system python -m bench.body_cues`` (20 scenes for each of training
and hold-out fonts, English letters and the French ace printed "1", cards apart and touching rows:
160 scenes; every face-up card the reader found, straightened along the outline it found; then the
208 Bicycle webcam photos of ``../shared/vision-real``):

- number cards (963 rendered, 144 real): 479 and 140 regular counts, none wrong; no picture, no
  ace's pip;
- court cards (364 rendered, 48 real): 39 regular counts, every one of them two (none real); never
  six alike blobs; a picture on 328 (90 %) and 44 (92 %); no ace's pip;
- aces (124 rendered, 16 real): no regular count, never six alike blobs, no picture; the ace's pip
  on 115 (93 %) rendered, on none of the real ones (their pip is less plain: it says nothing then);
- of the 1,411 rendered cards and 208 photos the other stages named rightly none was vetoed; of
  the one rendered card named wrongly (an A♥ read 3♥) it was.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.mark_reader import card_regions
from vision.picture import BODY_BOX, BODY_SIZE, hue_families
from vision.pip_check import BODY, NUMBER_RANKS, InkBlobs, ink_blobs, layout_of, weighed
from vision.rectify import Pyramid

ACE = 12
"""The ace's rank in card ids (rank * 4 + suit; ranks 0..12 are 2..A)."""

_ACE_WIDTH = 0.22
"""An ace's pip is at least this share of the card's width wide (a number card's pips at most 0.17)."""

_ACE_CENTRE = 0.15
"""An ace's pip is centred on the card to within this share of the card's width, both ways (an
outline a few pixels off where cards touch shifts it)."""

_ACE_HEIGHT = 0.5
"""An ace's pip is at most this share of the card's height high (a court picture is most of it)."""

_ACE_FILL = 0.3
"""An ace's pip fills at least this share of its bounding box (a slim diamond 0.38; a court picture's
ink, when it is one blob, is sparser and taller)."""

_ACE_SHARE = 0.75
"""An ace's pip is at least this share of the ink in the middle of the card (a picture has more;
a neighbour's index seen past an outline a little too wide adds some)."""


_LARGEST_SHARE = 0.25
"""A blob of ink is pip-sized when it is at least this share of the largest (as pips are counted)."""

_FEWEST_REGULAR = 3
"""A regular count speaks against a court card or an ace from this many pips: a court picture
(point-symmetric, as printed) can split into two alike blobs mirrored on the middle column, which
is a two's layout."""

_FEWEST_ALIKE = 6
"""So many pip-sized blobs, all alike in size (the largest at most twice the smallest), laid out
regularly or not, speak against a court card or an ace (a number card seen along an outline a few
pixels off, its pips no longer mirrored): no rendered court card's body showed more than four, none
more than two without a picture. (Counted round their median instead, leaving out a blob cut by the
edge, the blobs of real court pictures are alike too: three Bicycle K♣ photos showed six and no
picture, so a single odd blob spoils the count.)"""


@dataclass(frozen=True)
class BodyCues:
    """What the body of one card plainly shows: ``count`` a regular pip count (None: no regular
    layout), ``alike`` how many pip-sized blobs it shows, regular or not, when they are all alike
    in size (:func:`vision.pip_check.count_pips`; 0 when they are not), ``picture`` two or more
    hue families, ``ace`` one large pip in the middle."""

    count: int | None
    alike: int
    picture: bool
    ace: bool

    def contradicts(self, rank: int) -> bool:
        """Whether these cues contradict a reading of ``rank`` (0..12: 2..A): a number card's by a
        regular count of another number, or (unless its pips lie regularly and number the reading
        itself: the count is trusted 99:1) a picture or an ace's pip; a court card's or an ace's by
        pips (a regular count of three or more, or six alike blobs) in a body that shows no
        picture, and a court card's by an ace's pip too."""
        if rank < NUMBER_RANKS:
            if self.count == rank + 2:
                return False  # pips as printed, and the reading's own number: the body agrees
            return self.count is not None or self.picture or self.ace
        pips = ((self.count is not None and self.count >= _FEWEST_REGULAR)
                or self.alike >= _FEWEST_ALIKE) and not self.picture  # fmt: skip
        return pips or (rank < ACE and self.ace)


def ace_pip(body_bgr: np.ndarray) -> bool:
    """Whether a straightened card (BGR, :data:`vision.pip_check.BODY`) shows one large pip in its
    middle and no other ink of a pip's size there, as an ace does."""
    return _ace_of(ink_blobs(body_bgr))


def _ace_of(blobs: InkBlobs) -> bool:
    stats, (x0, y0, x1, y1), (w, h) = blobs.stats, blobs.box, blobs.size
    if not len(stats):
        return False
    areas = stats[:, cv2.CC_STAT_AREA]
    big = np.flatnonzero(areas > _LARGEST_SHARE * areas.max())
    if len(big) != 1:
        return False
    left, top, width, height = (int(stats[big[0], k]) for k in (cv2.CC_STAT_LEFT, cv2.CC_STAT_TOP,
                                                                  cv2.CC_STAT_WIDTH, cv2.CC_STAT_HEIGHT))  # fmt: skip
    inside = left > 0 and top > 0 and left + width < x1 - x0 and top + height < y1 - y0
    cx, cy = x0 + left + width / 2, y0 + top + height / 2  # a heart's ink lies high in its box
    centred = abs(cx - w / 2) < _ACE_CENTRE * w and abs(cy - h / 2) < _ACE_CENTRE * w
    area = float(areas[big[0]])
    solid = area >= _ACE_FILL * width * height and area >= _ACE_SHARE * float(areas.sum())
    return bool(inside and centred and solid and _ACE_WIDTH * w <= width and height <= _ACE_HEIGHT * h)


def _pictures(bodies_bgr: np.ndarray) -> np.ndarray:
    """Whether the inner part of each straightened card (N, H, W, 3) shows two or more hue families."""
    if not len(bodies_bgr):
        return np.zeros(0, bool)
    h, w = bodies_bgr.shape[1:3]
    u0, v0, u1, v1 = BODY_BOX
    inner = [cv2.resize(body[int(v0 * h) : int(v1 * h), int(u0 * w) : int(u1 * w)], BODY_SIZE,
                        interpolation=cv2.INTER_AREA) for body in bodies_bgr]  # fmt: skip
    out: np.ndarray = hue_families(np.stack(inner)) >= 2
    return out


def _without_picture(body_bgr: np.ndarray) -> BodyCues:
    """The cues of one straightened card but the picture (taken as absent)."""
    blobs = ink_blobs(body_bgr)
    layout = layout_of(blobs)
    return BodyCues(layout.count if layout.regular else None, layout.count or 0, False, _ace_of(blobs))


def body_cues(body_bgr: np.ndarray) -> BodyCues:
    """The cues of one straightened card (BGR, upright or upside down, :data:`vision.pip_check.BODY`)."""
    return all_cues(body_bgr[None])[0]


def all_cues(bodies_bgr: np.ndarray) -> list[BodyCues]:
    """The cues of each straightened card (N, H, W, 3), the pictures measured in one batch."""
    cues = [_without_picture(body) for body in bodies_bgr]
    seen = _pictures(bodies_bgr).tolist()
    return [BodyCues(c.count, c.alike, picture, c.ace) for c, picture in zip(cues, seen, strict=True)]


def contradictions(bodies_bgr: np.ndarray, ranks: np.ndarray) -> np.ndarray:
    """Whether each straightened card's body (N, H, W, 3) contradicts a reading of its rank
    (``ranks`` (N,), 0..12: 2..A; :meth:`BodyCues.contradicts`): (N,) bool. The picture is measured
    only where it can change the answer."""
    out = np.zeros(len(bodies_bgr), bool)
    ask: list[int] = []
    cues = [_without_picture(body) for body in bodies_bgr]
    for k, (found, rank) in enumerate(zip(cues, ranks.tolist(), strict=True)):
        with_picture = BodyCues(found.count, found.alike, True, found.ace).contradicts(rank)
        if with_picture == found.contradicts(rank):
            out[k] = found.contradicts(rank)
        else:
            ask.append(k)
    if ask:
        seen = _pictures(bodies_bgr[ask])
        for k, picture in zip(ask, seen.tolist(), strict=True):
            out[k] = BodyCues(cues[k].count, cues[k].alike, picture, cues[k].ace).contradicts(int(ranks[k]))
    return out


def bodies(pyramid: Pyramid, corners: np.ndarray) -> np.ndarray:
    """The straightened cards (corners (N, 4, 2) in the reader's order): (N, H, W, 3) at :data:`BODY`."""
    return card_regions(pyramid, list(corners), (0.0, 0.0, 1.0, 1.0), BODY, ordered=True)


def body_vetoes(pyramid: Pyramid, corners: np.ndarray, best: np.ndarray) -> np.ndarray:
    """Which of N cards (corners (N, 4, 2) in the reader's order, ``best`` the card ids read) show a
    body that contradicts their reading's rank (:func:`contradictions`): (N,) bool."""
    return contradictions(bodies(pyramid, corners), np.asarray(best, np.int64) // 4)


def ace_evidence(pyramid: Pyramid, corners: np.ndarray, asked: np.ndarray, posterior: np.ndarray,
                 required: np.ndarray, *, threshold: float) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Aces named by their body: (N,) card ids (-1: none) and confidences.

    Asked are the cards ``asked`` (N,) whose corners' posterior (N, 52) leaves them below what
    their height asks (``required``, :attr:`vision.evidence.Evidence.required`) and holds an ace as
    its best or runner-up rank: an index a hold-out font prints unlike the models' (the French "1"
    taken for a J or a 3, an A for a 4). When the body shows an ace's one large pip in its middle
    (:func:`ace_pip`, never seen on a number or court card, module docstring), the ace's rank is
    weighed into the posterior as a pip count is (:func:`vision.pip_check.weighed`), in the suit
    the corners hold likeliest for it, and named when that reaches ``threshold``."""
    n = len(corners)
    named, confidence = np.full(n, -1, np.int64), np.zeros(n)
    rows = []
    for i in np.flatnonzero(asked):
        if posterior[i].max() >= required[i]:
            continue
        by_rank = posterior[i].reshape(13, 4).sum(axis=1)
        if ACE in np.argsort(-by_rank)[:2]:
            rows.append(int(i))
    if not rows:
        return named, confidence
    for row, body in zip(rows, bodies(pyramid, corners[rows]), strict=True):
        if not ace_pip(body):
            continue
        card = ACE * 4 + int(np.argmax(posterior[row, ACE * 4 : ACE * 4 + 4]))
        sure = weighed(posterior[row], card)
        if sure >= threshold:
            named[row], confidence[row] = card, sure
    return named, confidence

