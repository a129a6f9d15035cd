"""The card reader's stages: each one job, each adding to the frame's :class:`vision.evidence.Evidence`.

==============  ==================================================================  =======================
stage           job                                                                 model files
==============  ==================================================================  =======================
find            outlines of the cards (the learned segmenter)                       detector.onnx/.json
find_classical  outlines by the table model and edges, no model                     (none)
corners         both index corners read (corner models, with the expert's second    corners.onnx, card.onnx
                look if reader.json asks for it) beside the card model (face up?)   (+ expert.onnx/.json)
orient          which side is long, decided by reading both turns of a card         (the corner models)
                whose outline is nearly square or whose read is unsure
reframe         a too-narrow outline (cards touching) read again widened            (the corner models)
letters         court letters the models confuse (Dutch H V B), with the setting    letters-nl.npz (then)
small           cards too small for their index, read whole                         small.onnx/.json
suit_witness    the suit symbols of the card's body, where the corners doubt the    suits.onnx/.json
                suit or read a number card or an ace not beyond doubt
ink             plainly red index ink rules out spades and clubs                    (none)
picture         a body showing a picture is no number card                          (none)
pips            the pips of number cards, an ace's one pip, where the corners       (none)
                hesitate
body            a sure reading whose rank the card's body plainly contradicts       (none)
                (pips, picture, an ace's one pip) is unsure
joker           the joker check: a joker's mark in an index corner                  joker.onnx/.json
backs           the Tock mark of every face-down card                               (none)
profile         the user's enrolled deck (a deck profile), when one is in use       (none)
==============  ==================================================================  =======================

Which stages run, in which order, is listed once, in ``models/reader.json`` ("stages"); a stage
whose model file is missing is an error when the reader is made (:class:`vision.errors.ModelError`),
never a stage silently left out. The reader decides once, at the end (:meth:`Evidence.decide`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import cv2
import numpy as np

from table.cards import COURT_RANKS, Card
from vision.body_check import BodyCues, ace_evidence, all_cues, bodies, body_vetoes
from vision.deck_examples import CROP_ROWS, grey_crops, match_examples, misreads
from vision.deck_profile import NO_PIXELS, read_backs
from vision.detect import Outline
from vision.errors import ModelError
from vision.evidence import FACE_UP, LETTER_SURE, LETTERED, PLAIN_INDEX, Evidence
from vision.face_or_back import blank_margins
from vision.ink import red_inks, red_likelihood
from vision.joker import FAINT, POOR_FIT
from vision.mark_reader import PLAIN
from vision.orient import ambiguous, turned
from vision.picture import pictures
from vision.pip_check import corner_runner_up, hesitant_prior, pip_evidence
from vision.rectify import CROP_W, Pyramid, card_heights, index_crops, thumbnails
from vision.reframe import narrow_cards, widened
from vision.small import NOTHING, whole_cards
from vision.suit_witness import apply_evidence

if TYPE_CHECKING:
    from vision.deck_profile import DeckProfile
    from vision.joker import JokerCheck
    from vision.letters import LetterProbe
    from vision.mark_reader import MarkReader
    from vision.small import SmallReader
    from vision.suit_witness import SuitWitness


class Looker(Protocol):
    """What the stages use of the card reader: its models, and its helper thread."""

    @property
    def suit_witness(self) -> SuitWitness | None: ...

    @property
    def small_reader(self) -> SmallReader | None: ...

    @property
    def joker_check(self) -> JokerCheck | None: ...

    def detect(self, frame: np.ndarray, *, gray: Callable[[], np.ndarray] | None = None) -> list[Outline]: ...

    def classify_indices(self, crops: np.ndarray) -> dict[str, np.ndarray]: ...

    def classify_cards(self, thumbs: np.ndarray) -> tuple[np.ndarray, np.ndarray]: ...

    def helper(self) -> ThreadPoolExecutor: ...


@dataclass(frozen=True)
class Sources:
    """What a frame is read with besides the models, fixed for the whole frame: the deck profile
    (None: none) and the Tock mark reader (None: backs carry no marks)."""

    profile: DeckProfile | None
    marks: MarkReader | None
    letters: LetterProbe | None = None
    """The court letters' probe of the reader's index setting (:mod:`vision.letters`; None: the
    default English, French and German letters, which the models read alone)."""


class Stage:
    """One step of the reader. ``name`` as in reader.json; ``files``: the model files it needs;
    ``whole_frame``: it only makes sense on a frame of several cards (not for ``read_card``)."""

    name: ClassVar[str] = ""
    files: ClassVar[tuple[str, ...]] = ()
    whole_frame: ClassVar[bool] = False

    def run(self, evidence: Evidence, looker: Looker, sources: Sources) -> None:
        raise NotImplementedError


class Find(Stage):
    """The outlines of the cards, found by the learned segmenter (:mod:`vision.segment`)."""

    name = "find"
    files: ClassVar[tuple[str, ...]] = ("detector.onnx", "detector.json")
    whole_frame = True

    def start(self, image: np.ndarray, looker: Looker, *, threshold: float, sizes: tuple[int, int],
              min_height: float = 0.0, caution: tuple[tuple[float, float], ...] = ()) -> Evidence:  # fmt: skip
        """The evidence of a frame: its cards' outlines. While the detector works, the helper thread
        makes the frame's grey copy (for the outlines' rims) and fills the pyramid level the
        thumbnails of a frame's usual cards come from, where both are cheap to make whole
        (:data:`PREFILL_PIXELS`). In a larger frame the levels are filled only round the cards that
        need them, as the later stages sample them, and only the frame round the outlines found is
        made grey (:func:`vision.detect.find_cards`)."""
        pyramid = Pyramid(image)
        if image.shape[0] * image.shape[1] > PREFILL_PIXELS:
            outlines = looker.detect(image)
        else:
            prepared = looker.helper().submit(_prepare, image, pyramid)
            try:
                outlines = looker.detect(image, gray=prepared.result)
            except BaseException:
                wait([prepared])  # the pyramid is the helper's until then; this thread's error is the one raised
                raise
            prepared.result()
        corners = np.stack([o.corners for o in outlines]) if outlines else np.zeros((0, 4, 2))
        return Evidence(image, pyramid, threshold, corners, np.array([o.partial for o in outlines], bool),
                        np.array([o.fit for o in outlines], np.float64), *sizes, min_height=min_height,
                        faces_only=np.array([o.face_only for o in outlines], bool), caution=caution)  # fmt: skip


PREFILL_PIXELS = 1920 * 1080
"""Frames of at most this many pixels are made grey, and their first half-size level made whole,
while the detector works (about a millisecond at 1280×720). At 4608×2592 that would be about 12 ms
of a core: the cards of such a frame are seldom large enough to be sampled from that level, and
the outlines' rims are a small part of it."""


def _prepare(image: np.ndarray, pyramid: Pyramid) -> np.ndarray:
    """The frame in grey, and the pyramid's first half-size level filled (thumbnails of cards about
    125 pixels tall or more are warped from it)."""
    pyramid.level_for(2.5)
    grey: np.ndarray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return grey


class FindClassical(Find):
    """The outlines found without a model (:mod:`vision.detect`'s table model and edges)."""

    name = "find_classical"
    files = ()


class Corners(Stage):
    """Both index corners of every card read by the corner models on the helper thread, while this
    thread runs the card model (P(face up)) on every card and reads the backs of those it takes for
    face down (about as much work; the corner models run once, on every card, with no second call).
    A card whose corners plainly show an index is face up whatever the card model says, and its card
    embedding (kept for the enrollment of backs) is left empty. What the backs and orient stages
    need of the cards taken for backs (their marks; the card model's view of them turned a quarter)
    is made here too, while the corner models run; what the ink stage needs of those taken for face
    up (the colour of their index ink) the helper thread measures after the corners, and then it
    begins the small, joker, suit_witness and body stages' work (each takes it at its turn). A job of
    these the helper has not begun when this thread wants it (this thread done with its own share
    first, as with a frame of few backs) is taken back and made here rather than waited for
    (:func:`_begun`): the same work, on whichever core is free. The corners of a card shorter than
    the corner models' smallest (``reader.json`` "min_card_height") are not read: they would name
    nothing."""

    name = "corners"
    files = ("corners.onnx", "card.onnx")

    def __init__(self, backs: Backs | None, *, turned_look: bool = False, ink_look: bool = False,
                 small: Small | None = None, witness: Witness | None = None,
                 joker: Joker | None = None, body: Body | None = None) -> None:  # fmt: skip
        """``backs``: the backs stage, whose marks are read here beside the corner models;
        ``turned_look``: also show the card model the cards it takes for backs turned a quarter
        (for the orient stage), beside the corner models; ``ink_look``: also have the helper thread
        measure the index ink of every card once it has read the corners, for the ink stage (kept
        for the cards the card model takes for face up). ``small``, ``witness``, ``joker``, ``body``:
        the small, suit_witness, joker and body stages, whose work the helper thread begins after
        that (:meth:`Small.ahead`, :meth:`Witness.ahead`, :meth:`Joker.ahead`, :meth:`Body.ahead`)."""
        self.backs = backs
        self.turned_look = turned_look
        self.ink_look = ink_look
        self.small = small
        self.witness = witness
        self.joker = joker
        self.body = body

    def run(self, evidence: Evidence, looker: Looker, sources: Sources) -> None:
        quads = list(evidence.corners)
        rows = np.flatnonzero(~evidence.too_small)  # a smaller card's index says nothing the models can read
        n = len(rows)
        crops = index_crops(evidence.frame, [quads[i] for i in rows], pyramid=evidence.pyramid)
        helper = looker.helper()
        corner_job = helper.submit(looker.classify_indices, crops) if n else None
        # The ink of every card's index (each card's alone), whichever the card model takes for face up.
        ink_job = helper.submit(red_inks, crops) if n and self.ink_look else None
        if self.small is not None:
            self.small.ahead(evidence, looker)
        if self.joker is not None and corner_job is not None:
            self.joker.ahead(evidence, looker, rows, crops, corner_job)
        if self.witness is not None and corner_job is not None:
            self.witness.ahead(evidence, looker, rows, corner_job)
        if self.body is not None and corner_job is not None:
            self.body.ahead(evidence, looker, rows, corner_job)
        try:
            p_face, card_embedding = looker.classify_cards(thumbnails(evidence.frame, quads, pyramid=evidence.pyramid))
            maybe_down = np.flatnonzero(p_face <= FACE_UP)
            if self.backs is not None:
                self.backs.read(evidence, maybe_down, sources)
            if self.turned_look and len(maybe_down):
                evidence.p_face_turned[maybe_down] = _turned_look(evidence, looker, maybe_down)[0]
        except BaseException:
            # the helper is done with the frame; this thread's error is the one raised
            if corner_job is not None:
                wait([corner_job])
            if ink_job is not None:
                wait([ink_job])
            raise
        if ink_job is not None:
            maybe_up = np.flatnonzero(p_face[rows] > FACE_UP)
            if _taken(ink_job):  # the helper still reads the corners: measured here, for the cards kept only
                pairs = np.stack([2 * maybe_up, 2 * maybe_up + 1], axis=1).ravel()
                evidence.red_ink[rows[maybe_up]] = red_inks(crops[pairs])
            else:
                evidence.red_ink[rows[maybe_up]] = ink_job.result()[maybe_up]
        if corner_job is not None:
            evidence.set_readings(rows, corner_job.result())
        _take_card_model(evidence, np.arange(len(evidence)), p_face, card_embedding)


def _taken(job: Future[Any]) -> bool:
    """Whether this thread takes a job given to the helper thread back, to make its work itself: so
    it does when the helper has not begun it (busy with the jobs before it), rather than wait
    (the job is then cancelled). The work is the same wherever it is made."""
    return job.cancel()


Ahead = tuple[np.ndarray, Future[Any]]
"""Work a stage gave the helper thread ahead: the outlines it was given for, and its job."""


def _begun(made: Ahead | None) -> Ahead | None:
    """The work ahead of a stage, or None when the helper had not begun it: the stage then makes the
    work itself, where it would otherwise wait (:func:`_taken`)."""
    return None if made is None or _taken(made[1]) else made


def _made_for(made: Ahead | None, quads: np.ndarray) -> tuple[np.ndarray, Any]:
    """Which of ``quads`` the work ``made`` ahead was made for, their outlines unchanged since: for
    each, the place of its result among the work's results, or -1 (a card moved since by a later
    stage, or asked only after a later look: the stage makes its work itself); and those results
    (None without work ahead)."""
    if made is None:
        return np.full(len(quads), -1), None
    made_quads, results = made[1].result()
    if not len(made_quads):
        return np.full(len(quads), -1), results
    same = (quads[:, None] == made_quads[None]).all(axis=(2, 3))  # (quads, made)
    return np.where(same.any(axis=1), same.argmax(axis=1), -1), results


def _turned_look(evidence: Evidence, looker: Looker, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The card model's P(face up) and embedding of the cards ``rows`` seen turned a quarter."""
    other = turned(evidence.corners[rows])
    return looker.classify_cards(thumbnails(evidence.frame, list(other), pyramid=evidence.pyramid))


def _take_card_model(evidence: Evidence, rows: np.ndarray, p_face: np.ndarray, card_embedding: np.ndarray) -> None:
    plain = evidence.seen[rows] > PLAIN_INDEX
    p_face, card_embedding = p_face.copy(), card_embedding.copy()
    p_face[plain], card_embedding[plain] = 1.0, 0.0
    evidence.p_face[rows], evidence.card_embedding[rows] = p_face, card_embedding


_SURELY_BACK = 0.01
"""A card the card model takes for a back with P(face up) at most this, seen either way, is not
read turned unless its outline is in doubt: a face-up card straightened the wrong way shows the
card model a squashed picture, which it may take for a back, but seen the right way it does not."""

_SHOWS_INDEX = 0.5
"""A turned reading is kept only where its corners more likely than not show an index."""


class Orient(Stage):
    """Which side of a card is long, decided by reading (:mod:`vision.orient`).

    Every card not already named is seen turned a quarter (the other pair of sides taken as the long
    ones) by the card model, which is cheap (the corners stage does it for the cards it takes for
    backs, while the corner models run). Read turned by the corner models are those whose
    outline is nearly square in the image (perspective shortens whichever side points away from
    the camera), the face-up ones read unsure, and those the card model does not surely take for a
    back, either way. The turn whose corners more surely show an index, and read surer, is kept,
    with the card model's reading of it. A face-up card turned so keeps corners in the order read,
    not in :func:`vision.rectify.order_corners`' order (which goes by the outline's shape)."""

    name = "orient"
    whole_frame = True

    def run(self, evidence: Evidence, looker: Looker, sources: Sources) -> None:
        evidence.asked[self.name] = asked = np.zeros(len(evidence), bool)
        rows = np.flatnonzero(~evidence.named & ~evidence.too_small)
        unseen = rows[np.isnan(evidence.p_face_turned[rows]) & ~evidence.face_up[rows]]
        if len(unseen):  # not seen turned beside the corner models (read_card, or orient on its own)
            evidence.p_face_turned[unseen] = _turned_look(evidence, looker, unseen)[0]
        in_doubt = (ambiguous(evidence.corners[rows]) | evidence.face_up[rows]
                    | (np.fmax(evidence.p_face[rows], evidence.p_face_turned[rows]) > _SURELY_BACK))  # fmt: skip
        rows = rows[in_doubt]
        asked[rows] = True
        if not len(rows):
            return
        other = turned(evidence.corners[rows])
        again = looker.classify_indices(index_crops(evidence.frame, list(other), pyramid=evidence.pyramid))
        better = ((again["seen"] > _SHOWS_INDEX) & (again["posterior"] > evidence.posterior[rows])
                  & (again["seen"] * again["posterior"] > evidence.seen[rows] * evidence.posterior[rows]))  # fmt: skip
        if not better.any():
            return
        moved = rows[better]
        p_face, card_embedding = _turned_look(evidence, looker, moved)
        evidence.move(moved, other[better])
        evidence.set_readings(moved, again, np.flatnonzero(better))
        _take_card_model(evidence, moved, p_face, card_embedding)


class Reframe(Stage):
    """The face-up cards the reader is unsure of whose outline is much narrower than the frame's
    typical card's, read again from outlines widened on either side (:mod:`vision.reframe`): where a
    widened outline reads surer, it and its reading replace the card's."""

    name = "reframe"
    whole_frame = True

    def run(self, evidence: Evidence, looker: Looker, sources: Sources) -> None:
        narrow, typical = narrow_cards(evidence.corners)
        asked = narrow & evidence.face_up & ~evidence.named & ~evidence.too_small
        evidence.asked[self.name] = asked
        which = np.flatnonzero(asked)
        if not len(which):
            return
        variants = [quad for i in which for quad in widened(evidence.corners[i], typical)]
        again = looker.classify_indices(index_crops(evidence.frame, variants, pyramid=evidence.pyramid))
        for k, i in enumerate(which):
            better = 2 * k + int(np.argmax(again["posterior"][2 * k : 2 * k + 2]))
            if again["posterior"][better] > evidence.posterior[i]:
                evidence.move(np.array([i]), variants[better][None])
                evidence.set_readings(np.array([i]), again, np.array([better]))


class Letters(Stage):
    """With a deck's index setting whose court letters the models confuse (Dutch H V B, all read
    as a jack), each face-up card's court mass is shared out among the suit's king, queen and jack
    by the letter probe on the corner models' embedding (:mod:`vision.letters`). Nothing with
    the default letters."""

    name = "letters"

    def run(self, evidence: Evidence, looker: Looker, sources: Sources) -> None:
        probe = sources.letters
        rows = evidence.face_up & evidence.readable & ~evidence.small if probe is not None else None
        evidence.asked[self.name] = rows if rows is not None else np.zeros(len(evidence), bool)
        if probe is None or rows is None or not rows.any():
            return
        posteriors = evidence.posteriors.copy()
        posteriors[rows] = probe.share(posteriors[rows], evidence.embedding[rows])
        evidence.set_posteriors(posteriors)


class Small(Stage):
    """The cards shorter than the corner models' smallest card (``reader.json`` "min_card_height")
    and at least as tall as the small-card reader's smallest (:mod:`vision.small`), read whole by
    that reader. An outline too nearly square to say which side is long is read both ways, and the
    way the reader less takes for "nothing to name" is kept (it was trained to answer that for a
    card straightened a quarter turn wrong). The corners stage has the helper thread read them
    ahead (:meth:`ahead`), while it reads the others; the reading is kept here when the cards asked
    and their outlines are still those it was made for, else they are read again."""

    name = "small"
    files = ("small.onnx", "small.json")

    @staticmethod
    def _asked(evidence: Evidence, reader: SmallReader) -> np.ndarray:
        out: np.ndarray = evidence.too_small & reader.reads(card_heights(evidence.corners))
        return out

    def ahead(self, evidence: Evidence, looker: Looker) -> None:
        """Start reading the small cards on the helper thread (from a pyramid of its own: the same
        pixels, and none of this thread's to share); :meth:`run` takes the reading."""
        reader = looker.small_reader
        if reader is None:
            return
        quads = evidence.corners[self._asked(evidence, reader)]
        if len(quads):
            job = looker.helper().submit(_small_readings, reader, evidence.frame, quads, Pyramid(evidence.frame))
            evidence.ahead[self.name] = (quads, job)

    def run(self, evidence: Evidence, looker: Looker, sources: Sources) -> None:
        reader = looker.small_reader
        if reader is None:
            raise ModelError("the small stage runs without its model: make the reader with it in its stages")
        evidence.small_threshold = reader.settings.threshold
        asked = self._asked(evidence, reader)
        evidence.asked[self.name] = asked
        rows = np.flatnonzero(asked)
        made = _begun(evidence.ahead.pop(self.name, None))
        if not len(rows):
            return
        quads = evidence.corners[rows]
        p, again = np.zeros((len(rows), NOTHING + 1)), np.full((len(rows), NOTHING + 1), np.nan)
        fresh = np.ones(len(rows), bool)
        if made is not None:  # the cards whose outline is still the one read ahead
            made_quads, (made_p, made_doubt, made_again) = made[0], made[1].result()
            turned_p = np.full((len(made_quads), NOTHING + 1), np.nan)
            turned_p[made_doubt] = made_again
            same = (quads[:, None] == made_quads[None]).all(axis=(2, 3))  # (rows, made)
            fresh = ~same.any(axis=1)
            took = same.argmax(axis=1)[~fresh]
            p[~fresh], again[~fresh] = made_p[took], turned_p[took]
        if fresh.any():  # a card moved since (turned by the orient stage, say), or nothing read ahead
            new_p, new_doubt, new_again = _small_readings(reader, evidence.frame, quads[fresh], evidence.pyramid)
            p[fresh] = new_p
            again[np.flatnonzero(fresh)[new_doubt]] = new_again
        doubt = np.flatnonzero(ambiguous(quads))
        if len(doubt):
            other = turned(quads[doubt])
            better = again[doubt, NOTHING] < p[doubt, NOTHING]
            if better.any():
                evidence.move(rows[doubt[better]], other[better])
                p[doubt[better]] = again[doubt[better]]
        evidence.small[rows] = True
        evidence.small_best[rows] = p[:, :NOTHING].argmax(axis=1)
        evidence.small_posterior[rows] = p[:, :NOTHING].max(axis=1)


def _small_readings(reader: SmallReader, frame: np.ndarray, quads: np.ndarray,
                    pyramid: Pyramid) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """The small-card reader's probabilities of the cards ``quads`` (N, 53), which of them are too
    nearly square to say which side is long, and the probabilities of those turned a quarter."""
    p = reader.probabilities(whole_cards(frame, list(quads), pyramid=pyramid))
    doubt = np.flatnonzero(ambiguous(quads))
    again = (reader.probabilities(whole_cards(frame, list(turned(quads[doubt])), pyramid=pyramid)) if len(doubt)
             else np.zeros((0, NOTHING + 1)))  # fmt: skip
    return p, doubt, again


WITNESS_BELOW = 0.99999
"""A number card or an ace the corners read less surely than this is shown to the suit witness
whatever the other suits hold (a third of the hold-out decks' number cards)."""


def _number_or_ace(best: np.ndarray) -> np.ndarray:
    """Which of the cards ``best`` (card ids) are number cards or aces: a body of pips in the suit's
    symbol, which the suit witness reads far more surely than the symbols beside a court card's
    picture."""
    out: np.ndarray = (best < 52) & ~np.isin(best // 4, COURT_RANKS)
    return out


class Witness(Stage):
    """The suit symbols of the card's body (:mod:`vision.suit_witness`), asked for the face-up cards
    whose suit the corners leave in doubt, or that are short of the posterior their height asks
    (rule 2 of :mod:`vision.evidence`: a small club taken for a spade), and that the body could
    still lift to it; and for every face-up number card and ace the corners read less surely than
    :data:`WITNESS_BELOW`, whatever its suit's doubt: a hold-out face's clubs can read as spades in
    both corners at 0.9995, and its pips, larger than the index's symbol, say clubs (the body's
    symbols then veto the reading, rule 3, or a number card the pips name).
    The corners stage has the helper thread find and read the symbols ahead (:meth:`ahead`) of the
    cards the corner models plainly see an index on and would ask about; a card asked here whose
    outline is one of those takes them, the others are looked at here."""

    name = "suit_witness"
    files = ("suits.onnx", "suits.json")

    def ahead(self, evidence: Evidence, looker: Looker, rows: np.ndarray, readings: Future[dict[str, np.ndarray]]
              ) -> None:  # fmt: skip
        """Once the helper thread has made the corner ``readings`` of the cards ``rows``, have it read
        the symbols of those it would ask about, from a pyramid of its own; :meth:`run` takes them."""
        witness = looker.suit_witness
        if witness is not None and len(rows):
            quads = evidence.corners[rows]
            job = looker.helper().submit(_symbols_ahead, witness, evidence.frame, quads, readings,
                                         evidence.required[rows], evidence.threshold)
            evidence.ahead[self.name] = (quads, job)

    def run(self, evidence: Evidence, looker: Looker, sources: Sources) -> None:
        witness = looker.suit_witness
        if witness is None:
            raise ModelError("the suit_witness stage runs without its model: make the reader with it in its stages")
        pips = ~evidence.small_named & _number_or_ace(evidence.best) & (evidence.posterior < WITNESS_BELOW)
        asked = ((witness.asked(evidence.posteriors, threshold=evidence.required, least=evidence.threshold) | pips)
                 & evidence.face_up & ~evidence.too_small)  # fmt: skip
        evidence.asked[self.name] = asked
        made = _begun(evidence.ahead.pop(self.name, None))
        if not asked.any():
            return
        picked = np.flatnonzero(asked)
        quads = evidence.corners[picked]
        symbols: list[np.ndarray | None] = [None] * len(picked)
        where, made_symbols = _made_for(made, quads)
        for k in np.flatnonzero(where >= 0).tolist():
            symbols[k] = made_symbols[int(where[k])]
        fresh = [k for k, found in enumerate(symbols) if found is None]
        if fresh:
            bodies = witness.bodies(quads[fresh], pyramid=evidence.pyramid)
            for k, found in zip(fresh, witness.body_symbols(list(bodies)), strict=True):
                symbols[k] = found
        likelihood = witness.likelihoods([found for found in symbols if found is not None], evidence.posteriors,
                                         picked)  # fmt: skip
        evidence.suit_likelihood[picked] = likelihood[picked]
        evidence.set_posteriors(apply_evidence(evidence.posteriors, likelihood))


def _symbols_ahead(witness: SuitWitness, frame: np.ndarray, quads: np.ndarray, readings: Future[dict[str, np.ndarray]],
                   required: np.ndarray, threshold: float) -> tuple[np.ndarray, list[np.ndarray]]:  # fmt: skip
    """The outlines of the cards whose corner ``readings`` (done by now: made before this on the
    same thread) plainly show an index and leave the suit in doubt or read a number card or an ace
    short of :data:`WITNESS_BELOW`, and their symbols."""
    done = readings.result()
    pips = _number_or_ace(done["best"]) & (done["posterior"] < WITNESS_BELOW)
    doubted = witness.asked(done["posteriors"], threshold=required, least=threshold)
    chosen = (doubted | pips) & (done["seen"] > PLAIN_INDEX)
    picked = quads[chosen]
    if not len(picked):
        return picked, []
    return picked, witness.body_symbols(list(witness.bodies(picked, pyramid=Pyramid(frame))))


class Ink(Stage):
    """The colour of the index ink (:mod:`vision.ink`): a face-up card whose two index corners are
    printed plainly red is a heart or a diamond, so its spades and clubs are weighed down
    (:data:`INK_FLOOR`). Asked: the face-up cards the corners give a black suit any chance."""

    name = "ink"

    def run(self, evidence: Evidence, looker: Looker, sources: Sources) -> None:
        by_suit = evidence.posteriors.reshape(len(evidence), 13, 4).sum(axis=1)
        asked = evidence.face_up & ~evidence.too_small & (by_suit[:, [0, 3]].sum(axis=1) > _BLACK_CHANCE)
        evidence.asked[self.name] = asked
        unmeasured = np.flatnonzero(asked & (evidence.red_ink < 0))
        if len(unmeasured):  # moved by a later look, or face up by its index alone
            crops = index_crops(evidence.frame, list(evidence.corners[unmeasured]), pyramid=evidence.pyramid)
            evidence.red_ink[unmeasured] = red_inks(crops)
        red = asked & (evidence.red_ink == 1)
        if red.any():
            evidence.set_posteriors(apply_evidence(evidence.posteriors, red_likelihood(red, INK_FLOOR)))


INK_FLOOR = 0.01
"""How far red ink weighs down a card's spades and clubs: of 1,432 face-up cards of 160 hold-out
scenes and 313 cards read in the real photos, no black index was ever measured red."""

_BLACK_CHANCE = 1e-3
"""The ink is asked about a face-up card whose spades and clubs hold more than this posterior."""


class Picture(Stage):
    """Whether the body shows a picture (:mod:`vision.picture`), asked for the face-up cards the
    corners read as a number card while giving a court card any chance (:data:`_COURT_CHANCE`): a
    picture vetoes the number card (the card is then unsure, never named as another)."""

    name = "picture"

    def run(self, evidence: Evidence, looker: Looker, sources: Sources) -> None:
        n = len(evidence)
        by_rank = evidence.posteriors.reshape(n, 13, 4).sum(axis=2)
        number = evidence.best // 4 < _NUMBER_RANKS
        asked = (evidence.face_up & ~evidence.too_small & number
                 & (by_rank[:, list(COURT_RANKS)].sum(axis=1) > _COURT_CHANCE))  # fmt: skip
        evidence.asked[self.name] = asked
        rows = np.flatnonzero(asked)
        if len(rows):
            evidence.picture_veto[rows] = pictures(evidence.pyramid, list(evidence.corners[rows]))


_JACK = 9
"""The jack's rank in card ids (rank * 4 + suit; ranks 0..12 are 2..A): it and those above are
the court cards and the ace."""

_NUMBER_RANKS = 9
"""Card ids rank * 4 + suit: ranks 0..8 are the number cards 2..10."""

_COURT_CHANCE = 1e-3
"""The body is asked about a number card whose court ranks hold more than this posterior."""


class Pips(Stage):
    """The pips of face-up number cards the corners hesitate over (:mod:`vision.pip_check`), and
    the one large pip of an ace they hesitate over (:func:`vision.body_check.ace_evidence`),
    including an ace whose letter neither corner is sure of (:attr:`vision.evidence.Evidence.letter_doubt`)."""

    name = "pips"

    def run(self, evidence: Evidence, looker: Looker, sources: Sources) -> None:
        readable = evidence.face_up & ~evidence.too_small
        hesitated = corner_runner_up(evidence.cards, evidence.none, evidence.best)
        found = pip_evidence(evidence.frame, evidence.corners, readable, evidence.posteriors,
                             pyramid=evidence.pyramid, threshold=evidence.threshold, hesitated=hesitated,
                             prior=hesitant_prior(evidence.posteriors, evidence.cards, evidence.none))  # fmt: skip
        required = np.where(evidence.letter_doubt, np.maximum(evidence.required, LETTER_SURE), evidence.required)
        aces, sure = ace_evidence(evidence.pyramid, evidence.corners, readable & (found.named < 0),
                                  evidence.posteriors, required, threshold=evidence.threshold)  # fmt: skip
        ace = aces >= 0
        found.named[ace], found.confidence[ace] = aces[ace], sure[ace]
        evidence.pip_named, evidence.pip_confidence, evidence.pip_veto = found.named, found.confidence, found.veto
        evidence.asked[self.name] = found.asked


class Body(Stage):
    """The body of every face-up card the corners name surely (and the pips do not name) against
    its reading's rank class (:mod:`vision.body_check`): a body that plainly contradicts it vetoes
    the reading (the card is then unsure, never named as another). What the bodies show does not
    depend on the reading, so the corners stage has the helper thread read it ahead (:meth:`ahead`)
    for the cards the corners alone name surely; a card asked here whose outline is one of those
    takes its cues, the others are read here."""

    name = "body"

    def ahead(self, evidence: Evidence, looker: Looker, rows: np.ndarray,
              readings: Future[dict[str, np.ndarray]]) -> None:  # fmt: skip
        """Once the helper thread has made the corner ``readings`` of the cards ``rows``, have it
        read the bodies of those the corners name surely (:func:`_bodies_ahead`, from a pyramid
        of its own); :meth:`run` takes their cues."""
        if len(rows):
            quads = evidence.corners[rows]
            job = looker.helper().submit(_bodies_ahead, evidence.frame, quads, readings, evidence.threshold)
            evidence.ahead[self.name] = (quads, job)

    def run(self, evidence: Evidence, looker: Looker, sources: Sources) -> None:
        asked = evidence.named & ~evidence.small_named & evidence.readable & (evidence.pip_named < 0)
        evidence.asked[self.name] = asked
        made = _begun(evidence.ahead.pop(self.name, None))
        rows = np.flatnonzero(asked)
        if not len(rows):
            return
        where, made_cues = _made_for(made, evidence.corners[rows])
        for k in np.flatnonzero(where >= 0):  # the cards whose outline is still one read ahead
            evidence.body_veto[rows[k]] = made_cues[int(where[k])].contradicts(int(evidence.best[rows[k]]) // 4)
        fresh = where < 0
        if fresh.any():  # moved since (the orient or reframe stage), or named only after a later look
            picked = rows[fresh]
            evidence.body_veto[picked] = body_vetoes(evidence.pyramid, evidence.corners[picked], evidence.best[picked])


def _bodies_ahead(frame: np.ndarray, quads: np.ndarray, readings: Future[dict[str, np.ndarray]],
                  threshold: float) -> tuple[np.ndarray, list[BodyCues]]:  # fmt: skip
    """The outlines of the cards whose corner ``readings`` (done by now: made before this on the
    same thread) name a card surely, and what their bodies show (:func:`vision.body_check.body_cues`)."""
    chosen = np.flatnonzero(readings.result()["posterior"] >= threshold)
    if not len(chosen):
        return quads[chosen], []
    return quads[chosen], all_cues(bodies(Pyramid(frame), quads[chosen]))


class Joker(Stage):
    """The joker check (:mod:`vision.joker`) on both index corners of the cards at least as tall as
    the smallest it was trained on (``joker.json`` "min_card_height", below the corner models'
    smallest: a small joker would otherwise be left to the small-card reader, which knows only
    the 52) that are not surely named, face up or not (a joker's picture may pass for a back), and
    of those named a court card or an ace (the J, K and O of a "JOKER" are read as jacks, kings
    and queens), by the corners or, for a card too small for them, by the small-card reader: the
    larger of its two corners' P(a joker's corner) is the card's joker score (for a card it only
    doubts, raised by a second look about its outline: :meth:`vision.joker.JokerCheck.second_look`;
    for a card taken for face up that nothing names, whose outline the finder drew poorly or that
    the check faintly suspects, by a wider look: :meth:`vision.joker.JokerCheck.wide_look`).
    A card surely named as a number card is not asked (a CNN run per card costs as much as the
    corner models, and every card asked is one more chance of a joker where there is none). The
    corners stage has the helper thread check ahead the cards the corners alone would have it ask
    about (:meth:`ahead`), from the index crops the corner models read; a card asked here whose
    outline is one of those takes its score, the others are checked here."""

    name = "joker"
    files = ("joker.onnx", "joker.json")

    def ahead(self, evidence: Evidence, looker: Looker, rows: np.ndarray, crops: np.ndarray,
              readings: Future[dict[str, np.ndarray]]) -> None:  # fmt: skip
        """Once the helper thread has made the corner ``readings`` of the cards ``rows`` (from their
        index ``crops``, two a card), have it check those the corners alone would have asked about
        (:func:`_jokers_ahead`); :meth:`run` takes their scores."""
        check = looker.joker_check
        if check is not None and len(rows):
            quads = evidence.corners[rows]
            job = looker.helper().submit(_jokers_ahead, check, quads, crops, readings, evidence.threshold)
            evidence.ahead[self.name] = (quads, job)

    def run(self, evidence: Evidence, looker: Looker, sources: Sources) -> None:
        check = looker.joker_check
        if check is None:
            raise ModelError("the joker stage runs without its model: make the reader with it in its stages")
        evidence.joker_threshold, evidence.joker_doubt = check.threshold, check.doubt
        evidence.joker_min_height = check.min_height
        tall = card_heights(evidence.corners) >= check.min_height
        small = evidence.small_named  # read by the small-card reader: its card, not the corners'
        rank = np.where(small, evidence.small_best, evidence.best) // 4
        asked = tall & (~evidence.named | (rank >= _JACK))
        evidence.asked[self.name] = asked
        made = _begun(evidence.ahead.pop(self.name, None))
        rows = np.flatnonzero(asked)
        if not len(rows):
            return
        where, made_scores = _made_for(made, evidence.corners[rows])
        fresh = where < 0
        if (~fresh).any():  # the cards whose outline is still one checked ahead
            evidence.joker_score[rows[~fresh]] = made_scores[where[~fresh]]
        if fresh.any():  # moved since (the orient or reframe stage), or asked only after a later look
            crops = index_crops(evidence.frame, list(evidence.corners[rows[fresh]]), pyramid=evidence.pyramid)
            evidence.joker_score[rows[fresh]] = check.corner_scores(crops).max(axis=1)
        # A card the corners surely name keeps their reading; one the small-card reader names (it
        # knows only the 52, and takes a small joker's picture for a court card) is looked at again.
        doubted = rows[(evidence.joker_score[rows] >= check.doubt) & (evidence.joker_score[rows] < check.threshold)
                       & (~evidence.named[rows] | small[rows])]
        if len(doubted):  # perhaps a joker whose outline is a little off: look again about it
            again = check.second_look(evidence.frame, evidence.corners[doubted], pyramid=evidence.pyramid)
            evidence.joker_score[doubted] = np.maximum(evidence.joker_score[doubted], again)
        score = evidence.joker_score[rows]
        poor = (evidence.fit[rows] < POOR_FIT) | (score >= FAINT)  # a partial outline that fits its card is no cue
        wide = rows[poor & (score < check.threshold) & evidence.face_up[rows] & ~evidence.named[rows]]
        if len(wide):  # perhaps a joker whose outline is far off: look for its mark more widely
            again = check.wide_look(evidence.frame, evidence.corners[wide], pyramid=evidence.pyramid)
            evidence.joker_score[wide] = np.maximum(evidence.joker_score[wide], again)


def _jokers_ahead(check: JokerCheck, quads: np.ndarray, crops: np.ndarray, readings: Future[dict[str, np.ndarray]],
                  threshold: float) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """The outlines of the cards whose corner ``readings`` (done by now: made before this on the same
    thread) name nothing surely or name a court card or an ace, and their joker scores, from the
    cards' index ``crops`` (two a card, in the order of ``quads``). Every card the joker stage asks
    about whose outline and reading no stage changed since is among them."""
    done = readings.result()
    chosen = np.flatnonzero((done["posterior"] < threshold) | (done["best"] // 4 >= _JACK))
    if not len(chosen):
        return quads[chosen], np.zeros(0)
    pairs = np.stack([2 * chosen, 2 * chosen + 1], axis=1).ravel()
    return quads[chosen], check.corner_scores(crops[pairs]).max(axis=1)


class Backs(Stage):
    """The mark of every face-down card not read yet: of the profile's enrolled backs when it has
    some, else of the Tock mark reader (:func:`vision.deck_profile.read_backs`). A back that shows
    no sticker where part of it is hidden is not called plain: the sticker may be in the hidden part."""

    name = "backs"

    def run(self, evidence: Evidence, looker: Looker, sources: Sources) -> None:
        rows = np.flatnonzero(~evidence.face_up & ~evidence.backs_read)
        self.read(evidence, rows, sources)
        evidence.asked[self.name] = ~evidence.face_up

    @staticmethod
    def read(evidence: Evidence, rows: np.ndarray, sources: Sources) -> None:
        """Read the backs of the cards ``rows`` (any side up: the decision keeps marks of backs only)."""
        if not len(rows):
            return
        found = read_backs(evidence.frame, [evidence.corners[i] for i in rows], pyramid=evidence.pyramid,
                           profile=sources.profile, marks=sources.marks)  # fmt: skip
        for i, (mark, confidence) in zip(rows, found, strict=True):
            if mark == PLAIN and evidence.partial[i]:
                mark = None
            evidence.marks[int(i)] = mark
            evidence.mark_confidence[i] = confidence if mark is not None else 1.0
        evidence.backs_read[rows] = True


class Profile(Stage):
    """The user's deck profile (:mod:`vision.enroll`): a sure match names a face-up card, or makes
    it unsure where the models surely read another card. Where the embeddings are not sure, the
    index pixels of the few enrolled cards nearest in embedding decide
    (:meth:`vision.deck_profile.DeckProfile.match_pixels`); an ace or a court card the models read
    is unsure when those pixels doubt it (another near card's index matches better, or the card is
    not among the near ones): a letter has no pips to check it; and where the pixels name an
    enrolled card, a letter the models read that is not among the near ones gives way to it. A card
    the models took for a back is a
    face of the enrolled deck when it shows a face's blank margins (:mod:`vision.face_or_back`)
    and surely matches an enrolled card: a deck whose faces the models do not know (printed court
    pictures, other index letters) is read once enrolled. Then the cards the host taught at the
    table (:mod:`vision.deck_examples`): an example that matches a face-up card's index names it;
    a card no example matches, read as the models misread a taught card, is unsure. Nothing
    without a profile."""

    name = "profile"

    def run(self, evidence: Evidence, looker: Looker, sources: Sources) -> None:
        profile = sources.profile
        up = evidence.face_up
        evidence.asked[self.name] = up.copy() if profile is not None else np.zeros(len(evidence), bool)
        if profile is None or not len(evidence):
            return
        kept: dict[int, np.ndarray] = {}

        def crops(rows: np.ndarray) -> np.ndarray:
            """Both index corners of each card of ``rows``, grey (:func:`grey_crops`), cut once."""
            new = [int(i) for i in rows if int(i) not in kept]
            if new:
                cut = grey_crops(index_crops(evidence.frame, list(evidence.corners[new]), pyramid=evidence.pyramid))
                kept.update(zip(new, cut, strict=True))
            return np.array([kept[int(i)] for i in rows]).reshape(-1, 2, CROP_ROWS, CROP_W)

        if profile.face_labels:
            self._enrolled(evidence, profile, crops)
        if profile.examples:
            self._taught(evidence, profile, crops)

    def _enrolled(self, evidence: Evidence, profile: DeckProfile, crops: Callable[[np.ndarray], np.ndarray]) -> None:
        up = evidence.face_up
        down = np.flatnonzero(~up & evidence.readable & ~evidence.small)
        blank = [int(i) for i in down if blank_margins(evidence.frame, evidence.corners[i]).blank]
        rows = np.concatenate([np.flatnonzero(up), np.array(blank, np.int64)]).astype(np.int64)
        evidence.asked[self.name][blank] = True
        if not len(rows):
            return
        misread_as = set(profile.model_reads.values())
        matches = profile.match_faces(evidence.embedding[rows])
        reads = [str(Card.from_id(int(evidence.best[i]))) for i in rows]
        lettered = np.isin(evidence.best[rows] // 4, LETTERED)
        # The index pixels only where they can change the outcome: the embedding not sure, or sure
        # of another card than the letter the models read.
        unsure = np.array([m.card is None for m in matches], bool)
        another = np.array([m.card not in (None, r) for m, r in zip(matches, reads, strict=True)], bool)
        wanted = unsure | (lettered & another)
        looked = rows[wanted & evidence.readable[rows] & ~evidence.small[rows]] if len(profile.face_crops) else rows[:0]
        pixels = {int(i): profile.match_pixels(evidence.embedding[i], crop)
                  for i, crop in zip(looked, crops(looked), strict=True)}  # fmt: skip
        for i, match, read, letter in zip(rows, matches, reads, lettered, strict=True):
            by_pixels = pixels.get(int(i), NO_PIXELS)
            named = match.card or by_pixels.card
            if named is not None:
                sure = match.confidence if match.card is not None else by_pixels.confidence
                evidence.profile_card[i], evidence.profile_confidence[i] = Card.parse(named).id, sure
                evidence.profile_face[i] = not up[i]
                # The models' reading is no evidence against the profile where they misread this
                # enrolled card's photo, or where they read a letter (no pips to check it) that the
                # index pixels, which name this card, do not even count among the near cards.
                evidence.profile_explains[i] = named in profile.model_reads or (
                    letter and by_pixels.card == named and read not in by_pixels.near)
            elif read in misread_as or (letter and by_pixels.doubts(read)):
                evidence.profile_doubt[i] = True  # the models read another enrolled card of this deck this way

    def _taught(self, evidence: Evidence, profile: DeckProfile, cut: Callable[[np.ndarray], np.ndarray]) -> None:
        rows = np.flatnonzero(evidence.face_up & evidence.readable & ~evidence.small)
        if not len(rows):
            return
        crops = cut(rows)
        doubted = misreads(profile.examples)
        for k, i in enumerate(rows):
            guess = str(Card.from_id(int(evidence.best[i])))
            match = match_examples(profile.examples, evidence.embedding[i], crops[k], guess)
            if match.card is not None:
                evidence.profile_card[i], evidence.profile_confidence[i] = Card.parse(match.card).id, match.confidence
                evidence.profile_explains[i] = match.misread
                evidence.profile_doubt[i] = False
            elif guess in doubted and evidence.named[i] and evidence.profile_card[i] < 0:
                evidence.profile_doubt[i] = True  # the models read a taught card of this deck this way


STAGES: dict[str, type[Stage]] = {
    stage.name: stage
    for stage in (Find, FindClassical, Corners, Orient, Reframe, Letters, Small, Witness, Ink, Picture, Pips, Body,
                  Joker, Backs, Profile)
}
"""Every stage by its name in reader.json."""


@dataclass(frozen=True)
class Pipeline:
    """The stages of a reader, in order: a finder first, then the corners, then the rest."""

    find: Find
    stages: tuple[Stage, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return (self.find.name, *(stage.name for stage in self.stages))

    @staticmethod
    def build(names: Sequence[str]) -> Pipeline:
        """The pipeline of stage ``names`` (reader.json's "stages"); ModelError for a list that
        cannot work, saying what is allowed."""
        unknown = [name for name in names if name not in STAGES]
        if unknown:
            raise ModelError(f"unknown reader stage(s) {', '.join(map(repr, unknown))}: the stages are "
                             f"{', '.join(STAGES)}")  # fmt: skip
        if len(set(names)) != len(names):
            raise ModelError(f"a reader stage is listed twice: {', '.join(names)}")
        if not names or names[0] not in ("find", "find_classical") or "corners" not in names[:2]:
            raise ModelError(f"the reader's stages must start with find (or find_classical) then corners; got "
                             f"{', '.join(names) or 'none'}")  # fmt: skip
        backs = Backs() if "backs" in names else None
        small = Small() if "small" in names else None
        witness = Witness() if "suit_witness" in names else None
        joker = Joker() if "joker" in names else None
        body = Body() if "body" in names else None
        stages: list[Stage] = []
        for name in names[1:]:
            if name in ("find", "find_classical"):
                raise ModelError("only one finder (find or find_classical) may be listed, and first")
            if name == "corners":
                stages.append(Corners(backs, turned_look="orient" in names, ink_look="ink" in names, small=small,
                                      witness=witness, joker=joker, body=body))  # fmt: skip
            elif name == "backs" and backs is not None:
                stages.append(backs)
            elif name == "small" and small is not None:
                stages.append(small)
            elif name == "suit_witness" and witness is not None:
                stages.append(witness)
            elif name == "body" and body is not None:
                stages.append(body)
            elif name == "joker" and joker is not None:
                stages.append(joker)
            else:
                stages.append(STAGES[name]())
        finder = Find() if names[0] == "find" else FindClassical()
        return Pipeline(finder, tuple(stages))

    def files(self) -> list[tuple[str, str]]:
        """(stage, model file) of every file the stages need."""
        return [(stage.name, name) for stage in (self.find, *self.stages) for name in stage.files]

    def run(self, evidence: Evidence, looker: Looker, sources: Sources, *, whole_frame: bool = True,
            timings: dict[str, float] | None = None) -> Evidence:  # fmt: skip
        """Every stage (but the finder) on ``evidence``, in order; ``whole_frame`` False leaves out
        the stages that need a frame of cards. Each stage's time in ms goes to ``timings``."""
        if not len(evidence):
            return evidence
        for stage in self.stages:
            if stage.whole_frame and not whole_frame:
                continue
            start = time.perf_counter()
            stage.run(evidence, looker, sources)
            if timings is not None:
                timings[stage.name] = timings.get(stage.name, 0.0) + 1000 * (time.perf_counter() - start)
        return evidence
