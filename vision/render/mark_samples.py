"""Marked backs for the mark reader's tests and benchmark: stickers at any angle, camera-like shots.

:func:`render_scene` draws Tock backs with the sticker upright on the card; a real sticker can
be stuck at any angle. :func:`sticker_back` turns the sticker on the back, and
:func:`card_shot` puts one card in a small camera-like frame (table, any rotation, a little
perspective, light, blur, noise, JPEG), returning the frame and the card's corners in it.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from vision.render.faces import FACE_H, FACE_W, DeckStyle, draw_tock_mark, render_back


@functools.lru_cache(maxsize=256)
def _disc_mask(mark: str) -> np.ndarray:
    """Where the sticker covers a back (bool FACE_H × FACE_W): the marked back differs there."""
    black = np.zeros((FACE_H, FACE_W, 3), np.float32)
    white = np.full((FACE_H, FACE_W, 3), 255.0, np.float32)
    draw_tock_mark(black, mark)
    draw_tock_mark(white, mark)
    changed = (np.abs(black - white).max(axis=2) < 250).astype(np.uint8)
    ys, xs = np.nonzero(changed)
    radius = float(np.hypot(xs - FACE_W // 2, ys - FACE_H // 2).max()) + 1.0
    yy, xx = np.mgrid[0:FACE_H, 0:FACE_W]
    mask: np.ndarray = np.hypot(xx - FACE_W // 2, yy - FACE_H // 2) <= radius
    return mask


def sticker_back(style: DeckStyle, mark: str | None, *, angle: float = 0.0) -> np.ndarray:
    """The back of a card in ``style`` (BGRA) with the Tock sticker for ``mark`` turned by
    ``angle`` degrees about its centre (None: an unmarked back)."""
    plain = np.array(render_back(style, None))
    if mark is None:
        return plain
    marked = np.array(render_back(style, mark))
    turn = cv2.getRotationMatrix2D((FACE_W // 2, FACE_H // 2), angle, 1.0)
    turned = cv2.warpAffine(marked, turn, (FACE_W, FACE_H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    disc = _disc_mask(mark)
    plain[disc, :3] = turned[disc, :3]
    return plain


def card_shot(card: np.ndarray, rng: np.random.Generator, *, height: float = 150.0) -> tuple[np.ndarray, np.ndarray]:
    """One card (BGRA, upright) as a camera sees it from above: a frame about 2.2 card heights
    wide on a random table colour, the card ``height`` pixels tall at a random angle with up to
    3 % perspective, uneven light and tint, blur, noise and JPEG. Returns (frame BGR, corners 4×2)."""
    side = int(height * 2.2)
    table = rng.integers(20, 200, 3).astype(np.float32)
    frame = np.empty((side, side, 3), np.float32)
    frame[:] = table
    angle = rng.uniform(0, 2 * np.pi)
    w = height * FACE_W / FACE_H
    local = np.array([[-w / 2, -height / 2], [w / 2, -height / 2], [w / 2, height / 2], [-w / 2, height / 2]])
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    corners = local @ turn.T + side / 2 + rng.uniform(-0.05, 0.05, 2) * side
    corners += rng.uniform(-0.03, 0.03, (4, 2)) * height
    src = np.array([[0, 0], [FACE_W, 0], [FACE_W, FACE_H], [0, FACE_H]], np.float32)
    matrix = cv2.getPerspectiveTransform(src, corners.astype(np.float32))
    warped = cv2.warpPerspective(card.astype(np.float32), matrix, (side, side), flags=cv2.INTER_AREA)
    alpha = warped[..., 3:] / 255.0
    frame = warped[..., :3] * alpha + frame * (1 - alpha)
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float32) / side - 0.5
    direction = rng.uniform(0, 2 * np.pi)
    light = rng.uniform(0.6, 1.15) * (1 + rng.uniform(0, 0.4) * (xx * np.cos(direction) + yy * np.sin(direction)))
    tint = np.array([rng.uniform(0.82, 1.08), 1.0, rng.uniform(0.92, 1.15)], np.float32)
    frame = frame * light[..., None] * tint
    blur = float(rng.choice([0.0, rng.uniform(0.3, 1.3)], p=[0.3, 0.7]))
    if blur:
        frame = cv2.GaussianBlur(frame, (0, 0), blur)
    frame += rng.normal(0, rng.uniform(1.0, 5.0), frame.shape).astype(np.float32)
    image = np.clip(frame, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(55, 96))])
        if ok:
            image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return image, corners
