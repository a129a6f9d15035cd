"""Which parts of the dashboard must never cover each other, and a check of a page's boxes.

The rule, for the page as a browser lays it out (bounding boxes in page coordinates):

- on the table, every *piece* is apart from every other: the seat boxes, the five board
  places (cards or empty slots), the dealer button, the pot, the status line ("Hand 3 is
  over"). A piece inside another piece (the dealer button in its seat's box) is part of it.
- on the page, the *blocks* are apart: the top bar, the blinds, the phase line, the table,
  each panel beside or below it (warnings, showdown, lens, pots, last hands, chart, ledger).
- nothing reaches past the right edge of the screen (a phone page that scrolls sideways).
- on a TV (nobody scrolls a TV), the whole table is on the screen: no piece below its bottom.

``boxes(page)`` reads the boxes from a Playwright page; ``overlaps(found)``, ``sideways(found)``
and ``below(found)`` say what breaks the rule, in words a failing test can print.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

PIECES = {
    "seat": "#seats .seat",
    "board": "#board > *",
    "dealer": ".dealer-btn",
    "pot": "#pot:not(:empty)",
    "status": "#status:not([hidden])",
}
"""The table's pieces: a name for each kind and the CSS selector of its elements."""

BLOCKS = {
    "top bar": "header.top",
    "blinds": "#blinds",
    "phase": "#phase",
    "table": ".table-wrap",
    "panel": ".side > .panel:not([hidden]), .side > #warnings:not(:empty)",
}
"""The page's blocks, each apart from every other."""

TOLERANCE = 0.5
"""Pixels two boxes may share (sub-pixel rounding of borders)."""

_READ = """
([pieces, blocks]) => {
  const out = [];
  const visible = (node) => {
    const r = node.getBoundingClientRect();
    const style = getComputedStyle(node);
    return r.width > 0 && r.height > 0 && style.visibility !== "hidden" && style.display !== "none";
  };
  const read = (group, kinds) => {
    for (const [kind, selector] of Object.entries(kinds)) {
      document.querySelectorAll(selector).forEach((node, i) => {
        if (!visible(node)) return;
        const r = node.getBoundingClientRect();
        node.dataset.layoutId = `${group}:${kind}:${i}`;
        const label = node.dataset.seat !== undefined ? ` (seat ${node.dataset.seat})` : "";
        out.push({ group, kind, id: `${group}:${kind}:${i}`, name: `${kind} ${i + 1}${label}`,
                   left: r.left + scrollX, top: r.top + scrollY,
                   right: r.right + scrollX, bottom: r.bottom + scrollY });
      });
    }
  };
  read("piece", pieces);
  read("block", blocks);
  const node = (box) => document.querySelector(`[data-layout-id="${box.id}"]`);
  for (const box of out) {  // which other boxes hold this one in the DOM
    box.inside = out.filter((o) => o !== box && node(o).contains(node(box))).map((o) => o.id);
  }
  return { boxes: out, width: innerWidth, height: innerHeight, scrollWidth: document.documentElement.scrollWidth };
}
"""


@dataclass(frozen=True)
class Box:
    """One element's box on the page, in CSS pixels."""

    group: str
    kind: str
    id: str
    name: str
    left: float
    top: float
    right: float
    bottom: float
    inside: tuple[str, ...] = ()

    def shared(self, other: Box) -> tuple[float, float]:
        """The width and height both boxes cover (0 or less: apart)."""
        return (min(self.right, other.right) - max(self.left, other.left),
                min(self.bottom, other.bottom) - max(self.top, other.top))  # fmt: skip


@dataclass(frozen=True)
class Layout:
    boxes: tuple[Box, ...]
    width: float
    """The viewport's width."""
    height: float
    """The viewport's height."""
    scroll_width: float
    """The page's width: more than ``width`` when the page scrolls sideways."""

    def of(self, kind: str) -> list[Box]:
        return [b for b in self.boxes if b.kind == kind]


def boxes(page: Any) -> Layout:
    """The boxes of every table piece and page block visible on ``page`` now."""
    data = page.evaluate(_READ, [PIECES, BLOCKS])
    found = tuple(Box(**{**b, "inside": tuple(b["inside"])}) for b in data["boxes"])
    return Layout(found, data["width"], data["height"], data["scrollWidth"])


def overlaps(layout: Layout, *, tolerance: float = TOLERANCE) -> list[str]:
    """Every pair of boxes of the same group that cover each other, e.g. ``"dealer 1 (seat 1)
    covers board 1 by 9x14 px"``; an empty list when the layout keeps the rule."""
    found = []
    items = layout.boxes
    for i, a in enumerate(items):
        for b in items[i + 1 :]:
            if a.group != b.group or a.id in b.inside or b.id in a.inside:
                continue
            w, h = a.shared(b)
            if w > tolerance and h > tolerance:
                found.append(f"{a.name} covers {b.name} by {w:.0f}x{h:.0f} px")
    return found


def sideways(layout: Layout, *, tolerance: float = TOLERANCE) -> list[str]:
    """Boxes that reach past the right edge of the screen, and the page's own overflow."""
    found = [f"{b.name} ends at x={b.right:.0f}, past the screen's {layout.width:.0f} px"
             for b in layout.boxes if b.right > layout.width + tolerance or b.left < -tolerance]  # fmt: skip
    if layout.scroll_width > layout.width + tolerance:
        found.append(f"the page is {layout.scroll_width:.0f} px wide on a {layout.width:.0f} px screen")
    return found


def below(layout: Layout, *, tolerance: float = TOLERANCE) -> list[str]:
    """Table pieces that end below the bottom of the screen (with the page scrolled to the top)."""
    return [f"{b.name} ends at y={b.bottom:.0f}, below the screen's {layout.height:.0f} px"
            for b in layout.boxes if b.group == "piece" and b.bottom > layout.height + tolerance]  # fmt: skip
