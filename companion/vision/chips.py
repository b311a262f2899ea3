"""Read the chips of 100 cells from a straightened grid image.

The grid image is the playing area warped to 10x10 square cells of ``CELL`` pixels, in screen
order (row 0 = top of the image). A chip is a disc of one colour *inside* one cell: after an
erosion that removes printed strokes, its colour still covers a good part of the cell, while the
cell's border ring stays mostly free. A hand, an arm or a sleeve covers the ring as well, and glare
washes a chip out; both make the cell unknown (``?``) instead of a guess.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.colour import CHIP_SYMBOLS, ColourProfile, balance, colour_masks, white_gains

CELL = 24  # pixels per cell side in the grid image
INNER = 3  # pixels of each cell's border treated as its ring
CHIP_MIN = 0.16  # eroded chip-colour fraction of the inner cell above which a chip is read
EMPTY_MAX = 0.04  # ... below which the cell is empty
RING_MAX = 0.45  # a chip may touch the ring (off-centre), a hand covers it
SKIN_MAX = 0.12
GLARE_MAX = 0.25


@dataclass(slots=True)
class CellFeatures:
    """10x10 arrays measured per cell (screen order)."""

    chip: dict[str, np.ndarray]  # eroded fraction of each chip colour in the inner cell
    raw: dict[str, np.ndarray]  # un-eroded fraction of each chip colour in the inner cell
    ring: np.ndarray  # fraction of strongly coloured or skin pixels on the cell's ring
    skin: np.ndarray
    glare: np.ndarray
    dark: np.ndarray  # black ink and shadows in the inner cell
    red_ink: np.ndarray  # raw red fraction in the inner cell


def _inner_mask() -> np.ndarray:
    cell = np.zeros((CELL, CELL), np.float32)
    cell[INNER:-INNER, INNER:-INNER] = 1.0
    return np.tile(cell, (10, 10))


_INNER = _inner_mask()
_RING = 1.0 - _INNER
_N_INNER = float((CELL - 2 * INNER) ** 2) / (CELL * CELL)


def _per_cell(mask: np.ndarray, inner: bool) -> np.ndarray:
    """Fraction of True pixels per cell, in the inner part or on the ring.

    An area resize to 10x10 is exactly the per-cell mean, and much faster than numpy reductions.
    """
    m = mask.astype(np.float32)
    if inner:
        return cv2.resize(m * _INNER, (10, 10), interpolation=cv2.INTER_AREA) / _N_INNER
    return cv2.resize(m * _RING, (10, 10), interpolation=cv2.INTER_AREA) / (1 - _N_INNER)


_ERODE = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))


def measure(grid_bgr: np.ndarray, profile: ColourProfile, gains: np.ndarray | None = None):
    """Measure every cell of a ``10*CELL`` square grid image. Returns (features, gains)."""
    if gains is None:
        gains = white_gains(grid_bgr)
    img = balance(grid_bgr, gains)
    masks = colour_masks(img, profile)
    chip, raw = {}, {}
    for sym in CHIP_SYMBOLS:
        m = masks[sym].astype(np.uint8)
        chip[sym] = _per_cell(cv2.erode(m, _ERODE) > 0, inner=True)
        raw[sym] = _per_cell(m > 0, inner=True)
    foreign = masks["chroma"] | masks["skin"]
    feats = CellFeatures(
        chip=chip,
        raw=raw,
        ring=_per_cell(foreign, inner=False),
        skin=_per_cell(masks["skin"], inner=True),
        glare=_per_cell(masks["glare"], inner=True),
        dark=_per_cell(masks["dark"], inner=True),
        red_ink=raw["R"],
    )
    return feats, gains


def classify(feats: CellFeatures, reference: dict[str, np.ndarray] | None = None):
    """Symbols (``.BGR?``) and confidences per screen cell.

    ``reference`` (from a calibration of the empty board, already in screen order) holds the
    eroded chip-colour fractions the printed art itself shows; they are subtracted, so red ink
    that survives the erosion is not read as a red chip.
    """
    stack = np.stack([feats.chip[s] for s in CHIP_SYMBOLS])  # 3x10x10
    if reference is not None:
        stack = np.clip(stack - np.stack([reference[s] for s in CHIP_SYMBOLS]), 0, 1)
    order = np.argsort(-stack, axis=0)
    best = np.take_along_axis(stack, order[:1], axis=0)[0]
    second = np.take_along_axis(stack, order[1:2], axis=0)[0]
    best_sym = np.array(CHIP_SYMBOLS)[order[0]]

    symbols = np.full((10, 10), "?", dtype="<U1")
    conf = np.zeros((10, 10), np.float32)

    # chip: strong, dominant colour inside the cell, ring not flooded
    dominance = (best - second) / (best + 1e-6)
    chip_conf = np.clip((best - EMPTY_MAX) / (CHIP_MIN - EMPTY_MAX), 0, 1) * np.clip(
        dominance * 1.5, 0, 1
    )
    is_chip = (best >= CHIP_MIN) & (dominance > 0.5)
    # empty: no chip colour worth the name
    empty_conf = np.clip(1 - best / EMPTY_MAX, 0, 1) * 0.5 + 0.5
    is_empty = best < EMPTY_MAX

    occluded = (feats.ring > RING_MAX) | (feats.skin > SKIN_MAX)
    glared = feats.glare > GLARE_MAX

    symbols[is_chip] = best_sym[is_chip]
    conf[is_chip] = chip_conf[is_chip]
    symbols[is_empty] = "."
    conf[is_empty] = empty_conf[is_empty]

    unsure = occluded | (glared & ~is_chip) | ~(is_chip | is_empty)
    symbols[unsure] = "?"
    conf[unsure] = 0.0  # an unknown cell claims nothing
    return symbols, conf
