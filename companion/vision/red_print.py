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
INK_INR = 0.9  # red this much narrower than a chip, and ...
INK_AREA_MIN = 1.3  # ... this much bigger than its inner circle: printing, read empty
REACH = 0.3  # of a cell looked at beyond each side (a chip off its cell's centre)
CHIP_SAMPLES = 8  # blue and green chips measured for the board's chip size, at most
RED_PRINT_CONF = 0.6  # what an empty reading from the shape alone claims


def blob_inner_circle(mask: np.ndarray, r: int, c: int, shape: CellShape) -> tuple[float, float]:
    """``(diameter, area)`` in pixels of the largest circle inside the blob of ``mask`` (a 0/255
    grid image mask) nearest cell ``(r, c)``'s centre, with its holes filled, and the blob's
    area; ``(0, 0)`` when no blob reaches the cell's middle."""
    w, h = shape.w, shape.h
    x0, y0 = max(0, int(c * w - REACH * w)), max(0, int(r * h - REACH * h))
    x1 = min(mask.shape[1], int((c + 1) * w + REACH * w))
    y1 = min(mask.shape[0], int((r + 1) * h + REACH * h))
    contours, _ = cv2.findContours(
        np.ascontiguousarray(mask[y0:y1, x0:x1]), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE
    )
    centre = ((c + 0.5) * w - x0, (r + 0.5) * h - y0)
    best, best_d = None, 0.5 * min(w, h)
    for contour in contours:
        x, y, bw, bh = cv2.boundingRect(contour)
        d = max(x - centre[0], centre[0] - x - bw, y - centre[1], centre[1] - y - bh, 0.0)
        if d < best_d or (d == best_d == 0 and best is not None and len(contour) > len(best)):
            best, best_d = contour, d
    if best is None:
        return 0.0, 0.0
    filled = np.zeros((y1 - y0 + 2, x1 - x0 + 2), np.uint8)
    cv2.drawContours(filled, [best + 1], -1, 255, -1)
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


def red_print(
    symbols: np.ndarray,
    red_mask: np.ndarray,
    bg_eroded: np.ndarray | None,
    red_cards: np.ndarray,
    shape: CellShape,
) -> tuple[np.ndarray, np.ndarray]:
    """``(printed, doubtful)``: of the cells read ``R`` (``symbols``, screen order) on cards
    printed red (``red_cards``), those whose red (``red_mask``, the grid image's red class) is
    no chip's disc: clearly printing (read empty) or neither (read unknown). 10x10 bool each.
    ``bg_eroded``: the blue and green chips' eroded masks together (their size on this board),
    or None."""
    printed = np.zeros((10, 10), bool)
    doubtful = np.zeros((10, 10), bool)
    cells = np.argwhere((np.asarray(symbols) == "R") & red_cards & ~CORNERS)
    if not len(cells):
        return printed, doubtful
    width = None
    if bg_eroded is not None:
        width = chip_width(bg_eroded, np.isin(symbols, ("B", "G")), shape)
    least = INR_OF_CHIPS * width if width else INR_OF_CELL * min(shape.w, shape.h)
    for r, c in cells:
        diameter, area = blob_inner_circle(red_mask, r, c, shape)
        circle = np.pi * diameter * diameter / 4
        roundness = area / circle if circle else np.inf
        if diameter >= least or roundness <= DISC_AREA_MAX:
            continue
        if diameter < INK_INR * least and roundness >= INK_AREA_MIN:
            printed[r, c] = True
        else:
            doubtful[r, c] = True
    return printed, doubtful
