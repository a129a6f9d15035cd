"""The two small CNNs (torch): the index-corner reader and the face-up/face-down card model."""

from __future__ import annotations

import torch
from torch import nn

from vision.classify import NO_INDEX

EMBEDDING = 64


def _conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    conv = nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False)
    return nn.Sequential(conv, nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class CornerNet(nn.Module):
    """Reads one index crop (2 × 64 × 32): rank logits (13 ranks + "no index"), suit logits, embedding."""

    def __init__(self, widths: tuple[int, int, int, int] = (16, 32, 64, 64)) -> None:
        super().__init__()
        a, b, c, d = widths
        self.features = nn.Sequential(
            _conv(2, a, stride=2),
            _conv(a, b), nn.MaxPool2d(2),
            _conv(b, c), nn.MaxPool2d(2),
            _conv(c, d),
        )  # fmt: skip
        self.embed = nn.Sequential(nn.Linear(2 * d, EMBEDDING), nn.ReLU(inplace=True))
        self.dropout = nn.Dropout(0.1)
        self.rank = nn.Linear(EMBEDDING, NO_INDEX + 1)
        self.suit = nn.Linear(EMBEDDING, 4)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        f = self.features(x)
        pooled = torch.cat([f.mean(dim=(2, 3)), f.amax(dim=(2, 3))], dim=1)
        e = self.embed(pooled)
        d = self.dropout(e)
        return self.rank(d), self.suit(d), e


class CornerEnsemble(nn.Module):
    """Several corner readers in one graph: logits stacked on a leading member axis."""

    def __init__(self, members: list[CornerNet]) -> None:
        super().__init__()
        self.members = nn.ModuleList(members)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        outs = [m(x) for m in self.members]
        rank = torch.stack([o[0] for o in outs])
        suit = torch.stack([o[1] for o in outs])
        embedding = torch.cat([nn.functional.normalize(o[2], dim=1) for o in outs], dim=1)
        return rank, suit, embedding


class CardNet(nn.Module):
    """Tells a face from a back on a whole-card thumbnail (3 × 50 × 36); also gives an embedding."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            _conv(3, 12), nn.MaxPool2d(2),
            _conv(12, 24), nn.MaxPool2d(2),
            _conv(24, 48), nn.MaxPool2d(2),
            _conv(48, 48),
        )  # fmt: skip
        self.embed = nn.Sequential(nn.Linear(96, 32), nn.ReLU(inplace=True))
        self.face = nn.Linear(32, 2)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        f = self.features(x)
        e = self.embed(torch.cat([f.mean(dim=(2, 3)), f.amax(dim=(2, 3))], dim=1))
        return self.face(e), e
