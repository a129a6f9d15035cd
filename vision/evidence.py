"""The evidence the card reader gathers about every candidate card of one frame, and the one
decision made from it at the end.

The reader is a list of stages (:mod:`vision.stages`, listed in ``models/reader.json``); each adds
to or revises this record and none decides. :meth:`Evidence.decide` then turns the whole record
into :class:`vision.observations.Observations` once, by fixed rules:

1. a card is face up when the card model says so or its corners plainly show an index, or (with a
   deck profile) when it shows a face's blank margins and surely matches an enrolled face;
2. a face-up card is named when the posterior of its best card reaches the reader's threshold
   (unsure is always better than wrong), and only when it is as tall as the cards the corner
   models were trained on (a smaller index is read with a confidence nothing has calibrated);
   a card not much taller than that must reach a higher posterior (``reader.json`` "caution":
   the corners misread small indices, a club as a spade above all, with high posteriors), and so
   must an ace or a court card whose letter neither corner is sure of (:data:`LETTER_SURE`: the
   two corners print the same letter in the same font and err together, and no pips check it);
   a smaller card is named by the small-card reader (the whole card read at once,
   :mod:`vision.small`) when its reading reaches that reader's own threshold, and is then face up;
3. the pips may name a number card the corners hesitate over, and an ace's one large pip an ace
   (as surely as rule 2 asks of a card that tall: the body tells the rank, the suit is still the
   corners'), or veto a reading they contradict;
   a body that shows a picture vetoes a number card (it is a court card), and a body that plainly
   contradicts the rank class or the pip count of a sure reading vetoes it (:mod:`vision.body_check`);
   the body's suit symbols, where the suit witness read them (:mod:`vision.suit_witness`), veto a
   number card or an ace whose suit they plainly deny (all of them another suit), whoever named
   it (the pips say a card's rank, never its suit);
4. the deck profile (cards enrolled from the user's deck) may name a face-up card, or make it
   unsure when it surely disagrees with the models (unless the models did not read that enrolled
   card's own photos rightly: a deck whose letters they do not know); a card the profile cannot
   place that the models read as they misread another enrolled card, or an ace or a court card
   whose index pixels the enrolled photos doubt, is unsure; the same holds for the cards the
   host taught at the table (:mod:`vision.deck_examples`);
5. a face-down card carries its Tock mark, and its confidence is P(face down) × P(mark);
6. a card one of whose index corners the joker check (:mod:`vision.joker`) surely takes for a
   joker's is the joker, face up (unsure where the deck profile surely names another card), if
   it is no smaller than the smallest card the check was trained on; one whose corner it only
   doubts is named as none of the 52, whatever its size and whoever named it;
7. a card taken for a back whose outline was completed from a visible corner (part of it hidden)
   and fits what was found poorly is not reported: such outlines are mostly not cards at all
   (a piece of a large card, a patch of patterned cloth, two cards and a hand run together), and
   the card model takes most things that are not a card's face for a back. Nor is a card taken
   for a back whose outline was found as a face only (on a cloth the detector took for card,
   :mod:`vision.paper`): what such an outline holds is a face or nothing.
"""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from table.cards import COURT_RANKS, JOKER_ID, Rank
from vision.classify import rank_mass
from vision.observations import Observations
from vision.rectify import Pyramid, card_heights

FACE_UP = 0.5
"""A card is face up when the card model's P(face up) is above this..."""

PLAIN_INDEX = 0.8
"""... or when the corners show an index with at least this probability."""

BACK_FIT = 0.75
"""A back is reported only when its outline is whole or fits at least this well (rule 7). On the
hard hold-out (``TOCKTABLE_FONTS=system python -m bench.vision --only hard --skip-peers``, which
counts "false backs": outlines reported face down where no face-down card lies) the rule takes the
false backs from 84 to 57 for 3 backs of 690 cards no longer found (91.3 → 90.9 %)."""


SUIT_VETO = 0.1
"""A number card or an ace is vetoed (rule 3) when the suit witness gives its suit at most this
likelihood and another suit the full one: only a body whose symbols all show another suit vetoes.
The corners read a small club as a spade, a heart as a diamond, at posteriors the witness's
floored likelihood cannot overturn (a 3♣ read 3♠ at 0.99 stays 3♠ at 0.92 after its body's three
clubs). Not a court card: the symbols beside a picture are read less surely (the witness names
the right suit of 397 of 429 court cards against 2,031 of 2,033 number cards, model card), and a
J♠ whose symbols were taken for clubs was made unsure."""


LETTERED = (int(Rank.JACK), int(Rank.QUEEN), int(Rank.KING), int(Rank.ACE))
"""The ranks whose index is a letter (or a 1): an ace's or a court card's rank has no pips to check it."""

LETTER_SHARE = 0.65
"""A lettered reading is doubted (rule 2) when neither corner gives its rank at least this share
of what that corner gives the 52 cards..."""

LETTER_SURE = 0.9
"""... and its posterior is below this. The corners of one card print the same letter in the same
font, so where a face's letter looks like another (an R like a J, a B like a K, a 1 like a J)
both corners make the same mistake, and their vote is surer than either: a king of Old Standard
Bold whose corners each give the jack 0.52-0.54 is read as a jack at 0.86. A number card's pips
check its rank (rule 3); a letter has nothing else to check it. Both bounds were chosen on the
corner readings of two draws of hold-out scenes (``python -m bench.vision_misses``, seeds 3,7 and
11,13) and measured on two more (``--seeds 17,19`` and ``23,29``): the French and German decks'
wrong readings 14 → 7 there for 17 right ones left unsure (4,314 face-up cards), 31 → 17 over all
four draws (8,694 cards: 0.36 → 0.20 %) for 32; the English decks' letters lose 2 right readings
of 2,898 and had no wrong one to lose (an ace so doubted is still named by its pip, rule 3). An
unsure card is one the host names, and the reader learns it (:mod:`vision.deck_examples`); a wrong
one may go unseen into a pot."""


def _floats(n: int, value: float = 0.0) -> np.ndarray:
    return np.full(n, value, np.float64)


@dataclass(eq=False)
class Evidence:
    """Everything known about the N candidate cards of one frame (arrays indexed by card).

    Outline: ``corners`` (N, 4, 2) frame pixels clockwise from the card's upright top left,
    ``partial`` (part of the card hidden), ``fit`` (how well the outline matched what was found).
    Corners (:meth:`vision.reader.CardReader.classify_indices`): ``cards`` (N, 2, 52) each corner's
    P(card | index), ``none`` (N, 2) each corner's P(no index), ``posteriors`` (N, 52) the voted
    posterior over the cards, ``best``/``posterior`` its top card and probability, ``seen``
    P(at least one corner shows an index), ``embedding`` the corner models' features, ``expert``
    whether the finer corner model was asked. Card model: ``p_face`` P(face up), ``card_embedding``,
    ``p_face_turned`` P(face up) of the card seen turned a quarter (NaN: not looked at).
    Ink: ``red_ink`` 1 where both index corners are printed plainly red, 0 where not, -1 not looked at.
    Body: ``pip_named``/``pip_confidence`` a card the pips name (-1: none), ``pip_veto`` the pips
    contradict the reading, ``picture_veto`` the body shows a picture where the corners read a number,
    ``body_veto`` the body plainly contradicts a sure reading's rank (:mod:`vision.body_check`),
    ``suit_likelihood`` (N, 4) what the body's suit symbols say of the suit (c, d, h, s; ones where
    the suit witness was not asked or its symbols say nothing).
    Profile: ``profile_card``/``profile_confidence`` (-1: no sure match), ``profile_face`` a card
    the models took for a back that shows a face's blank margins and surely matches an enrolled face,
    ``profile_explains`` the models did not read the matching enrolled card's own photos rightly
    (their reading is no evidence against the profile), ``profile_doubt`` no sure match, and the
    models read the card as they misread another enrolled card of this deck.
    Small cards: ``small`` read by the small-card reader, ``small_best`` its best card (52: nothing
    to name), ``small_posterior`` that card's probability.
    Backs: ``marks`` and ``mark_confidence`` of face-down cards, ``backs_read`` which were read.
    Jokers: ``joker_score`` the larger of the joker check's P(a joker's corner) over the two index
    corners (0: not looked at), against ``joker_threshold`` (named) and ``joker_doubt`` (never
    named as one of the 52), both set by the joker stage.
    ``asked`` records, per stage, which cards it looked at (for pictures, tests and figures).
    """

    frame: np.ndarray
    pyramid: Pyramid
    threshold: float
    corners: np.ndarray
    partial: np.ndarray
    fit: np.ndarray
    embedding_size: int
    card_embedding_size: int
    min_height: float = 0.0
    """Cards shorter than this (pixels) are never named by their corners: their index is smaller
    than any the corner models were trained on (``reader.json`` "min_card_height")."""
    small_threshold: float = 1.0
    """The small-card reader's own threshold (``small.json``): below it a small card is unsure."""
    joker_threshold: float = 2.0
    """The joker check's threshold (``joker.json``; above 1: no check, no joker named)."""
    joker_doubt: float = 2.0
    """A card whose joker score reaches this is never named as one of the 52."""
    joker_min_height: float = 0.0
    """Cards shorter than this (pixels) are never named the joker (``joker.json`` "min_card_height")."""
    faces_only: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    """(N,) bool: outlines found as faces only (:attr:`vision.detect.Outline.face_only`), not
    reported as backs (rule 7). Left empty: none."""
    caution: tuple[tuple[float, float], ...] = ()
    """(height, threshold) pairs (``reader.json`` "caution"): a card shorter than ``height`` pixels
    is named from its corners only when their posterior reaches ``threshold`` (rule 2)."""
    cards: np.ndarray = field(init=False)
    none: np.ndarray = field(init=False)
    posteriors: np.ndarray = field(init=False)
    best: np.ndarray = field(init=False)
    posterior: np.ndarray = field(init=False)
    seen: np.ndarray = field(init=False)
    expert: np.ndarray = field(init=False)
    embedding: np.ndarray = field(init=False)
    p_face: np.ndarray = field(init=False)
    card_embedding: np.ndarray = field(init=False)
    p_face_turned: np.ndarray = field(init=False)
    red_ink: np.ndarray = field(init=False)
    pip_named: np.ndarray = field(init=False)
    pip_confidence: np.ndarray = field(init=False)
    pip_veto: np.ndarray = field(init=False)
    picture_veto: np.ndarray = field(init=False)
    body_veto: np.ndarray = field(init=False)
    suit_likelihood: np.ndarray = field(init=False)
    profile_card: np.ndarray = field(init=False)
    profile_confidence: np.ndarray = field(init=False)
    profile_face: np.ndarray = field(init=False)
    profile_explains: np.ndarray = field(init=False)
    profile_doubt: np.ndarray = field(init=False)
    small: np.ndarray = field(init=False)
    small_best: np.ndarray = field(init=False)
    small_posterior: np.ndarray = field(init=False)
    marks: list[str | None] = field(init=False)
    mark_confidence: np.ndarray = field(init=False)
    backs_read: np.ndarray = field(init=False)
    joker_score: np.ndarray = field(init=False)
    asked: dict[str, np.ndarray] = field(init=False, default_factory=dict)
    ahead: dict[str, tuple[np.ndarray, Future[Any]]] = field(init=False, default_factory=dict)
    """Work a stage had the helper thread begin before its turn, by stage name: the outlines it
    was begun for and its result to come (the stage takes it only for the same outlines)."""
    _too_small: tuple[tuple[bytes, float], np.ndarray] | None = field(init=False, default=None, repr=False)

    def __post_init__(self) -> None:
        n = len(self.corners)
        self.corners = np.asarray(self.corners, np.float64).reshape(n, 4, 2)
        self.partial = np.asarray(self.partial, bool).reshape(n)
        self.fit = np.asarray(self.fit, np.float64).reshape(n)
        self.faces_only = np.asarray(self.faces_only, bool).reshape(n) if len(self.faces_only) else np.zeros(n, bool)
        self.cards = np.full((n, 2, 52), 1 / 52)
        self.none = np.ones((n, 2))
        self.posteriors = np.full((n, 52), 1 / 52)
        self.best = np.zeros(n, np.int64)
        self.posterior = _floats(n, 1 / 52)
        self.seen = _floats(n)
        self.expert = np.zeros(n, bool)
        self.embedding = np.zeros((n, self.embedding_size), np.float32)
        self.p_face = _floats(n)
        self.card_embedding = np.zeros((n, self.card_embedding_size), np.float32)
        self.p_face_turned = _floats(n, np.nan)
        self.red_ink = np.full(n, -1, np.int8)
        self.pip_named = np.full(n, -1, np.int64)
        self.pip_confidence = _floats(n)
        self.pip_veto = np.zeros(n, bool)
        self.picture_veto = np.zeros(n, bool)
        self.body_veto = np.zeros(n, bool)
        self.suit_likelihood = np.ones((n, 4))
        self.profile_card = np.full(n, -1, np.int64)
        self.profile_confidence = _floats(n)
        self.profile_face = np.zeros(n, bool)
        self.profile_explains = np.zeros(n, bool)
        self.profile_doubt = np.zeros(n, bool)
        self.small = np.zeros(n, bool)
        self.small_best = np.full(n, 52, np.int64)
        self.small_posterior = _floats(n)
        self.marks = [None] * n
        self.mark_confidence = _floats(n, 1.0)
        self.backs_read = np.zeros(n, bool)
        self.joker_score = _floats(n)

    def __len__(self) -> int:
        return len(self.corners)

    # --- what the evidence says so far ----------------------------------------------------------

    @property
    def face_up(self) -> np.ndarray:
        """Which cards lie face up (rule 1 of the module docstring)."""
        out: np.ndarray = ((self.p_face > FACE_UP) | (self.seen > PLAIN_INDEX) | self.small_named | self.profile_face
                           | self.joker)  # fmt: skip
        return out

    @property
    def joker(self) -> np.ndarray:
        """Which cards the joker check names the joker (rule 6)."""
        tall = card_heights(self.corners) >= self.joker_min_height
        out: np.ndarray = (self.joker_score >= self.joker_threshold) & tall
        return out

    @property
    def small_named(self) -> np.ndarray:
        """Which small cards the small-card reader names surely enough (rule 2)."""
        out: np.ndarray = self.small & (self.small_best < 52) & (self.small_posterior >= self.small_threshold)
        return out

    @property
    def too_small(self) -> np.ndarray:
        """Which cards are shorter than the corner models' smallest card (rule 2): the corners'
        reading of them names nothing, and the stages that refine it leave them alone. (Measured
        again only when the outlines or the smallest height have changed since it was last asked:
        the stages ask it dozens of times a frame.)"""
        key = (self.corners.tobytes(), self.min_height)
        if self._too_small is None or self._too_small[0] != key:
            self._too_small = (key, card_heights(self.corners) < self.min_height)
        return self._too_small[1].copy()

    @property
    def readable(self) -> np.ndarray:
        """Which cards are tall enough for their index to be read at all (rule 2)."""
        out: np.ndarray = ~self.too_small
        return out

    @property
    def named(self) -> np.ndarray:
        """Which face-up cards the corners name surely enough (rule 2), before pips and profile."""
        out: np.ndarray = (self.face_up & (self.posterior >= self.threshold) & self.readable) | self.small_named
        return out

    @property
    def cautious(self) -> np.ndarray:
        """The cards the corners name (not the small-card reader) that are too short for their
        posterior: below a height of :attr:`caution`, a surer reading is asked for (rule 2)."""
        if not self.caution or not len(self):
            return np.zeros(len(self), bool)
        cautious: np.ndarray = self.named & ~self.small_named & (self.posterior < self.required)
        return cautious

    @property
    def letter_doubt(self) -> np.ndarray:
        """Which cards' corners read a letter (an ace or a court card) that neither corner is sure of
        and that the vote is not sure enough of to stand alone (rule 2, :data:`LETTER_SURE`). Not
        the cards whose court letters the letter probe shared out (a Dutch deck's, which the corners
        all read as a jack: the probe, not the corners, tells those letters apart), nor a card whose
        corners were not read."""
        if not len(self):
            return np.zeros(0, bool)
        rank = self.best // 4
        of_rank = rank_mass(self.cards)  # (N, corners, ranks)
        total = of_rank.sum(axis=2)
        share = np.where(total > 0, of_rank[np.arange(len(self)), :, rank] / np.maximum(total, 1e-12), 1.0)
        probed = np.asarray(self.asked.get("letters", np.zeros(len(self), bool)), bool)
        doubt: np.ndarray = (np.isin(rank, LETTERED) & (share.max(axis=1) < LETTER_SHARE)
                             & (self.posterior < LETTER_SURE) & ~probed)  # fmt: skip
        return doubt

    @property
    def required(self) -> np.ndarray:
        """The posterior each card's height asks of a reading that names it (rule 2): the
        reader's threshold, higher below a height of :attr:`caution`."""
        required = np.full(len(self), self.threshold)
        if self.caution and len(self):
            heights = card_heights(self.corners)
            for height, threshold in self.caution:
                required = np.where(heights < height, np.maximum(required, threshold), required)
        return required

    def set_readings(self, rows: np.ndarray, readings: dict[str, np.ndarray], picked: np.ndarray | None = None) -> None:
        """Take the corner readings (:meth:`vision.reader.CardReader.classify_indices`' keys) for the
        cards ``rows`` (their rows ``picked`` of ``readings``; all of them in order by default)."""
        picked = np.arange(len(rows)) if picked is None else picked
        for key in ("cards", "none", "posteriors", "best", "posterior", "seen", "expert", "embedding"):
            getattr(self, key)[rows] = readings[key][picked]

    def set_posteriors(self, posteriors: np.ndarray) -> None:
        """Replace the voted posterior (N, 52), and with it the best card and its probability."""
        self.posteriors = posteriors
        self.best = posteriors.argmax(axis=1) if len(posteriors) else np.zeros(0, np.int64)
        self.posterior = posteriors[np.arange(len(self.best)), self.best]

    def move(self, rows: np.ndarray, corners: np.ndarray) -> None:
        """New outlines for the cards ``rows``: what was read of their backs and bodies no longer holds."""
        self.corners[rows] = corners
        self.backs_read[rows] = False
        self.suit_likelihood[rows] = 1.0
        self.p_face_turned[rows] = np.nan
        self.red_ink[rows] = -1
        for i in np.atleast_1d(rows):
            self.marks[int(i)] = None
        self.mark_confidence[rows] = 1.0
        self.small[rows] = False
        self.joker_score[rows] = 0.0

    # --- the decision ---------------------------------------------------------------------------

    def decide(self) -> Observations:
        """The decision on every candidate, by the rules of the module docstring, made once from all
        the evidence: row for row the evidence's (rule 7's candidates included; :meth:`report`
        leaves them out)."""
        face_up = self.face_up
        card_ids = np.where(self.named, self.best, -1).astype(np.int64)
        card_ids[self.cautious | self.letter_doubt] = -1
        confidence = np.where(face_up, self.posterior, 1.0 - self.p_face).astype(np.float64)
        small = self.small & face_up
        card_ids[small] = np.where(self.small_named[small], self.small_best[small], -1)
        confidence[small] = self.small_posterior[small]
        readable = self.readable
        # The pips say the rank; the suit is still the corners', as sure as the card's height asks.
        by_pips = face_up & (self.pip_named >= 0) & readable & (self.pip_confidence >= self.required)
        card_ids[by_pips], confidence[by_pips] = self.pip_named[by_pips], self.pip_confidence[by_pips]
        card_ids[face_up & self.pip_veto & ~by_pips] = -1  # the confidence stays the best guess's
        card_ids[face_up & self.picture_veto] = -1
        card_ids[face_up & self.body_veto & ~by_pips] = -1
        card_ids[face_up & self.suit_denied(card_ids)] = -1  # the pips say the rank, never the suit
        card_ids[face_up & self.profile_doubt] = -1
        for i in np.flatnonzero(face_up & (self.profile_card >= 0) & readable):
            enrolled, sure = int(self.profile_card[i]), float(self.profile_confidence[i])
            if card_ids[i] >= 0 and card_ids[i] != enrolled and not self.profile_explains[i]:  # both sure, disagreeing
                card_ids[i], confidence[i] = -1, min(confidence[i], sure, 1 - sure)
            else:
                confidence[i] = max(sure, confidence[i] if card_ids[i] >= 0 else 0.0)
                card_ids[i] = enrolled
        joker, doubted = self.joker, self.joker_score >= self.joker_doubt
        card_ids[doubted & ~joker] = -1  # perhaps a joker: no card of the 52
        named = joker & (self.profile_card < 0)  # a sure match of an enrolled card: both sure, disagreeing
        card_ids[joker] = np.where(named[joker], JOKER_ID, -1)
        confidence[joker] = self.joker_score[joker]
        down = ~face_up
        confidence[down] *= self.mark_confidence[down]
        marks = tuple(mark if not up else None for mark, up in zip(self.marks, face_up, strict=True))
        return Observations(self.corners.copy(), card_ids, face_up, confidence, self.partial.copy(),
                            self.embedding.astype(np.float32), self.card_embedding.astype(np.float32),
                            marks)  # fmt: skip

    def suit_denied(self, card_ids: np.ndarray) -> np.ndarray:
        """Which of the cards ``card_ids`` (N, -1 for none) the body's suit symbols deny (rule 3,
        :data:`SUIT_VETO`)."""
        of_52 = (card_ids >= 0) & (card_ids < 52) & ~np.isin(card_ids // 4, COURT_RANKS)
        said = self.suit_likelihood[np.arange(len(card_ids)), np.where(of_52, card_ids, 0) % 4]
        out: np.ndarray = of_52 & (said <= SUIT_VETO) & (self.suit_likelihood.max(axis=1) >= 1.0)
        return out

    @property
    def reported(self) -> np.ndarray:
        """Which candidates are reported (rule 7): all but the backs of partial, poorly fitting
        outlines and of outlines found as faces only."""
        out: np.ndarray = self.face_up | ~((self.partial & (self.fit < BACK_FIT)) | self.faces_only)
        return out

    def report(self, decided: Observations | None = None) -> Observations:
        """The observations handed on (to the tracker, to the caller of
        :meth:`vision.reader.CardReader.read`): :meth:`decide`'s (``decided``, when the caller has
        them already), without the candidates rule 7 does not report."""
        decided, reported = self.decide() if decided is None else decided, self.reported
        return decided if reported.all() else decided[reported]
