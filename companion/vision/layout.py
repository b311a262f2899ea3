"""The classic board's red/black ink pattern and its picture cards: the layout knowledge vision
needs.

Vision knows no rules; it only needs to know which cells print a red suit (hearts, diamonds) and
which a black one (spades, clubs) to tell which edge of the board is canonical row 1. The pattern
below is the classic Jax grid of RULES.md §1.3 reduced to ink colours. It is not symmetric under
any rotation (the correlation of the pattern with its own 90/180/270 rotations is 4, -48 and 4 out
of 96), so it identifies the orientation on any board art that prints red and black suits.

The kings and queens are the cells where a board of miniature playing cards prints a face: skin
colour that is the board's own, not a hand's (a rank-and-suit board prints none there).
"""

from __future__ import annotations

import functools

import numpy as np

from companion.classic import CLASSIC_LAYOUT
from companion.vision.geometry import to_screen_grid

# r = red suit, k = black suit, * = free corner.  Row 1 first, column A first.
CLASSIC_INK = (
    "*kkkkkkkk*",
    "kkkkkrrrrk",
    "kkrrrrrrrk",
    "kkkkkkkrrk",
    "kkkrrrrrrk",
    "kkkrrrrrrr",
    "kkkrrrrrrr",
    "kkkkkkrrrr",
    "kkkkkkkrrr",
    "*rrrrrrrr*",
)


# f = a king or queen (a picture card), * = free corner, . = any other card.  Row 1 first.
CLASSIC_FACES = (
    "*........*",
    "......ff..",
    ".........f",
    ".f.......f",
    ".f........",
    "......f...",
    "f.....ff..",
    "f..ff..f..",
    "..........",
    "*.ff.....*",
)


def ink_sign(pattern: tuple[str, ...] = CLASSIC_INK) -> np.ndarray:
    """10x10 float array: +1 red suit, -1 black suit, 0 free corner."""
    return np.array(
        [[{"r": 1.0, "k": -1.0, "*": 0.0}[ch] for ch in row] for row in pattern], dtype=np.float32
    )


def ink_from_layout(layout: list[list[str]]) -> tuple[str, ...]:
    """Reduce a card layout (10 rows of codes such as ``"7S"``, ``"W"`` for a corner) to ink."""
    rows = []
    for row in layout:
        chars = []
        for code in row:
            code = str(code).upper()
            if code in ("W", "*", "FREE", "CORNER") or not code:
                chars.append("*")
            elif code[-1] in "HD":
                chars.append("r")
            elif code[-1] in "SC":
                chars.append("k")
            else:
                raise ValueError(f"unknown card code {code!r} in board layout")
        rows.append("".join(chars))
    if len(rows) != 10 or any(len(r) != 10 for r in rows):
        raise ValueError("a board layout must be 10 rows of 10 cells")
    return tuple(rows)


@functools.cache
def face_cells(pattern: tuple[str, ...] = CLASSIC_FACES, orientation: int = 0) -> np.ndarray:
    """10x10 bool (read-only): the picture cards (kings, queens) as they lie on screen when the
    layout is turned ``orientation`` degrees clockwise (0, 90, 180, 270). (Kept per layout and
    turn: a fixed camera's reading asks for the same cells every frame.)"""
    faces = np.array([[ch == "f" for ch in row] for row in pattern], dtype=bool)
    return _read_only(to_screen_grid(faces, orientation))


def faces_from_layout(layout: list[list[str]]) -> tuple[str, ...]:
    """Reduce a card layout (10 rows of codes such as ``"KS"``, ``"W"`` for a corner) to its
    picture cards (``f``), free corners (``*``) and other cards (``.``)."""
    ink = ink_from_layout(layout)  # checks the layout's shape and codes
    return tuple(
        "".join(
            "*" if mark == "*" else ("f" if str(code).upper()[:1] in "KQ" else ".")
            for code, mark in zip(row, ink_row, strict=True)
        )
        for row, ink_row in zip(layout, ink, strict=True)
    )


@functools.cache
def black_suit_cells(pattern: tuple[str, ...] = CLASSIC_INK, orientation: int = 0) -> np.ndarray:
    """10x10 bool (read-only, kept like :func:`face_cells`): the cells printing a black suit
    (spades, clubs) as they lie on screen when the layout is turned ``orientation`` degrees
    clockwise."""
    black = np.array([[ch == "k" for ch in row] for row in pattern], dtype=bool)
    return _read_only(to_screen_grid(black, orientation))


def _read_only(cells: np.ndarray) -> np.ndarray:
    """A copy of ``cells`` that cannot be written to (it is handed to every caller)."""
    cells = cells.copy()
    cells.setflags(write=False)
    return cells


@functools.cache
def no_red_cells(orientation: int) -> np.ndarray:
    """10x10 bool (read-only): the classic layout's cards that print no red at all, a black
    suit's pip cards (no picture), as they lie on screen when the layout is turned
    ``orientation`` degrees clockwise."""
    return _read_only(
        black_suit_cells(orientation=orientation) & ~face_cells(orientation=orientation)
    )


@functools.cache
def red_ace_cells(orientation: int) -> np.ndarray:
    """10x10 bool (read-only): the classic layout's aces of hearts and diamonds (each prints one
    big red pip, which may be as wide and round as a chip), as they lie on screen when the
    layout is turned ``orientation`` degrees clockwise."""
    aces = np.array([[code in ("AH", "AD") for code in row] for row in CLASSIC_LAYOUT])
    return _read_only(to_screen_grid(aces, orientation))
