"""What the card reader answers: one :class:`Observation` per card, or all of a frame's as
parallel arrays (:class:`Observations`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import overload

import numpy as np

from table.cards import JOKER_ID, Card


def card_text(card_id: int) -> str | None:
    """The text of a read card id: ``"Ah"``, ``"Jk"`` for the joker, None for -1 (none read)."""
    if card_id < 0:
        return None
    return "Jk" if card_id == JOKER_ID else str(Card.from_id(card_id))


@dataclass(frozen=True)
class Observation:
    """One card seen in one frame.

    ``card`` is the face ("Ah"; "Jk" for a joker) or None (face down, or face up but unsure). ``confidence`` is the
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

    ``card_ids`` holds table.cards ids (-1 = no face read; :data:`table.cards.JOKER_ID`, 52, a joker);
    ``embeddings`` are the corner models' penultimate features of each card (mean of its two
    corners), ``card_embeddings`` the card model's (computed for cards whose corners show no index,
    i.e. backs; zeros for the others): both for nearest-prototype enrollment of a user's deck.
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
        if n and (self.card_ids.min() < -1 or self.card_ids.max() > JOKER_ID):
            raise ValueError(f"card ids must be -1 (none), 0..51 or {JOKER_ID} (a joker)")

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
            return Observation(
                card=card_text(int(self.card_ids[i])),
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
        return [card_text(int(c)) for c in self.card_ids]
