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

from companion.vision.chips import CORNERS, CellShape
from companion.vision.colour import CHIP_SYMBOLS
from companion.vision.red_print import CHIP_SAMPLES, SAME_RED, blob_inner_circle

SOME_COLOUR = 0.1  # a cell with this much of a chip colour (before the erosion) is looked at
SOLID_SOME = 0.08  # ... a cell read empty only with this much left after the erosion (a chip
# a quarter of its cell keeps ~0.15; a card's thin pips ~0)
DISC_AREA = 1.25  # a blob's area over its inner circle's at most: a disc
AS_WIDE = 0.85  # ... and its inner circle this wide of the board's chips' at least
SMALL_CHIP_CONF = 0.6  # what a chip read by its shape alone claims
DOUBTS = frozenset({"pattern", "undecided"})  # the `?` such a chip gets (``chips.classify``)


def _disc(mask: np.ndarray, r: int, c: int, shape: CellShape) -> float:
    """The inner-circle diameter (pixels) of the blob over cell ``(r, c)``'s middle when it is
    a round disc; 0.0 otherwise."""
    diameter, area = blob_inner_circle(mask, r, c, shape)
    if diameter <= 0 or area > DISC_AREA * np.pi * diameter * diameter / 4:
        return 0.0
    return diameter


def board_chip_width(bg: np.ndarray, raw_bg: np.ndarray, shape: CellShape) -> float | None:
    """The median inner-circle diameter (pixels) of up to ``CHIP_SAMPLES`` round blue or green
    blobs (``bg``: the two class masks together) on the cells showing most blue or green
    (``raw_bg``, 10x10 shares), whatever those cells were read; None when none is round."""
    cells = np.argwhere((raw_bg >= SOME_COLOUR) & ~CORNERS).tolist()
    cells = sorted(cells, key=lambda rc: -raw_bg[rc[0], rc[1]])[:CHIP_SAMPLES]
    widths = [w for w in (_disc(bg, r, c, shape) for r, c in cells) if w]
    return float(np.median(widths)) if widths else None


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
    grid) keeps each cell's answer while its colour stays and its share of it moves less than
    ``red_print.SAME_RED``."""
    shares = np.stack([raw[s] for s in CHIP_SYMBOLS])
    top = shares.argmax(axis=0)
    share = shares.max(axis=0)
    look = candidates & ~CORNERS & (share >= SOME_COLOUR)
    memo = {} if memo is None else memo
    if "small_share" not in memo:  # per cell: the share, colour and answer last measured
        memo.update(
            small_share=np.full((10, 10), -1.0),
            small_top=np.full((10, 10), -1),
            small=np.zeros((10, 10), bool),
        )
    kept_share, kept_top, found = memo["small_share"], memo["small_top"], memo["small"]
    fresh = look & ((np.abs(share - kept_share) >= SAME_RED) | (top != kept_top))
    for r, c in np.argwhere(fresh):
        sym = CHIP_SYMBOLS[top[r, c]]
        found[r, c] = _disc(masks[sym], r, c, shape) >= AS_WIDE * width
        kept_share[r, c], kept_top[r, c] = share[r, c], top[r, c]
    read = look & found
    if not read.any():  # (most frames: nothing to add, and nothing to build)
        return None
    return np.where(read, np.array(CHIP_SYMBOLS)[top], "")
