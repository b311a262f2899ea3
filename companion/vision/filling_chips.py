"""Chips as big as their cells: one colour over a cell's whole inner part that is a chip.

``chips.classify`` leaves a cell `?` (``colour_everywhere``) when one chip colour covers all of
its inner part: a card back, a sleeve, a cloth lying there, for a chip never fills its cell.
On a board printed small for its chips (cards about as tall as a chip is wide) a chip does:
its disc reaches into the cell's border ring on all sides, and the chip colours of the chips
beside it then read as "the colour of the cover" (``cover_colour``) or as lying beside one
(``next_to_cover``), so one big chip leaves a cluster of clear chips `?`.

What tells such a chip from a cover is its shape: the colour's blob holds a circle as wide as
this board's chips (``chip_shapes.WIDE``: a cover's is wider, reaching across the cell and
beyond) centred on the cell, and leaves the cell's corners clear, as a disc does and a cover
lying over the whole inner part does not. A blob joined to a neighbour's chip is not round,
but its widest circle and the corners still are a chip's.

Measured on the independent renderer's 76 sets (27 frames with such a cell in their
reading): the 15 cells doubted for it that held a visible chip were doubted for nothing else,
their circles 0.96-1.08 of the chip width, 3 or 4 corners clear, 0.24-0.37 of the border ring
in the colour. The 36 cells doubted for it under the arm sets' sleeves were doubted for other
causes too (no card white, colour on the border or across the boundaries), their circles
1.21-2.22 chip widths, at most one corner clear, 0.66-1.0 of the ring in the colour.
"""

from __future__ import annotations

import numpy as np

from companion.vision.causes import held_only_by
from companion.vision.chip_shapes import WIDE, blob_circle, near_middle
from companion.vision.chips import CellShape
from companion.vision.colour import CHIP_SYMBOLS

FILLED = "colour_everywhere"  # the doubt looked at
CORNER_SIDE = 0.18  # of the cell's shorter side: the square looked at in each of its corners
CORNER_CLEAR = 0.3  # a corner square with less of the colour than this share is clear
CLEAR_CORNERS_MIN = 3  # a chip off its cell's centre covers one corner at most
FILLING_CONF = 0.8  # what a chip read so claims


def clear_corners(mask: np.ndarray, r: int, c: int, shape: CellShape) -> int:
    """How many of cell ``(r, c)``'s four corners (squares ``CORNER_SIDE`` of its shorter side)
    show less than ``CORNER_CLEAR`` of ``mask`` (a 0/255 grid image mask)."""
    w, h = shape.w, shape.h
    k = max(2, int(round(CORNER_SIDE * min(w, h))))
    y0, x0 = r * h, c * w
    clear = 0
    for y, x in ((y0, x0), (y0, x0 + w - k), (y0 + h - k, x0), (y0 + h - k, x0 + w - k)):
        clear += np.count_nonzero(mask[y : y + k, x : x + k]) < CORNER_CLEAR * k * k
    return clear


def filling_chips(
    symbols: np.ndarray,
    why: dict[str, np.ndarray],
    masks: dict[str, np.ndarray],
    shape: CellShape,
    width: float | None,
) -> np.ndarray:
    """The chips (10x10 symbols, ``""`` elsewhere; screen order) on cells left unknown only
    for one colour over the whole cell (``FILLED``) whose colour, as read before the doubt
    (``why["_read"]``), is a chip's: its blob (``masks``: the class masks of the grid image)
    holds a circle as wide as this board's chips (``width`` pixels, ``WIDE``) near the cell's
    middle, and at least ``CLEAR_CORNERS_MIN`` of the cell's corners are clear of it."""
    found = np.full((10, 10), "", dtype="<U1")
    before = why.get("_read")
    if not width or before is None:
        return found
    cells = (np.asarray(symbols) == "?") & np.isin(before, CHIP_SYMBOLS)
    if not cells.any():
        return found
    cells &= held_only_by(why, {FILLED})
    for r, c in np.argwhere(cells):
        sym = str(before[r, c])
        diameter, _, centre = blob_circle(masks[sym], r, c, shape)
        if (
            centre is not None
            and near_middle(centre, r, c, shape)
            and WIDE[0] * width <= diameter <= WIDE[1] * width
            and clear_corners(masks[sym], r, c, shape) >= CLEAR_CORNERS_MIN
        ):
            found[r, c] = sym
    return found
