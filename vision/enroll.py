"""Teaching the card reader your own deck (its command line is ``tocktable enroll``:
:mod:`tocktable.enroll_cli`).

The reader reads most decks from what it learned of rendered cards; enrolling a deck makes it
read that deck as well as it can be read (DESIGN.md §7): one photo per card, turned into
prototypes the reader matches every card against from then on (:mod:`vision.deck_profile`).

With the camera (the guide shows which card to present next, confirms each, allows redoing one,
shows the progress, and picks up where it stopped when run again)::

    tocktable enroll                         # the webcam 0; the profile goes to the data directory
    tocktable enroll --camera picamera       # the Pi camera
    tocktable enroll --marks                 # then one back per Tock mark (a deck with another mark design)

From a folder of photos (one card per photo, named like ``Ah.jpg``, ``10h.png``, ``ace_of_hearts.jpg``
or ``Ace_heart_1.jpg``)::

    tocktable enroll --photos my-deck/
    tocktable enroll --photos shots/ --pattern "*_1.jpg"

From Python::

    profile = reader.enroll({"Ah": image_of_the_ace, ...})   # a DeckProfile
    profile.save(data_dir / "deck-profile.npz")
    reader.use_profile(profile)                              # or CardReader.default(profile=path)
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import cv2
import numpy as np

from table.cards import Card, Rank, Suit
from table.errors import CardParseError
from table.tock import ALL_MARKS, mark_of
from vision.deck_examples import grey_crops
from vision.deck_profile import DeckProfile, ProfileError, back_descriptors
from vision.errors import VisionError
from vision.face_or_back import blank_margins
from vision.frame_check import check_frame
from vision.rectify import index_crops

SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
DECK_ORDER: tuple[str, ...] = tuple(str(Card(rank, suit)) for suit in SUIT_ORDER
                                    for rank in (Rank.ACE, *(r for r in Rank if r != Rank.ACE)))  # fmt: skip
"""The order the guide asks for the cards: suit by suit, ace first."""

MARK_ORDER: tuple[str, ...] = tuple(str(m) for m in ALL_MARKS)
"""The order the guide asks for the backs (``--marks``)."""

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")

_RANK_WORDS = {"ace": "A", "king": "K", "queen": "Q", "jack": "J", "ten": "T", "two": "2", "three": "3",
               "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9", "10": "T",
               "1": "A"}  # fmt: skip
_SUIT_WORDS = {"club": "c", "clubs": "c", "diamond": "d", "diamonds": "d", "heart": "h", "hearts": "h",
               "spade": "s", "spades": "s", "c": "c", "d": "d", "h": "h", "s": "s"}  # fmt: skip
_SUIT_NAMES = {Suit.CLUBS: "clubs", Suit.DIAMONDS: "diamonds", Suit.HEARTS: "hearts", Suit.SPADES: "spades"}
_RANK_NAMES = {Rank.ACE: "ace", Rank.KING: "king", Rank.QUEEN: "queen", Rank.JACK: "jack", Rank.TEN: "10"}


class EnrollError(VisionError, ValueError):
    """A photo or an answer the enrollment cannot use: no card in it, an unknown card name, ..."""


def card_name(card: str) -> str:
    """``"7h"`` → ``"7 of hearts"``."""
    parsed = Card.parse(card)
    return f"{_RANK_NAMES.get(parsed.rank, parsed.rank.char)} of {_SUIT_NAMES[parsed.suit]}"


def card_from_filename(name: str) -> str | None:
    """The card a photo's file name names, or None: ``Ah.jpg``, ``10h-2.png``, ``ace_of_hearts.jpg``,
    ``Ace_heart_1.jpg`` (the Bicycle set's naming), ``QS (3).jpeg``.

    >>> [card_from_filename(n) for n in ("Ah.jpg", "10h-2.png", "queen_of_hearts.jpg", "10_club_3.jpg", "x.jpg")]
    ['Ah', 'Th', 'Qh', 'Tc', None]
    """
    stem = Path(name).stem.lower()
    words = [w for w in re.split(r"[\s_\-.()]+", stem) if w and w != "of"]
    if not words:
        return None
    try:
        return str(Card.parse(words[0]))
    except CardParseError:
        pass
    if len(words) >= 2 and words[0] in _RANK_WORDS | {str(n): str(n) for n in range(2, 10)} and words[1] in _SUIT_WORDS:
        rank = _RANK_WORDS.get(words[0], words[0])
        return str(Card.parse(rank + _SUIT_WORDS[words[1]]))
    return None


# ---------------------------------------------------------------------------------- one photo
@dataclass(frozen=True)
class Sample:
    """What one photo gives: the card's embedding (or a back's descriptor), and what the reader
    alone read (``read`` None when unsure), its confidence, and its outline; a face's index
    corners too (``crops``, (2, CROP_ROWS, CROP_W) grey: :attr:`DeckProfile.face_crops`)."""

    vector: np.ndarray
    read: str | None
    confidence: float
    corners: np.ndarray
    crops: np.ndarray | None = None


def _largest(observations: Any, *, face_up: bool | None) -> int | None:
    """The largest card lying ``face_up`` as the reader says (None: either way)."""
    best, best_area = None, 0.0
    for i in range(len(observations)):
        if face_up is not None and bool(observations.face_up[i]) != face_up:
            continue
        area = float(cv2.contourArea(observations.corners[i].astype(np.float32)))
        if area > best_area:
            best, best_area = i, area
    return best


def face_sample(reader: Any, image: Any) -> Sample:
    """The embedding of the largest card in ``image``, which must be a face (EnrollError saying
    what was seen instead).

    A face is told from a back by the card itself (:mod:`vision.face_or_back`: blank paper in a
    margin beside the middle of the card, where a back shows its pattern), or by the reader's
    models (the card model, or an index they know). Either suffices: a deck whose index letters or
    court pictures the models do not know is the deck that needs enrolling.
    """
    frame = check_frame(image, what="photo")
    evidence = reader.evidence(frame)
    observations = evidence.decide()
    i = _largest(observations, face_up=None)
    if i is None:
        raise EnrollError("no card found in the picture: lay the card face up, alone, in full view, on a "
                          "table of another colour than the card")  # fmt: skip
    margins = blank_margins(frame, observations.corners[i])
    if not margins.blank and not bool(observations.face_up[i]):
        raise EnrollError(f"the card looks like a back, not a face: {margins.why_not()}; lay it face up, "
                          "alone, in full view")  # fmt: skip
    read, confidence = observations[i].card, float(observations.confidence[i])
    if read is None and evidence.readable[i] and evidence.posterior[i] >= evidence.threshold:
        # The models name a card surely even though they took it for a back (or the pips doubt it).
        read, confidence = str(Card.from_id(int(evidence.best[i]))), float(evidence.posterior[i])
    crops = grey_crops(index_crops(frame, [observations.corners[i]], pyramid=evidence.pyramid))[0]
    return Sample(observations.embeddings[i].copy(), read, confidence, observations.corners[i].copy(), crops)


def back_sample(reader: Any, image: Any) -> Sample:
    """The descriptor of the largest face-down card in ``image``."""
    observations = reader.read(image)
    i = _largest(observations, face_up=False)
    if i is None:
        raise EnrollError("no face-down card in the picture: lay the card face down, alone, in full view")
    descriptor = back_descriptors(check_frame(image), [observations.corners[i]])[0]
    return Sample(descriptor, observations[i].mark, float(observations.confidence[i]), observations.corners[i].copy())


def _images(value: Any) -> list[Any]:
    if isinstance(value, np.ndarray | str | Path):
        return [value]
    return list(value)


def _load(image: Any) -> Any:
    if isinstance(image, str | Path):
        loaded = cv2.imread(str(image), cv2.IMREAD_COLOR)
        if loaded is None:
            raise EnrollError(f"cannot read image {image}")
        return loaded
    return image


def enroll(reader: Any, faces: Mapping[str, Any], *, backs: Mapping[str, Any] | None = None,
           name: str = "") -> DeckProfile:  # fmt: skip
    """A deck profile from photos: ``faces`` maps a card ("Ah") to one photo (BGR array or file
    path) or several; ``backs`` maps a mark ("h:large") to photos of a back carrying it (a deck
    with another mark design than Tock stickers). Raises EnrollError naming the photo that
    shows no usable card: one line per such photo, card by card, each saying why."""
    face_vectors: dict[str, list[np.ndarray]] = {}
    face_crops: dict[str, list[np.ndarray | None]] = {}
    model_reads: dict[str, list[str]] = {}
    problems: list[str] = []
    for card, value in faces.items():
        for k, image in enumerate(_images(value)):
            try:
                sample = face_sample(reader, _load(image))
            except EnrollError as error:
                problems.append(f"photo {k + 1} of {card}: {error}")
                continue
            face_vectors.setdefault(card, []).append(sample.vector)
            face_crops.setdefault(card, []).append(sample.crops)
            model_reads.setdefault(card, []).append(sample.read or "")
    back_vectors: dict[str, list[np.ndarray]] = {}
    for mark, value in (backs or {}).items():
        for k, image in enumerate(_images(value)):
            try:
                back_vectors.setdefault(mark, []).append(back_sample(reader, _load(image)).vector)
            except EnrollError as error:
                problems.append(f"photo {k + 1} of the back {mark}: {error}")
    if problems:
        raise EnrollError(f"{len(problems)} photo(s) could not be enrolled:\n  " + "\n  ".join(problems))
    try:
        return DeckProfile.from_faces(face_vectors, model_hash=reader.model_hash, backs=back_vectors, name=name,
                                      model_reads=_misreads(model_reads), crops=face_crops)  # fmt: skip
    except ProfileError as error:
        raise EnrollError(str(error)) from None


def _misreads(reads: Mapping[str, list[str]]) -> dict[str, str]:
    """The cards the models alone did not name rightly on their photos, and what they named
    (:attr:`vision.deck_profile.DeckProfile.model_reads`): one same other card on every photo, or
    nothing (``""``: unsure, or named two ways). A card read rightly on any photo is not listed."""
    out = {}
    for card, named in reads.items():
        try:
            canonical = str(Card.parse(card))
        except CardParseError:
            continue  # from_faces says what is wrong with the name
        if not named or canonical in named:
            continue
        out[canonical] = named[0] if len(set(named)) == 1 else ""
    return out


@dataclass
class FolderReport:
    """What enrolling a folder did: cards enrolled, photos skipped (and why), cards missing, and
    cards the reader alone read as another card (worth a look: a misnamed photo?)."""

    enrolled: dict[str, int] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    disagreements: list[str] = field(default_factory=list)
    reasons: dict[str, list[str]] = field(default_factory=dict)
    """For each card some photo of which could not be enrolled: why, photo by photo."""

    @property
    def missing(self) -> list[str]:
        return [card for card in DECK_ORDER if card not in self.enrolled]


def enroll_folder(reader: Any, folder: str | Path, *, pattern: str = "*", name: str = "",
                  progress: Callable[[int, int], None] | None = None) -> tuple[DeckProfile, FolderReport]:  # fmt: skip
    """A profile from every photo in ``folder`` matching ``pattern`` whose name names a card."""
    folder = Path(folder)
    if not folder.is_dir():
        raise EnrollError(f"{folder} is not a folder of photos")
    files = sorted(p for p in folder.glob(pattern) if p.suffix.lower() in IMAGE_SUFFIXES)
    report = FolderReport()
    vectors: dict[str, list[np.ndarray]] = {}
    crops: dict[str, list[np.ndarray | None]] = {}
    reads: dict[str, list[str]] = {}
    for k, path in enumerate(files):
        if progress is not None:
            progress(k, len(files))
        card = card_from_filename(path.name)
        if card is None:
            report.skipped.append(f"{path.name}: the name does not name a card (use names like Ah.jpg or 10h.jpg)")
            continue
        try:
            sample = face_sample(reader, _load(path))
        except EnrollError as error:
            report.skipped.append(f"{path.name}: {error}")
            report.reasons.setdefault(card, []).append(f"{path.name}: {error}")
            continue
        vectors.setdefault(card, []).append(sample.vector)
        crops.setdefault(card, []).append(sample.crops)
        reads.setdefault(card, []).append(sample.read or "")
        report.enrolled[card] = report.enrolled.get(card, 0) + 1
        if sample.read is not None and sample.read != card:
            report.disagreements.append(f"{path.name}: named {card}, the reader alone reads {sample.read}")
    if progress is not None:
        progress(len(files), len(files))
    if not vectors:
        raise EnrollError(f"no photo in {folder} (pattern {pattern!r}) shows a card it is named after")
    return DeckProfile.from_faces(vectors, model_hash=reader.model_hash, name=name, model_reads=_misreads(reads),
                                  crops=crops), report  # fmt: skip


# ---------------------------------------------------------------------------------- the guide
class Guide:
    """The guided enrollment with a camera: one card after the other, confirmed, redoable,
    saved after every card (``<profile>.partial.npz``) so that a stop loses nothing.

    ``source`` is a started :class:`hardware.frames.FrameSource`; ``ask`` reads one answer
    (``input``), ``out`` gets the prompts. ``frames``: pictures read per capture (their
    embeddings are averaged).
    """

    def __init__(self, reader: Any, source: Any, path: Path, *, marks: bool = False, restart: bool = False,
                 cards: Sequence[str] | None = None, ask: Callable[[str], str] = input, out: TextIO = sys.stdout,
                 frames: int = 3, timeout: float = 2.0, name: str = "") -> None:  # fmt: skip
        self.reader, self.source, self.path = reader, source, Path(path)
        self.ask, self.out, self.frames, self.timeout, self.name = ask, out, frames, timeout, name
        try:
            chosen = list(DECK_ORDER) if cards is None else [str(Card.parse(c)) for c in cards]
        except CardParseError as error:
            raise EnrollError(f"cannot enroll the cards asked for: {error}") from None
        self.steps: list[str] = chosen + (list(MARK_ORDER) if marks else [])
        self.faces: dict[str, np.ndarray] = {}
        self.backs: dict[str, np.ndarray] = {}
        self.misreads: dict[str, str] = {}
        """What the models alone named enrolled cards as, where it was another card (the profile's model_reads)."""
        self.crops: dict[str, np.ndarray] = {}
        """Each enrolled card's index corners (the profile's face_crops)."""
        self.failures: dict[str, str] = {}
        """The last reason a capture of a card failed (said again for the cards left out)."""
        self._last_frame = 0
        if restart:
            self.partial_path.unlink(missing_ok=True)
        self._resume()

    @property
    def partial_path(self) -> Path:
        return self.path.with_name(self.path.name + ".partial.npz")

    def _say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def _resume(self) -> None:
        """Pick up a stopped enrollment; when only some cards are asked for, keep the saved
        profile's other cards (redoing a few cards of an enrolled deck)."""
        if len(self.steps) < len(DECK_ORDER) and self.path.is_file():
            try:
                saved = DeckProfile.load(self.path, model_hash=self.reader.model_hash)
                self.faces = {c: v for c, v in zip(saved.face_labels, saved.face_prototypes, strict=True)
                              if c not in self.steps}  # fmt: skip
                self.backs = {m: v for m, v in zip(saved.back_labels, saved.back_prototypes, strict=True)
                              if m not in self.steps}  # fmt: skip
                self.misreads = {c: r for c, r in saved.model_reads.items() if c in self.faces}
                self.crops = {c: v for c, v in saved.crops_by_card().items() if c in self.faces}
            except ProfileError as error:
                self._say(f"The saved profile cannot be added to ({error}): only the cards asked for are kept.")
        if not self.partial_path.is_file():
            return
        try:
            partial = DeckProfile.load(self.partial_path, model_hash=self.reader.model_hash)
        except ProfileError as error:
            self._say(f"Starting afresh: the saved progress cannot be used ({error}).")
            return
        self.faces.update(zip(partial.face_labels, partial.face_prototypes, strict=True))
        self.backs.update(zip(partial.back_labels, partial.back_prototypes, strict=True))
        self.misreads.update(partial.model_reads)
        self.crops.update(partial.crops_by_card())
        self._say(f"Resuming: {self._done()} of {len(self.steps)} already enrolled.")

    def _done(self) -> int:
        return sum(1 for step in self.steps if step in self.faces or step in self.backs)

    def _save_partial(self) -> None:
        if self.faces or self.backs:
            self._profile().save(self.partial_path)

    def _profile(self) -> DeckProfile:
        return DeckProfile.from_faces({c: [v] for c, v in self.faces.items()}, model_hash=self.reader.model_hash,
                                      backs={m: [v] for m, v in self.backs.items()}, name=self.name,
                                      model_reads=self.misreads,
                                      crops={c: [self.crops.get(c)] for c in self.faces})  # fmt: skip

    def _describe(self, step: str) -> str:
        if ":" in step:
            example = next(c for c in DECK_ORDER if str(mark_of(Card.parse(c))) == step)
            return f"a card whose back is marked {step} (the {card_name(example)}, for one) FACE DOWN"
        return f"the {card_name(step)} ({step}) FACE UP"

    def capture(self, step: str) -> Sample:
        """Read ``frames`` fresh pictures and average what they show (EnrollError if none did)."""
        samples = []
        reasons: list[str] = []
        for _ in range(self.frames * 3):
            frame = self.source.read(newer_than=self._last_frame, timeout=self.timeout)
            if frame is None:
                break
            self._last_frame = frame.index
            try:
                sampler = back_sample if ":" in step else face_sample
                samples.append(sampler(self.reader, frame.image))
            except EnrollError as error:
                reasons.append(str(error))
                continue
            if len(samples) == self.frames:
                break
        if not samples:
            what = "face-down" if ":" in step else "face-up"
            seen = f" ({max(set(reasons), key=reasons.count)})" if reasons else " (no picture came from the camera)"
            raise EnrollError(f"no {what} card seen{seen}: put it under the camera, alone and in full view, "
                              "and try again")  # fmt: skip
        vector = np.mean([s.vector / max(float(np.linalg.norm(s.vector)), 1e-9) for s in samples], axis=0)
        reads = [s.read for s in samples]
        read = max(set(reads), key=reads.count)
        return Sample(vector, read, float(np.mean([s.confidence for s in samples])), samples[-1].corners,
                      samples[-1].crops)

    def run(self) -> DeckProfile | None:
        """Go through every card; returns the saved profile, or None when stopped early (the
        progress is kept for the next run)."""
        self._say(f"Enrolling {len(self.steps)} {'cards and backs' if len(self.steps) > 52 else 'cards'}: answer "
                  "Enter to capture, 'redo Ah' to do a card again, 'skip' to leave one out, 'quit' to stop "
                  "(your progress is kept).")  # fmt: skip
        skipped: set[str] = set()
        while True:
            step = next((s for s in self.steps if s not in self.faces and s not in self.backs and s not in skipped),
                        None)  # fmt: skip
            if step is None:
                break
            answer = self.ask(f"[{self._done() + 1}/{len(self.steps)}] Show {self._describe(step)}, then press Enter: ")
            command = answer.strip().lower()
            if command in ("q", "quit", "stop"):
                self._save_partial()
                self._say(f"Stopped with {self._done()} of {len(self.steps)} enrolled; run again to go on.")
                return None
            if command in ("s", "skip"):
                skipped.add(step)
                continue
            if command.startswith("redo"):
                self._redo(command[4:].strip(), skipped)
                continue
            if command:
                self._say("Answer Enter to capture, 'redo Ah', 'skip' or 'quit'.")
                continue
            try:
                sample = self.capture(step)
            except EnrollError as error:
                self.failures[step] = str(error)
                self._say(f"  {error}")
                continue
            self._say(self._verdict(step, sample))
            keep = self.ask("  Keep it? [Enter = yes, r = take it again] ").strip().lower()
            if keep in ("r", "retake", "n", "no"):
                continue
            (self.backs if ":" in step else self.faces)[step] = sample.vector
            self.misreads.pop(step, None)
            self.crops.pop(step, None)
            if sample.crops is not None:
                self.crops[step] = sample.crops
            if ":" not in step and sample.read != step:
                self.misreads[step] = sample.read or ""
            self._save_partial()
        return self._finish(skipped)

    def _redo(self, text: str, skipped: set[str]) -> None:
        try:
            step = str(Card.parse(text)) if ":" not in text else text
        except CardParseError:
            self._say(f"  Cannot redo {text!r}: name a card like 'Ah' or '10h' (or a mark like 'h:large').")
            return
        if step not in self.steps:
            self._say(f"  {step} is not one of the cards being enrolled.")
            return
        self.faces.pop(step, None)
        self.backs.pop(step, None)
        skipped.discard(step)
        self.steps.remove(step)
        self.steps.insert(0, step)
        self._say(f"  {step} will be taken again next.")

    def _verdict(self, step: str, sample: Sample) -> str:
        if ":" in step:
            return f"  Seen a face-down card (the Tock mark reader reads {sample.read or 'nothing sure'} on it)."
        if sample.read == step:
            return f"  Seen: the reader alone reads it as {step} too ({sample.confidence:.2f})."
        if sample.read is None:
            return f"  Seen: the reader alone is not sure what it is; enrolling it as {step} teaches it."
        return (f"  Seen: the reader alone reads {sample.read}! Is this really the {card_name(step)}? "
                "Answer r to take it again if not.")  # fmt: skip

    def _finish(self, skipped: set[str]) -> DeckProfile | None:
        if not self.faces:
            self._say("Nothing enrolled.")
            return None
        profile = self._profile()
        profile.save(self.path)
        self.partial_path.unlink(missing_ok=True)
        missing = [s for s in self.steps if s in skipped]
        note = f" ({len(missing)} left out: {' '.join(missing)})" if missing else ""
        self._say(f"Saved the deck profile of {len(self.faces)} cards{note} to {self.path}.")
        for step in missing:
            self._say(f"  {step} not enrolled: {self.failures.get(step, 'skipped')}")
        return profile
