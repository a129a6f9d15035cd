"""The reader learning the deck on the table from the host's corrections.

The camera side keeps, for every face-up card it read recently, a :class:`CardSample`: the corner
models' embedding, both index corners (grey), what the models made of it, and where it lay.
When the host corrects that card, or enters it where the camera was unsure,
:class:`DeckLearner` keeps the sample as an :class:`vision.deck_examples.Example` of the right
card in the deck profile, saves the profile (written whole, then moved into place: a power cut
leaves the old file or the new one) and gives it to the reader; the next time the same card
lies on the table it reads right (:class:`vision.stages.Profile`). A correction the host undoes
(corrects the same place again) removes its example first.

>>> from vision.deck_examples import CROP_ROWS, CROP_W
>>> from vision.deck_profile import DeckProfile
>>> learner = DeckLearner(reader=None, path=None, profile=DeckProfile.empty(model_hash="m", width=4))
>>> crops = np.zeros((2, CROP_ROWS, CROP_W), np.uint8)
>>> sample = CardSample((0.5, 0.5), np.ones(4, np.float32), crops, guess="Js", read="Js", sure=True)
>>> learner.learn(sample, "Qs", key="1/3/board/2"), [e.card for e in learner.profile.examples]
(True, ['Qs'])
>>> learner.forget("1/3/board/2"), learner.profile.examples
(True, ())
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from table.cards import Card
from table.errors import CardParseError
from vision.deck_examples import Example, grey_crops
from vision.deck_profile import DeckProfile, ProfileError
from vision.evidence import Evidence
from vision.observations import Observations, card_text
from vision.rectify import index_crops

log = logging.getLogger(__name__)

Point = tuple[float, float]


@dataclass(frozen=True)
class CardSample:
    """One face-up card as one frame saw it: ``centre`` (0..1 of the frame), the corner models'
    ``vector``, ``crops`` (2, CROP_ROWS, CROP_W) grey, their best ``guess``, ``read``: what the
    reader named (None: unsure), and ``sure``: whether the models alone named their guess."""

    centre: Point
    vector: np.ndarray
    crops: np.ndarray
    guess: str
    read: str | None
    sure: bool = False


def samples(evidence: Evidence, observations: Observations) -> list[CardSample]:
    """The samples of a frame's face-up cards that are tall enough to read (``observations``:
    ``evidence.decide()``)."""
    rows = np.flatnonzero(observations.face_up & evidence.readable & ~evidence.small)
    if not len(rows):
        return []
    h, w = evidence.frame.shape[:2]
    crops = grey_crops(index_crops(evidence.frame, list(evidence.corners[rows]), pyramid=evidence.pyramid))
    out = []
    for k, i in enumerate(rows):
        x, y = evidence.corners[i].mean(axis=0)
        read = int(observations.card_ids[i])
        out.append(CardSample((float(x) / w, float(y) / h), evidence.embedding[i].copy(), crops[k],
                              str(Card.from_id(int(evidence.best[i]))),
                              card_text(read), bool(evidence.named[i])))  # fmt: skip
    return out


class DeckLearner:
    """Keeps the host's lessons in a deck profile, saved at ``path`` (None: not saved) and used by
    ``reader`` (None: none; a :class:`vision.reader.CardReader`). One thread uses it."""

    def __init__(self, reader: Any, path: Path | None, *, profile: DeckProfile | None = None) -> None:
        self.reader, self.path = reader, path
        if profile is None:
            profile = getattr(reader, "profile", None) or DeckProfile.empty(
                model_hash=reader.model_hash, width=reader.embedding_size)  # fmt: skip
        self.profile = profile
        self.learned = 0
        """Examples kept since this learner started."""

    def learn(self, sample: CardSample, card: str, *, key: str) -> bool:
        """Keep ``sample`` as an example of ``card`` (replacing the example taught at ``key``).
        Nothing is learned (False) from a card the reader named rightly, nor from one the models
        alone named rightly that an example made the reader name otherwise: the host undoing a
        correction, whose example was just forgotten, teaches nothing new. A card the reader was
        unsure of is learned even when the models guessed it (an example of their misreading
        another card made it unsure: its own example lets it be named)."""
        try:
            card = str(Card.parse(card))
        except CardParseError:
            return False  # a joker or another card the corner index cannot show
        if sample.read == card or (sample.read is not None and sample.sure and sample.guess == card):
            return self.forget(key)
        misread = sample.guess if sample.sure and sample.guess != card else ""
        example = Example(card, np.asarray(sample.vector, np.float32), np.asarray(sample.crops, np.uint8),
                          sample.guess, misread, key, time.time())  # fmt: skip
        self._keep(self.profile.with_example(example))
        return True

    def forget(self, key: str) -> bool:
        """Remove the example taught at ``key`` (False: there was none)."""
        if not any(e.key == key for e in self.profile.examples):
            return False
        self._keep(self.profile.without_example(key))
        return True

    def _keep(self, profile: DeckProfile) -> None:
        self.profile = profile
        if self.path is not None:
            try:
                profile.save(self.path)
            except ProfileError as error:  # a full disk must not stop the table: the lesson holds until a restart
                log.warning("the deck profile could not be saved: %s", error)
        if self.reader is not None:
            self.reader.use_profile(profile)
