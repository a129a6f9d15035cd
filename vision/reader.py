"""The card reader: frame → observations, through the stages listed in ``models/reader.json``.

>>> from vision.render.scene import PlacedCard, SceneSpec, render_scene
>>> frame_bgr = render_scene(SceneSpec(cards=(PlacedCard("Ah", True, (0.3, 0.5)),
...                                           PlacedCard("Kd", False, (0.6, 0.5))))).image
>>> reader = CardReader.default()
>>> for seen in sorted(reader.read(frame_bgr), key=lambda seen: seen.corners[:, 0].mean()):
...     print(seen.card, seen.face_up, seen.confidence > 0.9, seen.corners.shape)
Ah True True (4, 2)
None False True (4, 2)

``card`` is None when the card lies face down, or when it lies face up but the reader is not sure
enough (below the calibrated threshold): unsure is always better than wrong.

A read gathers evidence about every candidate card (:class:`vision.evidence.Evidence`) through a
list of stages, each with one job (:mod:`vision.stages`: find, corners, orient, reframe,
suit_witness, ink, picture, pips, backs, profile), and decides once, at the end. This class holds the models the
stages use and the thread they share; :meth:`CardReader.read` and :meth:`CardReader.read_card` run
the same pipeline (a straightened card skips the stages that need a frame of cards).
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
from vision.deck_profile import DeckProfile, ProfileError, model_hash
from vision.detect import Outline, find_cards
from vision.enroll import enroll
from vision.errors import FrameError, ModelError
from vision.evidence import Evidence
from vision.expert import Expert
from vision.frame_check import check_frame
from vision.joker import JokerCheck
from vision.letters import LetterProbe, load_probe
from vision.mark_reader import MarkReader
from vision.observations import Observation, Observations
from vision.rectify import (
    CROP_H,
    CROP_W,
    INDEX_BOX,
    THUMB_H,
    THUMB_W,
    Pyramid,
    card_homography,
    crop_index_box,
    order_corners,
)
from vision.segment import CardSegmenter
from vision.small import SmallReader
from vision.stages import Pipeline, Sources
from vision.suit_witness import SuitWitness

__all__ = ["MODELS_DIR", "CardReader", "IndexReading", "Observation", "Observations", "ReaderSettings", "check_frame"]

log = logging.getLogger(__name__)

MODELS_DIR = Path(__file__).resolve().parents[1] / "models"
"""Where the shipped models live (``models/`` at the top of the project)."""

@dataclass(frozen=True)
class ReaderSettings:
    """What the models were trained and calibrated with (from ``models/reader.json``)."""

    temperature: float
    threshold: float
    members: int
    dependence: float = 0.0
    """How far a card's two corners are one witness (:func:`vision.classify.vote`)."""
    stages: tuple[str, ...] = ()
    """The reader's stages in order (:mod:`vision.stages`); empty: :data:`DEFAULT_STAGES`."""
    expert: bool = False
    """Whether the corner readings include the expert's second look (``expert.json``)."""
    min_card_height: float = 0.0
    """Cards shorter than this many pixels are never named (the corner models' smallest training card)."""
    caution: tuple[tuple[float, float], ...] = ()
    """(height, threshold) pairs: a card shorter than ``height`` pixels is named from its corners
    only when their posterior reaches ``threshold`` (:attr:`vision.evidence.Evidence.caution`)."""

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
        stages = data.get("stages", [])
        if not isinstance(stages, list) or not all(isinstance(name, str) for name in stages):
            raise ModelError(f"reader settings {path}: stages must be a list of stage names, got {stages!r}")
        if not isinstance(data.get("expert", False), bool):
            raise ModelError(f"reader settings {path}: expert must be true or false, got {data['expert']!r}")
        try:
            settings = ReaderSettings(float(data["temperature"]), float(data["threshold"]), int(data.get("members", 1)),
                                      float(data.get("dependence", 0.0)), tuple(stages),
                                      bool(data.get("expert", False)),
                                      float(data.get("min_card_height", 0.0)),
                                      tuple((float(h), float(t)) for h, t in data.get("caution", [])))  # fmt: skip
        except (KeyError, TypeError, ValueError) as error:  # as SegmenterSettings.load: a typed error, not a crash
            raise ModelError(f"reader settings {path} lack a usable temperature/threshold/members: {error}") from None
        if not 0.0 <= settings.dependence <= 1.0:
            raise ModelError(f"reader settings {path}: dependence must be between 0 and 1, got {settings.dependence}")
        if not 0.0 <= settings.min_card_height < 10_000:
            raise ModelError(f"reader settings {path}: min_card_height must be pixels, 0 or more, got "
                             f"{settings.min_card_height}")  # fmt: skip
        if not all(0.0 < h < 10_000 and 0.0 < t <= 1.0 for h, t in settings.caution):
            raise ModelError(f"reader settings {path}: caution must be [height in pixels, threshold in (0, 1]] "
                             f"pairs, got {data.get('caution')!r}")  # fmt: skip
        return settings


DEFAULT_STAGES = ("find", "corners", "orient", "reframe", "letters", "small", "suit_witness", "ink", "picture", "pips",
                  "body", "joker", "backs", "profile")
"""The stages of a reader whose reader.json lists none."""


class CardReader:
    """Reads every card in a frame. Make one with :meth:`default` (the shipped models)."""

    def __init__(self, models_dir: Path, *, providers: Sequence[str] = ("CPUExecutionProvider",),
                 threads: int = 1, detector_threads: int = 2, stages: Sequence[str] | None = None,
                 indices: str = "en-fr-de") -> None:  # fmt: skip
        """``threads``: onnxruntime threads for the corner and card models (which already run beside
        other work); ``detector_threads`` for the detector, which runs while nothing else does;
        ``stages``: the pipeline's stages (default: reader.json's), e.g. to measure one left out;
        ``indices``: the deck's court letters (:data:`vision.letters.INDEX_SETTINGS`: ``"nl"`` for
        a Dutch deck). A stage whose model file is missing is a ModelError saying which, and what to do."""
        import onnxruntime as ort  # heavy: loaded with the first reader, not with the package

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
        names = tuple(stages) if stages is not None else self.settings.stages
        if not names:
            log.info("%s lists no stages: reading with the default ones", models_dir / "reader.json")
        self.pipeline = Pipeline.build(names or DEFAULT_STAGES)
        needed = self.pipeline.files() + ([("corners (expert)", "expert.json")] if self.settings.expert else [])
        missing = [f"{file} (stage {stage})" for stage, file in needed if not (models_dir / file).is_file()]
        if missing:
            raise ModelError(f"model file(s) missing in {models_dir}: {', '.join(missing)}; train them (see "
                             f"models/README.md) or leave their stage out of reader.json's stages")  # fmt: skip
        log.info("card reader stages: %s%s", " → ".join(self.pipeline.names),
                 " (corners with the expert's second look)" if self.settings.expert else "")  # fmt: skip
        options = session_options(threads)
        sessions = []
        for name in ("corners.onnx", "card.onnx"):
            path = models_dir / name
            try:
                sessions.append(ort.InferenceSession(str(path), options, providers=list(providers)))
            except Exception as error:  # onnxruntime raises its own untyped errors
                raise ModelError(f"cannot load model {path}: {error}") from None
        self._corners, self._card = sessions
        # The learned card finder (vision.segment), when the pipeline finds cards with it.
        self.segmenter: CardSegmenter | None = None
        if self.pipeline.find.name == "find":
            self.segmenter = CardSegmenter.load(models_dir, session_options(detector_threads), list(providers))
        self.embedding_size = int(self._corners.get_outputs()[2].shape[1] or 0)
        self.card_embedding_size = int(self._card.get_outputs()[1].shape[1] or 0)
        # Tock marks of face-down cards and the user's deck profile (vision.enroll).
        self.model_hash = model_hash(models_dir)
        self.models_dir = models_dir
        self.letters: LetterProbe | None = None
        """The court letters' probe of the index setting (:meth:`use_indices`; None: the default letters)."""
        self.indices = "en-fr-de"
        self.use_indices(indices)
        self.marks: MarkReader | None = MarkReader()
        self.profile: DeckProfile | None = None
        # A finer corner model's second look at unsure cards (vision.expert), part of every corner reading.
        self.expert = (Expert.load(models_dir, providers=providers, options=session_options(threads))
                       if self.settings.expert else None)  # fmt: skip
        # The card's body as a witness of its suit (vision.suit_witness).
        self.suit_witness = SuitWitness.load(models_dir) if "suit_witness" in self.pipeline.names else None
        # The cards too small for their index, read whole (vision.small).
        self.small_reader = SmallReader(models_dir) if "small" in self.pipeline.names else None
        # Jokers told by their index corners (vision.joker).
        self.joker_check = (JokerCheck.load(models_dir, providers=providers, options=session_options(threads))
                            if "joker" in self.pipeline.names else None)  # fmt: skip
        self.timings: dict[str, float] = {}
        """Milliseconds spent in each stage by the reads so far (:meth:`read`), summed."""
        # The helper thread (started on first use); made again in a forked child, where the
        # parent's thread does not exist; shut down by close(), ``with`` or when the reader goes.
        self._pool_lock = threading.Lock()
        self._pool, self._pool_pid = self._new_pool(), os.getpid()

    @classmethod
    def default(cls, *, profile: DeckProfile | str | Path | None = None, indices: str = "en-fr-de") -> CardReader:
        """The reader with the models shipped in ``models/`` (and a deck profile, if given)."""
        reader = cls(MODELS_DIR, indices=indices)
        reader.use_profile(profile)
        return reader

    def use_indices(self, indices: str) -> None:
        """Read decks printing these court letters from now on (:data:`vision.letters.INDEX_SETTINGS`;
        ModelError for another value, or when the setting's probe file is missing or stale)."""
        probe = load_probe(self.models_dir, indices, corners_hash=model_hash(self.models_dir, ("corners.onnx",)))
        if probe is not None and "letters" not in self.pipeline.names:
            raise ModelError(f"index letters {indices!r} need the letters stage, which this reader's stages leave "
                             f"out ({', '.join(self.pipeline.names)})")  # fmt: skip
        self.letters, self.indices = probe, indices

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
        return enroll(self, faces, backs=backs, name=name)

    # --- what the stages use ---------------------------------------------------------------------

    def detect(self, frame: np.ndarray, *, gray: Callable[[], np.ndarray] | None = None) -> list[Outline]:
        """The outline of every card in the frame (FrameError for what is not a frame).
        ``gray``, when given, answers the frame in grey (made elsewhere meanwhile)."""
        return find_cards(check_frame(frame), segmenter=self.segmenter, gray=gray)

    def classify_indices(self, crops: np.ndarray) -> dict[str, np.ndarray]:
        """Index crops (2 per card: top left, bottom right) → per-card votes of the corners."""
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
        """Whole-card thumbnails → P(face up) and the card model's embedding."""
        face_logits, card_embedding = self._card.run(None, {"thumbnails": prepare_thumbnails(thumbs)})
        return softmax(face_logits.astype(np.float64))[:, 1], card_embedding.astype(np.float32)

    def classify(self, crops: np.ndarray, thumbs: np.ndarray) -> dict[str, np.ndarray]:
        """Index crops (2 per card) and thumbnails (1 per card) → per-card readings, one after the other."""
        readings = self.classify_indices(crops)
        readings["p_face"], readings["card_embedding"] = self.classify_cards(thumbs)
        return readings

    # --- reading -----------------------------------------------------------------------------------

    def evidence(self, frame: Any) -> Evidence:
        """Everything the stages gathered about the cards of a BGR frame, before the decision."""
        image = check_frame(frame)
        sizes = (self.embedding_size, self.card_embedding_size)
        if min(image.shape[:2]) < 32:
            return Evidence(image, Pyramid(image), self.settings.threshold, np.zeros((0, 4, 2)), np.zeros(0, bool),
                            np.zeros(0), *sizes)  # fmt: skip
        # one profile for the whole frame, whatever use_profile does meanwhile
        sources = Sources(self.profile, self.marks, self.letters)
        start = time.perf_counter()
        evidence = self.pipeline.find.start(image, self, threshold=self.settings.threshold, sizes=sizes,
                                            min_height=self.settings.min_card_height,
                                            caution=self.settings.caution)  # fmt: skip
        self.timings[self.pipeline.find.name] = self.timings.get(self.pipeline.find.name, 0.0) + 1000 * (
            time.perf_counter() - start)  # fmt: skip
        return self.pipeline.run(evidence, self, sources, timings=self.timings)

    def read(self, frame: Any) -> Observations:
        """Every card in a BGR frame. No card: an empty result."""
        return self.evidence(frame).report()

    def read_card(self, rectified: Any) -> Observation:
        """One card that is already straightened (upright or upside down, any size)."""
        image = check_frame(rectified, what="rectified card")
        h, w = image.shape[:2]
        if min(h, w) < 16:
            raise FrameError(f"rectified card is too small ({w}×{h} pixels); give at least 16 pixels a side")
        if w > h:  # lying on its side: stand it up
            image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
            h, w = w, h
        corners = np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float64) - 0.5
        evidence = Evidence(image, Pyramid(image), self.settings.threshold, corners, np.zeros(1, bool), np.ones(1),
                            self.embedding_size, self.card_embedding_size,
                            min_height=self.settings.min_card_height, caution=self.settings.caution)  # fmt: skip
        self.pipeline.run(evidence, self, Sources(self.profile, self.marks, self.letters), whole_frame=False)
        return evidence.decide()[0]

    def _new_pool(self) -> ThreadPoolExecutor:
        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tocktable-corners")
        weakref.finalize(self, pool.shutdown, wait=False)
        return pool

    def helper(self) -> ThreadPoolExecutor:
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
