"""Model inputs: how crops and thumbnails become the arrays the CNNs read (shared by training).

Kept free of onnxruntime and torch so that training and the run-time reader prepare images in
exactly the same way.
"""

from __future__ import annotations

import numpy as np

RANKS = "23456789TJQKA"
SUITS = "cdhs"
NO_INDEX = len(RANKS)
"""The corner model's rank class for "no index here" (a back, a blank corner, a covered corner)."""

_MIN_SPAN = 48.0  # grey levels: a crop with less contrast than this is not stretched further


def prepare_crops(crops: np.ndarray) -> np.ndarray:
    """BGR uint8 crops (N, H, W, 3) → float32 (N, 2, H, W): contrast-normalised grey and redness.

    Grey is stretched between its 2nd and 98th percentiles (paper ≈ 0.5, ink ≈ -0.5) so that the
    room's light does not matter; redness (R minus the larger of G and B) tells red suits from
    black on the same scale.
    """
    if crops.ndim != 4 or crops.shape[-1] != 3:
        raise ValueError(f"crops must be (N, H, W, 3) BGR, got shape {crops.shape}")
    n, h, w, _ = crops.shape
    pixels = crops.astype(np.float32)
    b, g, r = pixels[..., 0], pixels[..., 1], pixels[..., 2]
    grey = 0.114 * b + 0.587 * g + 0.299 * r
    lo, hi = _percentiles(grey.reshape(n, -1), (2.0, 98.0))
    span = np.maximum(hi - lo, _MIN_SPAN)[:, None, None]
    out = np.empty((n, 2, h, w), np.float32)
    out[:, 0] = np.clip((grey - lo[:, None, None]) / span, -0.5, 1.5) - 0.5
    out[:, 1] = np.clip((r - np.maximum(g, b)) / span, -1.0, 1.5)
    return out


def _percentiles(rows: np.ndarray, qs: tuple[float, ...]) -> tuple[np.ndarray, ...]:
    """``np.percentile(rows, qs, axis=1)`` (linear interpolation, the same numbers to the bit) from
    one partial sort of each row at the few places needed, not numpy's general path."""
    m = rows.shape[1]
    position = np.array(qs) / 100 * (m - 1)
    below = np.floor(position).astype(np.int64)
    above = np.minimum(below + 1, m - 1)
    part = np.partition(rows, np.unique(np.concatenate([below, above])), axis=1)
    a, c = part[:, below], part[:, above]
    t = position - below
    # numpy's lerp, operation for operation: the difference in the rows' own type, then from the
    # nearer end (so that t = 1 gives exactly the upper value)
    d = c - a
    values = np.where(t >= 0.5, c - d * (1 - t), a + d * t)
    return tuple(values[:, k] for k in range(len(qs)))


def prepare_thumbnails(thumbs: np.ndarray) -> np.ndarray:
    """BGR uint8 thumbnails (N, H, W, 3) → float32 (N, 3, H, W) in -1..1."""
    if thumbs.ndim != 4 or thumbs.shape[-1] != 3:
        raise ValueError(f"thumbnails must be (N, H, W, 3) BGR, got shape {thumbs.shape}")
    return np.ascontiguousarray(thumbs.transpose(0, 3, 1, 2), dtype=np.float32) / 127.5 - 1.0


def softmax(logits: np.ndarray, axis: int = -1) -> np.ndarray:
    """Numerically stable softmax."""
    shifted = logits - logits.max(axis=axis, keepdims=True)
    e = np.exp(shifted)
    out: np.ndarray = e / e.sum(axis=axis, keepdims=True)
    return out


def corner_probabilities(rank_logits: np.ndarray, suit_logits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Members' logits (K, M, 14) and (K, M, 4) → P(card | an index is there) (M, 52) and P(no index) (M,).

    Members are averaged in probability; card id = rank * 4 + suit (as ``table.cards``).
    """
    p_rank = softmax(rank_logits.astype(np.float64)).mean(axis=0)
    p_suit = softmax(suit_logits.astype(np.float64)).mean(axis=0)
    p_none = p_rank[:, NO_INDEX]
    ranks = p_rank[:, :NO_INDEX] / np.maximum(1.0 - p_none, 1e-9)[:, None]
    cards = (ranks[:, :, None] * p_suit[:, None, :]).reshape(len(p_rank), 52)
    return cards, p_none


def vote(cards: np.ndarray, none: np.ndarray, temperature: float, *, dependence: float = 0.0
         ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """Combine the corners of each card: (N, C, 52) and (N, C) → best card id, posterior, P(index seen).

    Each corner votes with the log of its card probabilities, weighted by how sure it is that it
    shows an index at all, so a covered or blank corner abstains; corners that disagree pull the
    posterior down. ``temperature`` (fitted on synthetic data) calibrates the posterior.

    ``dependence`` (0..1, fitted with the temperature) says how far the corners of one card are
    one witness rather than several: both are printed in the same font, so a glyph that fools the
    model in one corner fools it in the other (a 6 read as 8 twice is not twice the evidence). The
    summed vote is divided by the corners' total weight to this power (never by less than 1, so a
    card seen by one corner is read as before): 0 counts them as independent, 1 takes their mean.
    """
    return verdicts(posteriors(cards, none, temperature, dependence=dependence), none)


def verdicts(posterior: np.ndarray, none: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """From :func:`posteriors` (N, 52) and the corners' P(no index) (N, C): best card id, its
    posterior, P(index seen) — what :func:`vote` answers."""
    best = posterior.argmax(axis=1)
    seen = 1.0 - np.prod(none, axis=1)
    return best, posterior[np.arange(len(best)), best], seen


def posteriors(cards: np.ndarray, none: np.ndarray, temperature: float, *, dependence: float = 0.0) -> np.ndarray:
    """The voted posterior over all 52 cards of each card (N, 52), as :func:`vote` weighs its corners."""
    if not 0.0 <= dependence <= 1.0:
        raise ValueError(f"dependence must be between 0 (independent corners) and 1 (one witness), got {dependence!r}")
    weight = 1.0 - none  # (N, C)
    witnesses = np.maximum(weight.sum(axis=1), 1.0) ** dependence  # (N,)
    score = (weight[:, :, None] * np.log(cards + 1e-6)).sum(axis=1) / (temperature * witnesses[:, None])
    out: np.ndarray = softmax(score)
    return out


HESITATION = 0.1
"""A corner that gives a rank other than its card's best this much hesitates over the card's rank."""


def rank_mass(cards: np.ndarray) -> np.ndarray:
    """Each corner's probability of each rank, its four suits together: ``cards`` (N, C, 52) → (N, C, 13)."""
    array = np.asarray(cards, np.float64)
    out: np.ndarray = array.reshape(*array.shape[:-1], 13, 4).sum(axis=-1)
    return out


def corner_ranks(cards: np.ndarray, none: np.ndarray, best: np.ndarray) -> np.ndarray:
    """Each card's highest probability of every rank but its best card's among the corners that see
    an index (P(no index) at most a half): ``cards`` (N, C, 52) each corner's probabilities, ``none``
    (N, C), ``best`` (N,) the voted best card ids → (N, 13). The vote of two corners printed alike
    can leave a rank one corner hesitated over far below what that corner gave it."""
    n = len(best)
    if not n:
        return np.zeros((0, 13))
    ranks = rank_mass(cards)
    ranks[np.arange(n), :, np.asarray(best, np.int64) // 4] = 0.0
    out: np.ndarray = np.where((np.asarray(none) <= 0.5)[..., None], ranks, 0.0).max(axis=1)
    return out
