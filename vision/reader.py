"""The card reader: frame → observations, in three steps (detect → rectify → classify).

>>> reader = CardReader.default()                                  # doctest: +SKIP
>>> for seen in reader.read(frame_bgr):                             # doctest: +SKIP
...     print(seen.card, seen.face_up, round(seen.confidence, 3), seen.corners.shape)
Ah True 0.998 (4, 2)
None False 0.97 (4, 2)

``card`` is None when the card lies face down, or when it lies face up but the reader is not sure
enough (below the calibrated threshold): unsure is always better than wrong.
"""

from __future__ import annotations

import json
import os
import threading
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, overload

import cv2
import numpy as np

from table.cards import Card
from vision.classify import (
    corner_probabilities,
    posteriors,
    prepare_crops,
    prepare_thumbnails,
    softmax,
    verdicts,
    vote,
)
from vision.deck_profile import DeckProfile, ProfileError, model_hash, read_backs, refine_observations
from vision.detect import Outline, find_cards
from vision.errors import FrameError, ModelError
from vision.mark_reader import MarkReader
from vision.pip_check import pip_verdicts
from vision.rectify import (
    CROP_H,
    CROP_W,
    INDEX_BOX,
    THUMB_H,
    THUMB_W,
    Pyramid,
    card_homography,
    crop_index_box,
    index_crops,
    order_corners,
    thumbnails,
)
from vision.reframe import narrow_cards, widened
from vision.segment import CardSegmenter
from vision.suit_witness import SuitWitness, apply_evidence

MODELS_DIR = Path(__file__).resolve().parents[1] / "models"
"""Where the shipped models live (``models/`` at the top of the project)."""

_OWN_SHARE = 12
"""While the helper thread reads the corners, the reading thread reads those of 1 card in this many."""


@dataclass(frozen=True)
class Observation:
    """One card seen in one frame.

    ``card`` is the face ("Ah") or None (face down, or face up but unsure). ``confidence`` is the
    calibrated probability that the reading is right: of the named card when ``card`` is set, of
    the best guess when the reader is unsure, of "face down" for a back (times that of its mark
    when one is read). ``corners`` are 4×2 frame pixels, clockwise from the card's upright top
    left. ``mark`` is the Tock mark of a back ("h:large", "s:ace", "plain" for an unmarked back,
    None when unsure or face up; :mod:`vision.mark_reader`). ``partial`` means part of the card
    is hidden under another.
    """

    card: str | None
    face_up: bool
    mark: str | None
    confidence: float
    corners: np.ndarray = field(repr=False)
    partial: bool = False


@dataclass(frozen=True)
class Observations(Sequence[Observation]):
    """Everything read in one frame, as parallel arrays (validated), and a sequence of Observation.

    ``card_ids`` holds table.cards ids (-1 = no face read); ``embeddings`` are the corner models'
    penultimate features of each card (mean of its two corners), ``card_embeddings`` the card
    model's (computed for cards whose corners show no index, i.e. backs; zeros for the others): both
    for nearest-prototype enrollment of a user's deck.
    """

    corners: np.ndarray  # (N, 4, 2) float64
    card_ids: np.ndarray  # (N,) int64
    face_up: np.ndarray  # (N,) bool
    confidence: np.ndarray  # (N,) float64
    partial: np.ndarray  # (N,) bool
    embeddings: np.ndarray  # (N, D) float32
    card_embeddings: np.ndarray  # (N, E) float32
    marks: tuple[str | None, ...] = ()

    def __post_init__(self) -> None:
        n = len(self.card_ids)
        if not self.marks:
            object.__setattr__(self, "marks", (None,) * n)
        checks = {
            "corners": self.corners.shape[:1] == (n,) and self.corners.shape[1:] == (4, 2),
            "face_up": self.face_up.shape == (n,),
            "confidence": self.confidence.shape == (n,),
            "partial": self.partial.shape == (n,),
            "embeddings": self.embeddings.ndim == 2 and len(self.embeddings) == n,
            "card_embeddings": self.card_embeddings.ndim == 2 and len(self.card_embeddings) == n,
            "marks": len(self.marks) == n,
        }
        bad = [name for name, ok in checks.items() if not ok]
        if bad or self.card_ids.ndim != 1:
            raise ValueError(f"observation arrays disagree with {n} cards: {', '.join(bad) or 'card_ids'}")
        if n and (self.card_ids.min() < -1 or self.card_ids.max() > 51):
            raise ValueError("card ids must be -1 (none) or 0..51")

    @staticmethod
    def empty(embedding: int = 0, card_embedding: int = 0) -> Observations:
        """No cards."""
        return Observations(np.zeros((0, 4, 2)), np.zeros(0, np.int64), np.zeros(0, bool), np.zeros(0),
                            np.zeros(0, bool), np.zeros((0, embedding), np.float32),
                            np.zeros((0, card_embedding), np.float32))  # fmt: skip

    def __len__(self) -> int:
        return len(self.card_ids)

    @overload
    def __getitem__(self, index: int) -> Observation: ...

    @overload
    def __getitem__(self, index: slice | np.ndarray) -> Observations: ...

    def __getitem__(self, index: int | slice | np.ndarray) -> Observation | Observations:
        if isinstance(index, (int, np.integer)):
            i = int(index)
            if not -len(self) <= i < len(self):
                raise IndexError(f"observation {i} out of range for {len(self)} cards")
            cid = int(self.card_ids[i])
            return Observation(
                card=str(Card.from_id(cid)) if cid >= 0 else None,
                face_up=bool(self.face_up[i]),
                mark=self.marks[i],
                confidence=float(self.confidence[i]),
                corners=self.corners[i].copy(),
                partial=bool(self.partial[i]),
            )
        picked = np.arange(len(self))[index]
        return Observations(self.corners[picked], self.card_ids[picked], self.face_up[picked],
                            self.confidence[picked], self.partial[picked], self.embeddings[picked],
                            self.card_embeddings[picked], tuple(self.marks[int(i)] for i in picked))  # fmt: skip

    def __iter__(self) -> Iterator[Observation]:
        for i in range(len(self)):
            yield self[i]

    @property
    def cards(self) -> list[str | None]:
        """The face read for each card (None where unsure or face down)."""
        return [str(Card.from_id(int(c))) if c >= 0 else None for c in self.card_ids]


@dataclass(frozen=True)
class ReaderSettings:
    """What the models were trained and calibrated with (from ``models/reader.json``)."""

    temperature: float
    threshold: float
    members: int
    dependence: float = 0.0
    """How far a card's two corners are one witness (:func:`vision.classify.vote`); 0 before s17."""

    @staticmethod
    def load(path: Path) -> ReaderSettings:
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError) as error:
            raise ModelError(f"cannot read reader settings {path}: {error}") from None
        crop = data.get("crop", {})
        if tuple(crop.get("box", ())) != INDEX_BOX or (crop.get("width"), crop.get("height")) != (CROP_W, CROP_H):
            raise ModelError(f"{path} was made for another index crop ({crop}); retrain with python -m vision.train")
        thumb = data.get("thumbnail", {})
        if (thumb.get("width"), thumb.get("height")) != (THUMB_W, THUMB_H):
            raise ModelError(f"{path} was made for another thumbnail size ({thumb}); retrain")
        try:
            settings = ReaderSettings(float(data["temperature"]), float(data["threshold"]), int(data.get("members", 1)),
                                      float(data.get("dependence", 0.0)))  # fmt: skip
        except (KeyError, TypeError, ValueError) as error:  # as SegmenterSettings.load: a typed error, not a crash
            raise ModelError(f"reader settings {path} lack a usable temperature/threshold/members: {error}") from None
        if not 0.0 <= settings.dependence <= 1.0:
            raise ModelError(f"reader settings {path}: dependence must be between 0 and 1, got {settings.dependence}")
        return settings


def check_frame(frame: Any, *, what: str = "frame") -> np.ndarray:
    """A BGR uint8 (H, W, 3) view of ``frame``, or FrameError saying what is wrong.

    Grey (H, W) and BGRA (H, W, 4) images are accepted and converted.
    """
    if not isinstance(frame, np.ndarray):
        raise FrameError(f"{what} must be a numpy array (H×W×3 uint8 BGR), got {type(frame).__name__}")
    if frame.dtype != np.uint8:
        raise FrameError(f"{what} must have dtype uint8 (0..255 BGR), got {frame.dtype}")
    if frame.size == 0:
        raise FrameError(f"{what} is empty (shape {frame.shape}); expected H×W×3 BGR")
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.ndim == 3 and frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise FrameError(f"{what} must be H×W×3 BGR (or H×W grey, H×W×4 BGRA), got shape {frame.shape}")
    return frame


class CardReader:
    """Reads every card in a frame. Make one with :meth:`default` (the shipped models)."""

    def __init__(self, models_dir: Path, *, providers: Sequence[str] = ("CPUExecutionProvider",),
                 threads: int = 1, detector_threads: int = 2) -> None:  # fmt: skip
        """``threads``: onnxruntime threads for the corner and card models (which already run beside
        other work); ``detector_threads`` for the detector, which runs while nothing else does."""
        import onnxruntime as ort

        def session_options(count: int) -> Any:
            options = ort.SessionOptions()
            options.intra_op_num_threads = count
            options.inter_op_num_threads = 1
            options.log_severity_level = 3
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            # Threads that wait for work sleep instead of spinning: a spinning thread steals the
            # core the other half of a read (or OpenCV) is working on.
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            return options

        self.settings = ReaderSettings.load(models_dir / "reader.json")
        options = session_options(threads)
        sessions = []
        for name in ("corners.onnx", "card.onnx"):
            path = models_dir / name
            if not path.is_file():
                raise ModelError(f"model {path} is missing; train it with python -m vision.train")
            try:
                sessions.append(ort.InferenceSession(str(path), options, providers=list(providers)))
            except Exception as error:  # onnxruntime raises its own untyped errors
                raise ModelError(f"cannot load model {path}: {error}") from None
        self._corners, self._card = sessions
        # The learned card finder (vision.segment); without models/detector.onnx the classical one.
        self.segmenter = CardSegmenter.load(models_dir, session_options(detector_threads), list(providers))
        self.embedding_size = int(self._corners.get_outputs()[2].shape[1] or 0)
        self.card_embedding_size = int(self._card.get_outputs()[1].shape[1] or 0)
        # Issue 5: Tock marks of face-down cards and the user's deck profile (vision.enroll).
        self.model_hash = model_hash(models_dir)
        self.marks: MarkReader | None = MarkReader()
        self.profile: DeckProfile | None = None
        from vision.expert import Expert  # a second look at unsure cards (none without models/expert.json)

        self.expert = Expert.load(models_dir, providers=providers, options=session_options(threads))
        # The card's body as a witness of its suit (vision.suit_witness; none without models/suits.json).
        self.suit_witness = SuitWitness.load(models_dir) if (models_dir / "suits.json").is_file() else None
        # The helper thread (started on first use); made again in a forked child, where the
        # parent's thread does not exist; shut down by close(), ``with`` or when the reader goes.
        self._pool_lock = threading.Lock()
        self._pool, self._pool_pid = self._new_pool(), os.getpid()

    @classmethod
    def default(cls, *, profile: DeckProfile | str | Path | None = None) -> CardReader:
        """The reader with the models shipped in ``models/`` (and a deck profile, if given)."""
        reader = cls(MODELS_DIR)
        reader.use_profile(profile)
        return reader

    def use_profile(self, profile: DeckProfile | str | Path | None) -> None:
        """Read with a deck profile from now on (a :class:`DeckProfile` or its file; None: none).
        A profile made with other models is refused (ProfileError): enroll again."""
        if isinstance(profile, str | Path):
            profile = DeckProfile.load(profile, model_hash=self.model_hash)
        elif profile is not None and profile.model_hash != self.model_hash:
            raise ProfileError(f"the deck profile was made with other models ({profile.model_hash}, these are "
                               f"{self.model_hash}): enroll the deck again")  # fmt: skip
        self.profile = profile

    def enroll(self, faces: Mapping[str, Any], *, backs: Mapping[str, Any] | None = None,
               name: str = "") -> DeckProfile:  # fmt: skip
        """A deck profile from one photo per card (``{"Ah": image, ...}``; see :func:`vision.enroll.enroll`)."""
        from vision.enroll import enroll

        return enroll(self, faces, backs=backs, name=name)

    # --- the three steps -----------------------------------------------------------------------

    def detect(self, frame: np.ndarray, *, gray: Callable[[], np.ndarray] | None = None) -> list[Outline]:
        """Step 1: the outline of every card in the frame (FrameError for what is not a frame).
        ``gray``, when given, answers the frame in grey (made elsewhere meanwhile)."""
        return find_cards(check_frame(frame), segmenter=self.segmenter, gray=gray)

    def classify_indices(self, crops: np.ndarray) -> dict[str, np.ndarray]:
        """Step 3a: index crops (2 per card: top left, bottom right) → per-card votes of the corners."""
        n = len(crops) // 2
        rank_logits, suit_logits, embedding = self._corners.run(None, {"crops": prepare_crops(crops)})
        flat_cards, flat_none = corner_probabilities(rank_logits, suit_logits)
        cards, none = flat_cards.reshape(n, 2, 52), flat_none.reshape(n, 2)
        everything = posteriors(cards, none, self.settings.temperature, dependence=self.settings.dependence)
        weights = (1.0 - none)[:, :, None]
        emb = (embedding.reshape(n, 2, -1) * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-6)
        asked = np.zeros(n, bool)  # the cards the expert read again (vision.expert)
        if self.expert is not None:
            looked = self.expert.second_look(crops, cards, none, everything, temperature=self.settings.temperature,
                                             dependence=self.settings.dependence)  # fmt: skip
            cards, none, everything, asked = looked.cards, looked.none, looked.posteriors, looked.asked
        best, posterior, seen = verdicts(everything, none)
        return {"best": best, "posterior": posterior, "seen": seen, "cards": cards, "none": none,
                "posteriors": everything, "embedding": emb.astype(np.float32), "expert": asked}  # fmt: skip

    def classify_cards(self, thumbs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Step 3b: whole-card thumbnails → P(face up) and the card model's embedding."""
        face_logits, card_embedding = self._card.run(None, {"thumbnails": prepare_thumbnails(thumbs)})
        return softmax(face_logits.astype(np.float64))[:, 1], card_embedding.astype(np.float32)

    def classify(self, crops: np.ndarray, thumbs: np.ndarray) -> dict[str, np.ndarray]:
        """Step 3: index crops (2 per card) and thumbnails (1 per card) → per-card readings."""
        readings = self.classify_indices(crops)
        readings["p_face"], readings["card_embedding"] = self.classify_cards(thumbs)
        return readings

    def _decide(self, corners: np.ndarray, partial: np.ndarray, r: dict[str, np.ndarray]) -> Observations:
        face_up = (r["p_face"] > 0.5) | (r["seen"] > 0.8)
        sure = face_up & (r["posterior"] >= self.settings.threshold)
        card_ids = np.where(sure, r["best"], -1).astype(np.int64)
        confidence = np.where(face_up, r["posterior"], 1.0 - r["p_face"])
        return Observations(corners, card_ids, face_up, confidence.astype(np.float64), partial,
                            r["embedding"], r["card_embedding"])  # fmt: skip

    def read(self, frame: Any) -> Observations:
        """Every card in a BGR frame (detect → rectify → classify). No card: an empty result."""
        image = check_frame(frame)
        if min(image.shape[:2]) < 32:
            return Observations.empty(self.embedding_size, self.card_embedding_size)
        profile, marks = self.profile, self.marks  # one profile for the whole frame, whatever use_profile does
        # While the detector works, the helper thread makes what the later steps need of the frame:
        # its grey copy (for the outlines' rims) and the pyramid level the thumbnails come from.
        pyramid = Pyramid(image)
        prepared = self._helper().submit(_prepare, image, pyramid)
        try:
            outlines = self.detect(image, gray=prepared.result)
        except BaseException:
            wait([prepared])  # the pyramid is the helper's until then; this thread's error is the one raised
            raise
        prepared.result()
        if not outlines:
            return Observations.empty(self.embedding_size, self.card_embedding_size)
        quads = [o.corners for o in outlines]
        crops = index_crops(image, quads, pyramid=pyramid)  # step 2: rectify
        # The corner models run on the other core (onnxruntime lets go of the GIL) while this one
        # runs the card model and reads the marks of every card it takes for a back.
        # That is less work, so this thread also reads the corners of the last few cards itself.
        split = len(quads) - len(quads) // _OWN_SHARE
        corner_job = self._helper().submit(self.classify_indices, crops[: 2 * split])
        try:
            p_face, card_embedding = self.classify_cards(thumbnails(image, quads, pyramid=pyramid))
            maybe_down = [int(i) for i in np.flatnonzero(p_face <= 0.5)]
            backs = dict(zip(maybe_down, read_backs(image, [quads[i] for i in maybe_down], pyramid=pyramid,
                                                    profile=profile, marks=marks), strict=True))  # fmt: skip
            last = self.classify_indices(crops[2 * split :]) if split < len(quads) else None
        except BaseException:
            wait([corner_job])  # the helper is done with the frame; this thread's error is the one raised
            raise
        readings = corner_job.result()
        if last is not None:
            readings = {key: np.concatenate([value, last[key]]) for key, value in readings.items()}
        # A card whose corners plainly show an index is face up whatever the card model says, and
        # its card embedding (kept for the enrollment of backs) is left empty.
        plain = readings["seen"] > 0.8
        p_face[plain], card_embedding[plain] = 1.0, 0.0
        readings["p_face"], readings["card_embedding"] = p_face, card_embedding
        partial = np.array([o.partial for o in outlines], bool)
        corners, readings = self._reframed(np.stack(quads), partial, readings, image, pyramid)
        decided = self._witnessed(corners, partial, readings, image, pyramid)
        return refine_observations(decided, image, pyramid=pyramid, profile=profile, marks=marks,
                                   backs=backs)  # fmt: skip

    def _reframed(self, corners: np.ndarray, partial: np.ndarray, readings: dict[str, np.ndarray],
                  image: np.ndarray, pyramid: Pyramid) -> tuple[np.ndarray, dict[str, np.ndarray]]:  # fmt: skip
        """The face-up cards the reader is unsure of whose outline is much narrower than the frame's
        typical card's, read again from outlines widened on either side (:mod:`vision.reframe`):
        where a widened outline reads surer, it and its reading replace the card's."""
        decided = self._decide(corners, partial, readings)
        narrow, typical = narrow_cards(corners)
        which = np.flatnonzero(narrow & decided.face_up & (decided.card_ids < 0))
        if not len(which):
            return corners, readings
        variants = [quad for i in which for quad in widened(corners[i], typical)]
        again = self.classify_indices(index_crops(image, variants, pyramid=pyramid))
        corners, readings = corners.copy(), {key: value.copy() for key, value in readings.items()}
        for k, i in enumerate(which):
            better = 2 * k + int(np.argmax(again["posterior"][2 * k : 2 * k + 2]))
            if again["posterior"][better] > readings["posterior"][i]:
                corners[i] = variants[better]
                for key, value in again.items():
                    readings[key][i] = value[better]
        return corners, readings

    def _witnessed(self, corners: np.ndarray, partial: np.ndarray, readings: dict[str, np.ndarray],
                   image: np.ndarray, pyramid: Pyramid) -> Observations:  # fmt: skip
        """The readings decided after the card's body has been asked: the suit symbols of the cards
        whose suit the corners leave in doubt (:mod:`vision.suit_witness`), then the pips of
        number cards (:mod:`vision.pip_check`)."""
        decided = self._decide(corners, partial, readings)
        witness = self.suit_witness
        if witness is not None:
            asked = witness.asked(readings["posteriors"], threshold=self.settings.threshold) & decided.face_up
            if asked.any():
                likelihood = witness.evidence(image, corners, readings["posteriors"], pyramid=pyramid, asked=asked)
                everything = apply_evidence(readings["posteriors"], likelihood)
                best = everything.argmax(axis=1)
                readings = {**readings, "posteriors": everything, "best": best,
                            "posterior": everything[np.arange(len(best)), best]}  # fmt: skip
                decided = self._decide(corners, partial, readings)
        return self._check_pips(decided, readings, image, pyramid)

    def _check_pips(self, decided: Observations, readings: dict[str, np.ndarray], image: np.ndarray,
                    pyramid: Pyramid) -> Observations:  # fmt: skip
        """The readings after the pips of number cards were asked (:mod:`vision.pip_check`)."""
        card_ids, confidence = pip_verdicts(image, decided.corners, (decided.card_ids, decided.face_up,
                                            decided.confidence), readings["posteriors"], pyramid=pyramid,
                                            threshold=self.settings.threshold)  # fmt: skip
        if np.array_equal(card_ids, decided.card_ids) and np.array_equal(confidence, decided.confidence):
            return decided
        return replace(decided, card_ids=card_ids, confidence=confidence)

    def _new_pool(self) -> ThreadPoolExecutor:
        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tocktable-corners")
        weakref.finalize(self, pool.shutdown, wait=False)
        return pool

    def _helper(self) -> ThreadPoolExecutor:
        """The one worker thread that runs the corner models beside the rest of a read."""
        with self._pool_lock:
            if self._pool_pid != os.getpid():  # a forked child: the parent's thread is not here
                self._pool, self._pool_pid = self._new_pool(), os.getpid()
            return self._pool

    def close(self) -> None:
        """Stop the helper thread (a later read starts it again)."""
        with self._pool_lock:
            self._pool.shutdown(wait=True)
            self._pool = self._new_pool()

    def __enter__(self) -> CardReader:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def read_card(self, rectified: Any) -> Observation:
        """One card that is already straightened (upright or upside down, any size)."""
        image = check_frame(rectified, what="rectified card")
        h, w = image.shape[:2]
        if min(h, w) < 16:
            raise FrameError(f"rectified card is too small ({w}×{h} pixels); give at least 16 pixels a side")
        if w > h:  # lying on its side: stand it up
            image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
            h, w = w, h
        corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64) - 0.5
        pyramid = Pyramid(image)
        readings = self.classify(index_crops(image, [corners], pyramid=pyramid),
                                 thumbnails(image, [corners], pyramid=pyramid))  # fmt: skip
        decided = self._witnessed(corners[None], np.zeros(1, bool), readings, image, pyramid)
        return refine_observations(decided, image, pyramid=pyramid, profile=self.profile, marks=self.marks)[0]

    def _index_probabilities(self, crops: Any) -> tuple[np.ndarray, np.ndarray]:
        if isinstance(crops, np.ndarray):
            crops = [crops]
        prepared = []
        for crop in crops:
            image = check_frame(crop, what="index crop")
            prepared.append(cv2.resize(image, (CROP_W, CROP_H), interpolation=cv2.INTER_AREA))
        if not prepared:
            return np.zeros((0, 52)), np.zeros(0)
        rank_logits, suit_logits, _ = self._corners.run(None, {"crops": prepare_crops(np.stack(prepared))})
        return corner_probabilities(rank_logits, suit_logits)

    def _index_reading(self, cards: np.ndarray, none: np.ndarray) -> IndexReading:
        best, posterior, seen = vote(cards[None], none[None], self.settings.temperature,
                                     dependence=self.settings.dependence)  # fmt: skip
        guess = str(Card.from_id(int(best[0])))
        sure = posterior[0] >= self.settings.threshold and seen[0] > 0.5
        return IndexReading(guess if sure else None, guess, float(posterior[0]), float(1.0 - seen[0]))

    def read_index(self, crops: Any) -> list[IndexReading]:
        """Index crops cut by the caller (rank above suit, upright, BGR, any size): one reading each."""
        cards, none = self._index_probabilities(crops)
        return [self._index_reading(cards[k : k + 1], none[k : k + 1]) for k in range(len(none))]

    def read_index_box(self, image: Any, box: tuple[float, float, float, float]) -> IndexReading:
        """The card whose corner index lies in ``box`` (x0, y0, x1, y1 pixels, drawn tight around it),
        e.g. a fanned hand where only the indices show.

        The index may stand any way up and lean: of the turns (0°/180°, or 90°/270° for a wide box)
        and tilts (±24° in 12° steps), the one whose crop most surely shows an index is kept, then
        three framings of it are pooled.
        """
        frame = check_frame(image)
        x0, y0, x1, y1 = box
        turns = (0, 2) if y1 - y0 >= x1 - x0 else (1, 3)
        poses = [(turn, tilt) for turn in turns for tilt in (-24.0, -12.0, 0.0, 12.0, 24.0)]
        looks = self.read_index([crop_index_box(frame, box, turn=turn, tilt=tilt) for turn, tilt in poses])
        turn, tilt = poses[int(np.argmin([look.no_index for look in looks]))]
        framings = [crop_index_box(frame, box, turn=turn, zoom=zoom, tilt=tilt) for zoom in (0.85, 1.0, 1.2)]
        return self.vote_index(framings)

    def vote_index(self, crops: Any) -> IndexReading:
        """Several crops of the same index (other framings, both corners): one reading, voted as the
        two corners of a card are."""
        cards, none = self._index_probabilities(crops)
        if not len(none):
            raise FrameError("vote_index needs at least one crop")
        # Framings of one index are not independent witnesses: pool them by a weighted geometric
        # mean (as sure as one good crop), not by multiplying as for two separate corners.
        weight = (1.0 - none)[:, None]
        pooled = np.exp((weight * np.log(cards + 1e-9)).sum(axis=0) / max(float(weight.sum()), 1e-9))
        return self._index_reading((pooled / pooled.sum())[None], np.array([float(none.mean())]))


def _prepare(image: np.ndarray, pyramid: Pyramid) -> np.ndarray:
    """The frame in grey, and the pyramid's first half-size level filled (thumbnails of cards of
    the usual size are warped from it)."""
    pyramid.level_for(2.5)
    grey: np.ndarray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return grey


@dataclass(frozen=True)
class IndexReading:
    """What one index crop says: ``card`` (None when unsure), the best ``guess`` anyway, its
    calibrated ``confidence``, and ``no_index``, the probability that the crop shows no index."""

    card: str | None
    guess: str
    confidence: float
    no_index: float


def index_box_in(corners: np.ndarray) -> np.ndarray:
    """The frame polygon (4×2) of a card's top-left index region (for drawing)."""
    box = np.array([[[INDEX_BOX[0], INDEX_BOX[1]], [INDEX_BOX[2], INDEX_BOX[1]], [INDEX_BOX[2], INDEX_BOX[3]],
                     [INDEX_BOX[0], INDEX_BOX[3]]]], np.float64)  # fmt: skip
    out: np.ndarray = cv2.perspectiveTransform(box, card_homography(order_corners(corners)))[0]
    return out
