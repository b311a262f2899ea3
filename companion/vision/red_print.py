"""Red printing as big as a chip: a bold heart or diamond is not a round disc.

Home-made boards print one big suit symbol per cell, and where the cells are narrow (portrait
cards, a mat) a heart or a diamond is as wide as a chip: it survives every erosion that tells thin
printing from a solid disc, and is read as a red chip. Its shape still tells it apart. A chip's
red is a disc: its area is that of the largest circle inside it (a ratio near 1, more only where
pips or a neighbour's chip touch it), and that circle is as wide as the board's blue and green
chips' (never printed, so surely chips). A heart's or a diamond's largest inner circle is much
narrower than the symbol is wide, and its area is 1.4-2 times that circle's.

Only cells read red on cards printed red are looked at (on a black suit's card red is always a
chip), so a reading costs ~20 us per such cell. Measured on the red blob of the cell's grid
image (``chips.CellFeatures.ink_masks["R"]``), holes (a chip's highlight) filled:

- 3,000 red chips on seven sets (text, cards, mat; landscape and portrait cells; late games):
  inscribed diameter >= 0.67 of the cell's shorter side (1st percentile), area/circle <= 1.3
  (95th percentile on text and mat; merged with pips on cards: up to 2.6, with the inner
  circle of a whole chip).
- 1,000 bold hearts and diamonds read as chips (suits 0.68 of the cell wide; portrait cells):
  inscribed diameter 0.42-0.67, area/circle >= 1.30.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

from companion.vision.chip_shapes import (
    AS_WIDE,
    NEAR_ROUND_MAX,
    ROUND_DISC,
    WIDE_DISC,
    blob_inner_circle,
    chip_disc,
    kept,
    roundness,
)
from companion.vision.chips import CORNERS, CellShape

INR_OF_CHIPS = AS_WIDE  # a red chip's inner circle is this wide of the board's B/G chips' ...
INR_OF_CELL = 0.66  # ... or of the cell's shorter side, with no blue or green chip to measure
DISC_AREA_MAX = 1.2  # a disc's area over its inner circle's (a blob this round is a disc)
NEAR_INR = 0.94  # ... and a blob nearly as wide as a chip (this share of the least) ...
NEAR_AREA_MAX = NEAR_ROUND_MAX  # ... and about this round (a highlight's bite at its rim) too
INK_INR = 0.9  # red this much narrower than a chip, and ...
INK_AREA_MIN = 1.3  # ... this much bigger than its inner circle: printing, read empty
RED_PRINT_CONF = 0.6  # what an empty reading from the shape alone claims
# printed red keeps clean edges (bold hearts: skin-coloured pixels over <= 0.006 of the cell);
# more is a bite out of a chip (fingers, a loose card's edge: 0.048 seen) or an orange chip
PRINT_SKIN_MAX = 0.03


CHIP, PRINT, DOUBT = 0, 1, 2  # a red cell's shape: a chip's disc, printing, neither
# red read as printing over this much of its cell (before the erosion) may be a chip ...
INK_CHIP_RED_MIN = 0.25
INK_CHIP_CONF = 0.6  # ... read as a chip by its shape: less than a chip seen whole claims


def red_print(
    symbols: np.ndarray,
    red_mask: np.ndarray,
    width: float | None,
    red_cards: np.ndarray,
    shape: CellShape,
    bitten: np.ndarray | None = None,
    memo: dict | None = None,
    red_share: np.ndarray | None = None,
    undecided: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """``(printed, doubtful)``: of the cells read ``R`` (``symbols``, screen order) on cards
    printed red (``red_cards``), those whose red (``red_mask``, the grid image's red class) is
    no chip's disc: clearly printing (read empty) or neither (read unknown). 10x10 bool each.
    ``width``: this board's chip width (``chip_shapes.board_chip_width``), or None.
    ``bitten`` (10x10 bool): cells where glare or a hand may have taken a bite out of a chip's
    disc; their red is at most doubtful, never printing.

    ``memo`` (a dict kept with a located grid, ``chips.MeasureCache.red_shapes``) keeps each
    cell's shape with its red share (``red_share``, 10x10; ``chip_shapes.kept``).

    ``undecided`` (10x10 bool): cells left ``?`` only for a doubt between red printing and a
    chip; of them, those whose red is clearly printing are ``printed`` too (the others stay
    as they are)."""
    red = np.asarray(symbols) == "R"
    looked = (red if undecided is None else red | undecided) & red_cards & ~CORNERS
    if not looked.any():
        return np.zeros((10, 10), bool), np.zeros((10, 10), bool)
    least = INR_OF_CHIPS * width if width else INR_OF_CELL * min(shape.w, shape.h)
    share = np.zeros((10, 10)) if red_share is None else red_share
    verdict = kept(
        memo,
        "red_print",
        looked,
        share,
        0,
        lambda r, c: _shape(red_mask, r, c, shape, least),
    )
    # (without the board's own chips to measure, a chip smaller than usual against the cell,
    # a heart's edge joined to it, may look printed: never read empty then)
    printed = looked & (verdict == PRINT) & bool(width)
    if bitten is not None:
        printed &= ~bitten
    doubtful = looked & red & (verdict != CHIP) & ~printed
    return printed, doubtful


def _shape(red_mask: np.ndarray, r: int, c: int, shape: CellShape, least: float) -> int:
    """``CHIP``, ``PRINT`` or ``DOUBT``: what the red blob of cell ``(r, c)`` looks like, given
    the narrowest inner circle a red chip shows (``least``, pixels)."""
    diameter, area = blob_inner_circle(red_mask, r, c, shape)
    if diameter == 0:  # no red in the cell's middle: nothing to judge by its shape
        return DOUBT
    round_ = roundness(diameter, area)
    if diameter >= least or round_ <= DISC_AREA_MAX:
        return CHIP
    if diameter >= NEAR_INR * least and round_ <= NEAR_AREA_MAX:
        return CHIP
    if diameter < INK_INR * least and round_ >= INK_AREA_MIN:
        return PRINT
    return DOUBT


def chips_read_as_ink(
    ink: np.ndarray,
    red_share: np.ndarray,
    red_top: np.ndarray,
    red_mask: np.ndarray,
    width: float | None,
    no_red: np.ndarray,
    aces: np.ndarray,
    shape: CellShape,
    memo: dict | None = None,
    loose_mask: Callable[[], np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """``(chips, doubtful)`` (10x10 bool each): of the cells read empty as printed red ink
    (``ink``, screen order) with red over ``INK_CHIP_RED_MIN`` of the cell (``red_share``) and
    red their strongest chip colour (``red_top``), on any card but the aces of hearts and
    diamonds (``aces``: one big red pip), those whose red blob (``red_mask``) is a red chip's
    disc, and the others on a card that prints no red (``no_red``), unknown.

    A chip dark or brownish in dim or warm light, or holed by its highlight, small in the
    frame, keeps too little of its red class through the erosion and reads as bold printing.
    Where no red is printed (a black suit's pip card) that red is something lying on the card:
    a chip when its blob is a round disc as wide as a chip's (``chip_shapes.chip_disc``'s
    ``ROUND_DISC``, against this board's chip ``width``), else unknown (a board's red gaps seen
    in a cell of a grid a little off fill its middle with red too, but not as a disc). On
    another card only a disc clearly as wide as a chip and about as round (``WIDE_DISC``) is a
    chip: no printing but an ace's one big pip measures so (a cards art's: 0.94 of the width,
    1.33-1.40x its circle); the rest stays printing, unless red's hues at the chip colours'
    least saturation (``loose_mask``: a callable making that 0/255 mask, with the orange-red
    hues) make a disc both round and as wide as a chip there: a rust-red chip keeps only part
    of its red class (its paler orange half is neither red nor skin), while printing keeps
    its shape in those hues too (unknown then)."""
    look = ink & (red_share >= INK_CHIP_RED_MIN) & red_top & ~aces & ~CORNERS
    if not look.any() or not width:  # (no chip of the board's own to measure a disc against)
        return np.zeros_like(look), look & no_red
    found = kept(
        memo,
        "chips_read_as_ink",
        look,
        red_share,
        0,
        lambda r, c: chip_disc(red_mask, r, c, shape, width),
    )
    chips = look & np.where(no_red, (found & (ROUND_DISC | WIDE_DISC)) > 0, (found & WIDE_DISC) > 0)
    doubtful = look & no_red & ~chips
    printed = look & ~no_red & ~chips
    if loose_mask is not None and printed.any():
        loose = functools.cache(loose_mask)  # (made only for a cell the memo has no answer for)
        disc = kept(
            memo,
            "chips_read_as_ink_loose",
            printed,
            red_share,
            0,
            lambda r, c: chip_disc(loose(), r, c, shape, width),
        )
        doubtful |= printed & (disc == (ROUND_DISC | WIDE_DISC))
    return chips, doubtful
