"""Which cells are hidden, and how much: sampled on a 5x5 grid inside each cell.

A cell is *hidden* where a hand or arm, a held chip, a loose card lying on the board, or a
glare spot adding more than ``GLARE_HIDES`` grey levels covers it, or where it lies outside the
frame (a board pushed partly out of view with ``board_offset`` beyond +-1); ``Truth.occluded`` marks the
cells with at least ``OCCLUDED_FRACTION`` of their area hidden.
"""

from __future__ import annotations

import numpy as np

from companion.cells import SIZE
from companion.render.camera import project

OCCLUSION_SAMPLES = 5  # per cell side
OCCLUDED_FRACTION = 0.08
GLARE_HIDES = 140  # grey levels a glare spot adds where it washes a chip's colour out


def covered_fraction(coverage: np.ndarray, grid_to_image: np.ndarray) -> np.ndarray:
    """10x10 float: share of each cell (sampled on a 5x5 grid) where ``coverage`` > 127."""
    n = OCCLUSION_SAMPLES
    t = (np.arange(n) + 0.5) / n
    gy, gx = np.meshgrid(np.arange(SIZE), np.arange(SIZE), indexing="ij")
    xs = (gx[..., None, None] + t[None, None, None, :]).repeat(n, axis=2)
    ys = (gy[..., None, None] + t[None, None, :, None]).repeat(n, axis=3)
    pts = np.stack([xs, ys], -1).reshape(-1, 2)
    img_pts = np.round(project(grid_to_image, pts)).astype(int)
    h, w = coverage.shape
    inside = (img_pts[:, 0] >= 0) & (img_pts[:, 0] < w) & (img_pts[:, 1] >= 0) & (img_pts[:, 1] < h)
    hit = ~inside  # what the frame does not show is hidden too
    ip = img_pts[inside]
    hit[inside] = coverage[ip[:, 1], ip[:, 0]] > 127
    return hit.reshape(SIZE, SIZE, n * n).mean(axis=2)


def glare_cover(glare: np.ndarray | None, grid_to_image: np.ndarray) -> np.ndarray | None:
    if glare is None:
        return None
    washed = (glare[..., 0] > GLARE_HIDES).astype(np.uint8) * 255
    return covered_fraction(washed, grid_to_image) if washed.any() else None
