"""Chips small against their cells: a round disc as wide as the board's other chips.

The reading's shares assume a chip covers most of its cell (0.8 of its shorter side, as on the
boards we know). A board printed large for its chips (a home-made board on a big sheet, cells
wide for the chips) leaves a chip a quarter of its cell: too little of it survives the erosion
for a chip, a blue or green one then reads as a card back's pattern or undecided, and a red one
among a card's red pips as printing (60 frames with chips 0.6 of the cell's shorter side: 101
red chips read empty, 518 blue and green ones `?`). Its shape still tells: one round blob (its
area that of its largest inner circle, holes filled) as wide as the board's chips, measured on
the round blue and green blobs wherever they show (no board prints those colours). Printed
hearts and diamonds are neither round (area 1.3-2.4x their inner circle) nor, as printed on
cards, as wide as a chip.
"""

from __future__ import annotations

import numpy as np

from companion.vision.chip_shapes import SOME_COLOUR, disc_width, kept
from companion.vision.chips import CORNERS, CellShape
from companion.vision.colour import CHIP_SYMBOLS

SOLID_SOME = 0.08  # a cell read empty is looked at with this much chip colour left after the
# erosion (a chip a quarter of its cell keeps ~0.15; a card's thin pips ~0)
AS_WIDE = 0.85  # a round disc (``chip_shapes.ROUND_MAX``) this wide of the board's chips
SMALL_CHIP_CONF = 0.6  # what a chip read by its shape alone claims
DOUBTS = frozenset({"pattern", "undecided"})  # the `?` such a chip gets (``chips.classify``)


def small_chips(
    candidates: np.ndarray,
    raw: dict[str, np.ndarray],
    masks: dict[str, np.ndarray],
    width: float,
    shape: CellShape,
    memo: dict | None = None,
) -> np.ndarray | None:
    """Symbols (10x10, ``""`` elsewhere; None when there is none) of the ``candidates`` (10x10 bool) whose strongest
    chip colour (``raw`` shares) is a round disc at least ``AS_WIDE`` as wide as ``width``
    (``masks``: the grid image's class mask of each colour). ``memo`` (kept with a located
    grid) keeps each cell's answer (``chip_shapes.kept``)."""
    shares = np.stack([raw[s] for s in CHIP_SYMBOLS])
    top = shares.argmax(axis=0)
    share = shares.max(axis=0)
    look = candidates & ~CORNERS & (share >= SOME_COLOUR)
    found = kept(
        {} if memo is None else memo,
        "small_chips",
        look,
        share,
        top,
        lambda r, c: disc_width(masks[CHIP_SYMBOLS[top[r, c]]], r, c, shape) >= AS_WIDE * width,
    )
    read = look & (found > 0)
    if not read.any():  # (most frames: nothing to add, and nothing to build)
        return None
    return np.where(read, np.array(CHIP_SYMBOLS)[top], "")
