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
GLARE_MAX = 0.25


@dataclass(slots=True)
class CellFeatures:
    """10x10 arrays measured per cell (screen order)."""

    chip: dict[str, np.ndarray]  # eroded fraction of each chip colour in the inner cell
    raw: dict[str, np.ndarray]  # un-eroded fraction of each chip colour in the inner cell
    ring: np.ndarray  # fraction of the cell's border ring unlike the typical cell's ring
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


def _ring_pixel_index() -> np.ndarray:
    """Flat pixel indices of every cell's border ring in the grid image: 100 x ring size."""
    ys, xs = np.nonzero(_RING[:CELL, :CELL] > 0)
    rows = []
    for r in range(10):
        for c in range(10):
            rows.append((r * CELL + ys) * (10 * CELL) + c * CELL + xs)
    return np.array(rows)


_RING_PIXELS = _ring_pixel_index()
RING_DIFF = 45.0  # a ring pixel this far (0..255, any channel) from the ring palette is foreign
PALETTE = 4


def ring_anomaly(img: np.ndarray) -> np.ndarray:
    """Per cell, the fraction of its border ring in colours the board's rings do not show.

    Every cell's border shows the same few colours (the gap, the card's edge, a printed line).
    A small palette of them is taken from the median ring over the 100 cells, after dividing
    each cell by its own white (uneven light); an arm, a hand or a sleeve crossing a cell brings
    other colours onto most of its ring, an off-centre chip onto a small part. Comparing with a
    palette rather than pixel by pixel tolerates a grid that is off by a pixel or two.
    """
    grey = cv2.cvtColor(cv2.blur(img, (3, 3)), cv2.COLOR_BGR2GRAY)
    white = grey.reshape(10, CELL, 10, CELL).max(axis=(1, 3)).reshape(100).astype(np.float32)
    ring = img.reshape(-1, 3)[_RING_PIXELS].astype(np.float32)  # 100 x ring x 3
    ring *= (200.0 / (white + 1.0))[:, None, None]
    template = np.median(ring, axis=0)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 10, 1.0)
    _, _, palette = cv2.kmeans(template, PALETTE, None, criteria, 1, cv2.KMEANS_PP_CENTERS)
    b, g, r = ring[..., 0], ring[..., 1], ring[..., 2]
    d = None
    for pb, pg, pr in palette:
        dk = np.maximum(np.maximum(np.abs(b - pb), np.abs(g - pg)), np.abs(r - pr))
        d = dk if d is None else np.minimum(d, dk)
    return (d > RING_DIFF).mean(axis=1).reshape(10, 10).astype(np.float32)


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
    feats = CellFeatures(
        chip=chip,
        raw=raw,
        ring=ring_anomaly(img),
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

    occluded = feats.ring > RING_MAX
    glared = feats.glare > GLARE_MAX

    symbols[is_chip] = best_sym[is_chip]
    conf[is_chip] = chip_conf[is_chip]
    symbols[is_empty] = "."
    conf[is_empty] = empty_conf[is_empty]

    unsure = occluded | (glared & ~is_chip) | ~(is_chip | is_empty)
    symbols[unsure] = "?"
    conf[unsure] = 0.0  # an unknown cell claims nothing
    return symbols, conf
