"""Boards of other games for board-free frames: the companion must not take them for Sequence.

A table in a games café holds more than one game. These boards share what a Sequence board
has (a square grid, round pieces, red and black print) without being one, so they test that
the vision reports no board rather than a made-up game:

- ``draughts``: international draughts, 10x10 squares (the same grid as Sequence) with pieces;
- ``chess``: 8x8 squares with round pieces seen from above;
- ``go``: 19x19 lines on wood with black and white stones;
- ``hundred``: a classroom hundred chart, a 10x10 grid of numbers printed in red and black with
  blue, green and red counters on it: Sequence's grid, ink colours and chip colours, but no cards.

``other_game_texture(kind, rng)`` returns the board as a BGR texture, to be laid on the table
like a Sequence board.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.render.chips import CHIP_COLORS, chip_sprite, paste_chip
from companion.render.spec import OTHER_GAMES

_CELL = 40  # texture pixels per square


def _framed(cells: int, cell: int, border: float, frame_color) -> tuple[np.ndarray, int]:
    pad = round(border * cell)
    size = cells * cell + 2 * pad
    return np.full((size, size, 3), frame_color, np.uint8), pad


def _pieces(img, centres, colors, diameter: int, rng, share: float) -> None:
    for cx, cy in centres:
        if rng.random() < share:
            color = colors[int(rng.integers(0, len(colors)))]
            jitter = rng.normal(0, 0.04 * diameter, 2)
            sprite = chip_sprite(color, diameter, int(rng.integers(0, 360)))
            paste_chip(img, (cx + jitter[0], cy + jitter[1]), sprite)


def _checkered(cells: int, rng, light, dark, frame_color, piece_colors, share) -> np.ndarray:
    img, pad = _framed(cells, _CELL, 0.6, frame_color)
    for r in range(cells):
        for c in range(cells):
            color = light if (r + c) % 2 == 0 else dark
            x, y = pad + c * _CELL, pad + r * _CELL
            img[y : y + _CELL, x : x + _CELL] = color
    # pieces stand on the dark squares (draughts) or anywhere (chess)
    centres = [
        (pad + (c + 0.5) * _CELL, pad + (r + 0.5) * _CELL)
        for r in range(cells)
        for c in range(cells)
        if cells == 8 or (r + c) % 2 == 1
    ]
    _pieces(img, centres, piece_colors, round(0.8 * _CELL), rng, share)
    return img


def _go(rng) -> np.ndarray:
    step = 28
    img, pad = _framed(18, step, 0.8, (96, 170, 214))
    grain = rng.normal(0, 6, img.shape[:2]).astype(np.float32)
    grain = cv2.GaussianBlur(grain, (0, 0), sigmaX=12, sigmaY=1)
    img = np.clip(img + grain[..., None], 0, 255).astype(np.uint8)
    for i in range(19):
        p = pad + i * step
        cv2.line(img, (pad, p), (pad + 18 * step, p), (30, 30, 30), 1, cv2.LINE_AA)
        cv2.line(img, (p, pad), (p, pad + 18 * step), (30, 30, 30), 1, cv2.LINE_AA)
    centres = [(pad + c * step, pad + r * step) for r in range(19) for c in range(19)]
    _pieces(img, centres, [(25, 25, 25), (235, 235, 235)], round(0.95 * step), rng, 0.3)
    return img


def _hundred(rng) -> np.ndarray:
    img, pad = _framed(10, _CELL, 0.5, (235, 240, 242))
    font = cv2.FONT_HERSHEY_SIMPLEX
    for r in range(10):
        for c in range(10):
            x, y = pad + c * _CELL, pad + r * _CELL
            cv2.rectangle(img, (x, y), (x + _CELL, y + _CELL), (40, 40, 40), 1)
            n = r * 10 + c + 1
            ink = (40, 40, 200) if (n % 2 == 0) == bool(r % 2) else (30, 30, 30)
            text = str(n)
            (tw, th), _ = cv2.getTextSize(text, font, 0.45, 1)
            org = (x + (_CELL - tw) // 2, y + (_CELL + th) // 2)
            cv2.putText(img, text, org, font, 0.45, ink, 1, cv2.LINE_AA)
    centres = [
        (pad + (c + 0.5) * _CELL, pad + (r + 0.5) * _CELL) for r in range(10) for c in range(10)
    ]
    _pieces(img, centres, list(CHIP_COLORS.values()), round(0.75 * _CELL), rng, 0.35)
    return img


# squares per side, light and dark squares, frame, piece colours, share of places with a piece
_CHECKERED = {
    "draughts": (
        10,
        (200, 222, 236),
        (40, 70, 120),
        (30, 50, 90),
        [(30, 30, 30), (225, 230, 235)],
        0.6,
    ),
    "chess": (
        8,
        (180, 214, 238),
        (70, 110, 160),
        (40, 60, 90),
        [(30, 30, 30), (220, 228, 235)],
        0.4,
    ),
}


def other_game_texture(kind: str, rng: np.random.Generator) -> np.ndarray:
    """BGR texture of another game's board with pieces on it."""
    if kind in _CHECKERED:
        cells, light, dark, frame, pieces, share = _CHECKERED[kind]
        return _checkered(cells, rng, light, dark, frame, pieces, share)
    if kind == "go":
        return _go(rng)
    if kind == "hundred":
        return _hundred(rng)
    raise ValueError(f"other game must be one of {OTHER_GAMES}, not {kind!r}")
