"""Teaching the card reader the table's deck from the set-up page: the guided enrollment of
``tocktable enroll`` (:mod:`vision.enroll`) for a phone, then a check.

The page asks for one card after the other (suit by suit, ace first: :data:`vision.enroll.DECK_ORDER`).
The host lays it face up, alone, under the camera and taps *Capture*; the teacher reads the
camera's next picture (:func:`vision.enroll.face_sample`: the largest card, which must be a face),
keeps the crop it took and says what the models alone read on it; the host keeps it or takes it
again. Every kept card is written to the progress file in the data directory
(``deck-profile.npz.partial.npz``, the same file as the terminal guide's, so either picks up where
the other stopped), so a reload of the page or a restart of the table loses nothing. A card can be
redone at any time. When every card of the deck is kept, the profile is saved as
``deck-profile.npz`` and handed at once to every reader that reads the table (:meth:`share`).

The check: lay any cards face up (ten, say) and tap *Read them*: the page lists every card the
reader finds on the next picture, with its name.

In ``tocktable demo`` the teacher also has the demo's hands (:class:`TableHands`): the page can
lay the asked card on the synthetic table, or ten cards for the check, and the demo's players
wait while the deck is being taught.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from table.cards import Card
from table.errors import CardParseError, TocktableError

PROFILE_NAME = "deck-profile.npz"
"""The deck profile in the data directory (:data:`vision.deck_profile.PROFILE_NAME`)."""
PROGRESS_NAME = PROFILE_NAME + ".partial.npz"
"""The cards kept so far (the terminal guide's progress file too)."""
CROP_SIZE = (126, 176)
"""Width and height of the crop shown to the host (a card's 63:88)."""

Frames = Callable[[], tuple[int, np.ndarray] | None]


class TeachError(TocktableError, ValueError):
    """A step of the teaching that cannot be taken now: what was wrong and what to do instead."""


class TableHands(Protocol):
    """The demo's hands on its synthetic table (a real table has the host's own)."""

    def lend(self) -> None:
        """The demo's players stop playing: the table is the teacher's."""

    def give_back(self) -> None:
        """The table is the demo's again (the dealer lays its hand out afresh)."""

    def lay(self, cards: Sequence[str]) -> None:
        """Clear the table and lay ``cards`` face up where the camera sees them."""


def card_name(card: str) -> str:
    """``"Th"`` → ``"10 of hearts"`` (:func:`vision.enroll.card_name`)."""
    from vision.enroll import card_name as name  # vision's enrollment loads with the teaching

    return name(card)


def deck_order() -> tuple[str, ...]:
    from vision.enroll import DECK_ORDER  # vision's enrollment loads with the teaching

    return DECK_ORDER


class DeckTeacher:
    """The set-up page's deck teaching (see the module's docstring).

    ``frames``: the camera's latest picture as taken (``() → (index, BGR) | None``, e.g.
    :meth:`tocktable.tap.CameraTap.raw`); ``data_dir``: where the progress and the profile are
    kept; ``reader``: makes the card reader on first use (the table's own when it has one);
    ``hands``: the demo's hands; ``wait``: seconds to wait for a picture newer than the request.
    """

    def __init__(self, frames: Frames, data_dir: Path, *, reader: Callable[[], Any], hands: TableHands | None = None,
                 wait: float = 2.0, rng: random.Random | None = None) -> None:  # fmt: skip
        self.frames = frames
        self.data_dir = Path(data_dir)
        self._make_reader = reader
        self._reader: Any = None
        self._readers: list[Any] = []
        self.hands = hands
        self.wait = wait
        self.rng = rng or random.Random()
        self._lock = threading.RLock()
        self.state = "idle"
        """``"idle"`` (the page shows the progress and *Teach*) or ``"teaching"``."""
        self.faces: dict[str, np.ndarray] = {}
        self.misreads: dict[str, str] = {}
        self.corners: dict[str, np.ndarray] = {}
        """Each taught card's index corners, grey (the profile's face crops)."""
        self._redo: list[str] = []
        self._pending: dict[str, Any] | None = None
        self._vector: np.ndarray | None = None
        self._corners: np.ndarray | None = None
        self._crop: bytes | None = None
        self._crops = 0
        self._check: dict[str, Any] | None = None
        self.note: str | None = None
        """Why saved progress or a saved profile was not used (said on the page)."""
        self._progress_hash: str | None = None
        self._saved: tuple[int, int] | None = None
        self._load_progress()

    # ------------------------------------------------------------------ files
    @property
    def profile_path(self) -> Path:
        return self.data_dir / PROFILE_NAME

    @property
    def progress_path(self) -> Path:
        return self.data_dir / PROGRESS_NAME

    def _load_progress(self) -> None:
        for path in (self.progress_path, self.profile_path):
            if not path.is_file():
                continue
            # vision's profiles load only when there is one to read (not with every table's start)
            from vision.deck_profile import DeckProfile, ProfileError

            try:
                saved = DeckProfile.load(path)
            except ProfileError as error:
                self.note = f"{path.name} cannot be read ({error}): teach the deck again"
                continue
            self.faces = dict(zip(saved.face_labels, saved.face_prototypes, strict=True))
            self.misreads = dict(saved.model_reads)
            self.corners = saved.crops_by_card()
            self._progress_hash = saved.model_hash
            return

    def _save_progress(self) -> None:
        if self.faces:
            self._profile().save(self.progress_path)
        else:
            self.progress_path.unlink(missing_ok=True)

    def _profile(self) -> Any:
        from vision.deck_profile import DeckProfile  # with the teaching only

        return DeckProfile.from_faces({c: [v] for c, v in self.faces.items()}, model_hash=self.reader().model_hash,
                                      model_reads=self.misreads, name="taught on the set-up page",
                                      crops={c: [self.corners.get(c)] for c in self.faces})  # fmt: skip

    # ------------------------------------------------------------------ the readers
    def reader(self) -> Any:
        """The card reader the teacher reads with (made on first use; the saved profile in use)."""
        with self._lock:
            if self._reader is None:
                self._reader = self._make_reader()
                if self._reader not in self._readers:
                    self._readers.insert(0, self._reader)
                if self._progress_hash is not None and self._progress_hash != self._reader.model_hash:
                    self.note = "the cards taught before were read with other models: teach the deck again"
                    self.faces, self.misreads, self.corners, self._progress_hash = {}, {}, {}, None
                if self.profile_path.is_file() and getattr(self._reader, "profile", None) is None:
                    self._use_saved(self._reader)
            return self._reader

    def share(self, reader: Any) -> None:
        """Another reader of the table (the camera's): it gets every profile taught from now on,
        and the saved one now if it has none."""
        with self._lock:
            if reader not in self._readers:
                self._readers.append(reader)
            if getattr(reader, "profile", None) is None and self.profile_path.is_file():
                self._use_saved(reader)

    def _use_saved(self, reader: Any) -> None:
        try:
            reader.use_profile(self.profile_path)
        except Exception as error:  # a stale or damaged profile must not stop the table
            self.note = f"the saved deck profile is not used ({error}): teach the deck again"

    # ------------------------------------------------------------------ what the page shows
    def status(self) -> dict[str, Any]:
        """Everything the page shows (see ``web/setup_deck.py``)."""
        with self._lock:
            order = deck_order()
            step = self._next()
            done = sum(1 for c in order if c in self.faces)
            saved = self._saved_cards()
            return {
                "state": self.state,
                "total": len(order),
                "done": done,
                "enrolled": [c for c in order if c in self.faces],
                "next": {"card": step, "name": card_name(step)} if step is not None else None,
                "pending": dict(self._pending) if self._pending is not None else None,
                "complete": done == len(order),
                "saved": saved,
                "in_use": any(getattr(r, "profile", None) is not None for r in self._readers),
                "check": self._check,
                "demo": self.hands is not None,
                "note": self.note,
            }

    def _saved_cards(self) -> int:
        """Cards in the saved profile (0: none saved)."""
        if not self.profile_path.is_file():
            return 0
        try:
            stamp = self.profile_path.stat().st_mtime_ns
        except OSError:
            return 0
        if self._saved is None or self._saved[0] != stamp:
            from vision.deck_profile import DeckProfile, ProfileError  # with the teaching only

            try:
                count = len(DeckProfile.load(self.profile_path).cards)
            except ProfileError:
                count = 0
            self._saved = (stamp, count)
        return self._saved[1]

    def _next(self) -> str | None:
        if self._pending is not None:
            return str(self._pending["card"])
        return next((c for c in [*self._redo, *deck_order()] if c not in self.faces), None)

    def crop(self) -> bytes | None:
        """The JPEG of the card the camera took last (None before the first capture)."""
        with self._lock:
            return self._crop

    # ------------------------------------------------------------------ the steps
    def start(self) -> dict[str, Any]:
        """Teach (or go on teaching): the demo's players stop and the table is the host's."""
        with self._lock:
            if self.state != "teaching" and self.hands is not None:
                self.hands.lend()
            self.state = "teaching"
            return self.status()

    def stop(self) -> dict[str, Any]:
        """Stop teaching; the cards kept so far stay kept for the next time."""
        with self._lock:
            if self.state == "teaching" and self.hands is not None:
                self.hands.give_back()
            self.state, self._pending = "idle", None
            return self.status()

    def restart(self) -> dict[str, Any]:
        """Forget every card kept so far (a saved profile stays in use until a new one is complete)."""
        with self._lock:
            self.faces, self.misreads, self.corners, self._redo, self._pending = {}, {}, {}, [], None
            self._check, self.note = None, None
            self.progress_path.unlink(missing_ok=True)
            return self.status()

    def lay(self) -> dict[str, Any]:
        """The demo's hands lay the card asked for, alone in the middle of the table."""
        with self._lock:
            hands = self._demo_hands()
            step = self._next()
            if step is None:
                raise TeachError("every card is taught: there is no card to lay; read some to check them")
            hands.lay([step])
            return self.status()

    def lay_check(self, count: int = 10) -> list[str]:
        """The demo's hands lay ``count`` cards of the deck, drawn at random, face up."""
        with self._lock:
            hands = self._demo_hands()
            if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 12:
                raise TeachError(f"lay 1 to 12 cards for the check, not {count!r}")
            cards = self.rng.sample(list(deck_order()), count)
            hands.lay(cards)
            return cards

    def _demo_hands(self) -> TableHands:
        if self.hands is None:
            raise LookupError("only the demo's synthetic table can be laid from the page: lay the cards by hand")
        if self.state != "teaching":
            self.start()
        assert self.hands is not None
        return self.hands

    def capture(self) -> dict[str, Any]:
        """Read the camera's next picture for the card asked for: the crop and what the models
        alone read on it wait for the host to keep it or take it again."""
        from vision.enroll import EnrollError, face_sample  # with the teaching only

        with self._lock:
            if self.state != "teaching":
                raise TeachError("tap Teach the deck first")
            step = self._next()
            if step is None:
                raise TeachError("every card is taught: redo a card to take it again, or read some to check them")
            index, image = self._fresh_frame()
            try:
                sample = face_sample(self.reader(), image)
            except EnrollError as error:
                raise TeachError(f"{error} (asked for: the {card_name(step)})") from None
            self._vector = np.asarray(sample.vector, np.float32)
            self._corners = sample.crops
            self._crop = _crop_jpeg(image, np.asarray(sample.corners, np.float64))
            self._crops += 1
            self._pending = {"card": step, "name": card_name(step), "read": sample.read,
                             "read_name": card_name(sample.read) if sample.read else None,
                             "confidence": round(float(sample.confidence), 3), "agrees": sample.read == step,
                             "frame": index, "crop": self._crops}  # fmt: skip
            return self.status()

    def keep(self) -> dict[str, Any]:
        """Keep the card captured; once the whole deck is kept, save the profile and use it."""
        with self._lock:
            if self._pending is None or self._vector is None:
                raise TeachError("nothing captured to keep: lay the card asked for and tap Capture")
            card = str(self._pending["card"])
            self.faces[card] = self._vector
            self.misreads.pop(card, None)
            self.corners.pop(card, None)
            if self._corners is not None:
                self.corners[card] = self._corners
            if self._pending["read"] != card:
                self.misreads[card] = str(self._pending["read"] or "")
            if card in self._redo:
                self._redo.remove(card)
            self._pending, self._vector = None, None
            if len(self.faces) == len(deck_order()):
                self._finish()
            else:
                self._save_progress()
            return self.status()

    def retake(self) -> dict[str, Any]:
        """Drop the card captured: the same card is asked for again."""
        with self._lock:
            self._pending, self._vector = None, None
            return self.status()

    def redo(self, card: Any) -> dict[str, Any]:
        """Take ``card`` again next (the profile in use stays until the deck is complete again)."""
        with self._lock:
            try:
                name = str(Card.parse(card)) if isinstance(card, str) else None
            except CardParseError:
                name = None
            if name is None:
                raise TeachError(f"cannot redo {card!r}: name a card like 'Ah' or 'Th'")
            if name not in self.faces:
                raise TeachError(f"{name} is not taught yet: it will be asked for in its turn")
            del self.faces[name]
            self.misreads.pop(name, None)
            self.corners.pop(name, None)
            self._redo = [name, *(c for c in self._redo if c != name)]
            self._pending, self._vector = None, None
            self._save_progress()
            return self.status()

    def _finish(self) -> None:
        profile = self._profile()
        profile.save(self.profile_path)
        self.progress_path.unlink(missing_ok=True)
        self._check, self.note = None, None
        for reader in self._readers:
            reader.use_profile(profile)

    def check(self) -> dict[str, Any]:
        """Read every card on the camera's next picture: ``{"frame", "cards": [{"card", "name",
        "confidence"}], "face_down", "read", "seen", "profile"}`` (left to right, top to bottom)."""
        with self._lock:
            index, image = self._fresh_frame()
            reader = self.reader()
            observations = reader.read(image)
            found = []
            face_down = 0
            for obs in observations:
                if not obs.face_up:
                    face_down += 1
                    continue
                corners = np.asarray(obs.corners, np.float64)
                x, y = float(corners[:, 0].mean()), float(corners[:, 1].mean())
                found.append((y, x, obs.card, float(obs.confidence)))
            rows = _rows_of(found, float(image.shape[0]))
            cards = [{"card": card, "name": card_name(card) if card else "not read", "confidence": round(conf, 3)}
                     for _, _, card, conf in rows]  # fmt: skip
            profile = getattr(reader, "profile", None)
            self._check = {"frame": index, "cards": cards, "face_down": face_down, "seen": len(cards),
                           "read": sum(1 for c in cards if c["card"]),
                           "profile": len(profile.cards) if profile is not None else 0}  # fmt: skip
            return dict(self._check)

    def _fresh_frame(self) -> tuple[int, np.ndarray]:
        """A picture taken after the request (waiting up to ``wait`` seconds; then the latest)."""
        first = self.frames()
        if first is None:
            raise LookupError("the camera has given no picture yet: wait for it, or check it on the camera page")
        deadline = time.monotonic() + self.wait
        latest = first
        while latest[0] <= first[0] and time.monotonic() < deadline:
            time.sleep(0.05)
            latest = self.frames() or latest
        return int(latest[0]), np.asarray(latest[1])


def _rows_of(found: list[tuple[float, float, str | None, float]], height: float) -> list[Any]:
    """Cards in reading order: rows a fifth of the picture tall, left to right in each."""
    return sorted(found, key=lambda f: (round(f[0] / max(height / 5, 1.0)), f[1]))


def _crop_jpeg(image: np.ndarray, corners: np.ndarray) -> bytes:
    """The card inside ``corners`` (clockwise from a corner) straightened into a card-shaped JPEG."""
    import cv2

    w, h = CROP_SIZE
    quad = np.asarray(corners, np.float32).reshape(4, 2)
    sides = [float(np.linalg.norm(quad[(i + 1) % 4] - quad[i])) for i in range(4)]
    if sides[0] + sides[2] > sides[1] + sides[3]:  # the first side is a long one: start one corner on
        quad = np.roll(quad, -1, axis=0)
    target = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    flat = cv2.warpPerspective(image, cv2.getPerspectiveTransform(quad, target), (w, h))
    ok, data = cv2.imencode(".jpg", flat, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return bytes(data) if ok else b""
