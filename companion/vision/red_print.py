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

import cv2
import numpy as np

from companion.vision.chips import CORNERS, ERODE, CellShape

INR_OF_CHIPS = 0.85  # a red chip's inner circle is this wide of the board's blue/green chips' ...
INR_OF_CELL = 0.66  # ... or of the cell's shorter side, with no blue or green chip to measure
DISC_AREA_MAX = 1.2  # a disc's area over its inner circle's (a blob this round is a disc)
NEAR_INR = 0.94  # ... and a blob nearly as wide as a chip (this share of the least) ...
NEAR_AREA_MAX = 1.45  # ... and about this round (a highlight or a bite at its rim) too
INK_INR = 0.9  # red this much narrower than a chip, and ...
INK_AREA_MIN = 1.3  # ... this much bigger than its inner circle: printing, read empty
REACH = 0.3  # of a cell looked at beyond each side (a chip off its cell's centre)
CHIP_SAMPLES = 8  # blue and green chips measured for the board's chip size, at most
RED_PRINT_CONF = 0.6  # what an empty reading from the shape alone claims
# printed red keeps clean edges (bold hearts: skin-coloured pixels over <= 0.006 of the cell);
# more is a bite out of a chip (fingers, a loose card's edge: 0.048 seen) or an orange chip
PRINT_SKIN_MAX = 0.03


def blob_inner_circle(mask: np.ndarray, r: int, c: int, shape: CellShape) -> tuple[float, float]:
    """``(diameter, area)`` in pixels of the largest circle inside the blob of ``mask`` (a 0/255
    grid image mask) that covers most of the middle of cell ``(r, c)``, with its holes (a
    chip's highlight) filled, and of the blob; ``(0, 0)`` when no blob reaches the middle.

    (The blob is picked by the middle of the cell, not by its outline: the gaps of a board
    printed in a chip's colour run around every cell, and the outline of their network
    encloses the cell's middle without covering it.)"""
    w, h = shape.w, shape.h
    x0, y0 = max(0, int(c * w - REACH * w)), max(0, int(r * h - REACH * h))
    x1 = min(mask.shape[1], int((c + 1) * w + REACH * w))
    y1 = min(mask.shape[0], int((r + 1) * h + REACH * h))
    count, labels = cv2.connectedComponents(np.ascontiguousarray(mask[y0:y1, x0:x1]))
    if count < 2:
        return 0.0, 0.0
    mx, my = round((c + 0.25) * w) - x0, round((r + 0.25) * h) - y0
    middle = labels[my : my + round(h / 2), mx : mx + round(w / 2)]
    votes = np.bincount(middle.ravel(), minlength=count)
    votes[0] = 0
    blob = int(votes.argmax())
    if votes[blob] == 0:
        return 0.0, 0.0
    contours, _ = cv2.findContours(
        (labels == blob).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE
    )
    filled = np.zeros((y1 - y0 + 2, x1 - x0 + 2), np.uint8)
    cv2.drawContours(filled, [contour + 1 for contour in contours], -1, 255, -1)
    radius = float(cv2.distanceTransform(filled, cv2.DIST_L2, 5).max())
    return 2 * radius, float(np.count_nonzero(filled))


def chip_width(eroded: np.ndarray, bg_cells: np.ndarray, shape: CellShape) -> float | None:
    """The median inner-circle diameter (pixels) of up to ``CHIP_SAMPLES`` blue or green chips
    (``bg_cells``, 10x10 bool) on ``eroded``, their colours' masks after the erosion by
    ``chips.ERODE`` (a board's red or brown gaps never join them there), with what the erosion
    took back; None when none shows."""
    cells = np.argwhere(bg_cells & ~CORNERS)[:CHIP_SAMPLES]
    widths = [blob_inner_circle(eroded, r, c, shape)[0] for r, c in cells]
    widths = [d + ERODE.shape[0] - 1 for d in widths if d > 0]
    return float(np.median(widths)) if widths else None


CHIP, PRINT, DOUBT = 0, 1, 2  # a red cell's shape: a chip's disc, printing, neither
SAME_RED = 0.02  # a cell whose red share moved less than this keeps its shape (a fixed camera)


def red_print(
    symbols: np.ndarray,
    red_mask: np.ndarray,
    bg_eroded: np.ndarray | None,
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
    ``bg_eroded``: the blue and green chips' eroded masks together (their size on this board),
    or None. ``bitten`` (10x10 bool): cells where glare or a hand may have taken a bite out of a
    chip's disc; their red is at most doubtful, never printing.

    ``memo`` (a dict kept with a located grid, ``chips.MeasureCache.red_shapes``) keeps the
    board's chip width and each cell's shape with its red share (``red_share``, 10x10): a cell
    whose share moved less than ``SAME_RED`` is not measured again (a fixed camera's frames).

    ``undecided`` (10x10 bool): cells left ``?`` only for a doubt between red printing and a
    chip; of them, those whose red is clearly printing are ``printed`` too (the others stay
    as they are)."""
    printed = np.zeros((10, 10), bool)
    doubtful = np.zeros((10, 10), bool)
    red = np.asarray(symbols) == "R"
    looked = red if undecided is None else red | undecided
    cells = np.argwhere(looked & red_cards & ~CORNERS)
    if not len(cells):
        return printed, doubtful
    memo = {} if memo is None else memo
    width = memo.get("width")
    if width is None and bg_eroded is not None:
        width = chip_width(bg_eroded, np.isin(symbols, ("B", "G")), shape)
        memo["width"] = width
    least = INR_OF_CHIPS * width if width else INR_OF_CELL * min(shape.w, shape.h)
    for r, c in cells:
        share = float(red_share[r, c]) if red_share is not None else None
        kept = memo.get((r, c))
        if kept is not None and share is not None and abs(kept[0] - share) < SAME_RED:
            verdict = kept[1]
        else:
            verdict = _shape(red_mask, r, c, shape, least)
            memo[(r, c)] = (share if share is not None else -1.0, verdict)
        # (without the board's own chips to measure, a chip smaller than usual against the
        # cell, a heart's edge joined to it, may look printed: never read empty then)
        if verdict == PRINT and width and not (bitten is not None and bitten[r, c]):
            printed[r, c] = True
        elif verdict != CHIP and red[r, c]:
            doubtful[r, c] = True
    return printed, doubtful


def _shape(red_mask: np.ndarray, r: int, c: int, shape: CellShape, least: float) -> int:
    """``CHIP``, ``PRINT`` or ``DOUBT``: what the red blob of cell ``(r, c)`` looks like, given
    the narrowest inner circle a red chip shows (``least``, pixels)."""
    diameter, area = blob_inner_circle(red_mask, r, c, shape)
    if diameter == 0:  # no red in the cell's middle: nothing to judge by its shape
        return DOUBT
    circle = np.pi * diameter * diameter / 4
    roundness = area / circle if circle else np.inf
    if diameter >= least or roundness <= DISC_AREA_MAX:
        return CHIP
    if diameter >= NEAR_INR * least and roundness <= NEAR_AREA_MAX:
        return CHIP
    if diameter < INK_INR * least and roundness >= INK_AREA_MIN:
        return PRINT
    return DOUBT
