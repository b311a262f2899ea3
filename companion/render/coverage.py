"""Which cells are hidden, and how much: sampled on a 5x5 grid inside each cell.

A cell is *hidden* where a hand or arm, a held chip, a loose card lying on the board, or a
glare spot adding more than ``GLARE_HIDES`` grey levels covers it, or where it lies outside the
frame (a board pushed partly out of view with ``board_offset`` beyond +-1, or cropped by the
lens); ``Truth.occluded`` marks the cells with at least ``OCCLUDED_FRACTION`` of their area
hidden. Coverage masks live in scene space (before the lens); the frame test uses the frame
points (after it), see ``companion.render.geometry``.
"""

from __future__ import annotations

import numpy as np

from companion.cells import SIZE
from companion.render.geometry import BoardGeometry, plain

OCCLUSION_SAMPLES = 5  # per cell side
OCCLUDED_FRACTION = 0.08
GLARE_HIDES = 140  # grey levels a glare spot adds where it washes a chip's colour out


def cell_samples() -> np.ndarray:
    """(100 * 25)x2 grid points: a 5x5 grid inside each cell, cells in row-major order."""
    n = OCCLUSION_SAMPLES
    t = (np.arange(n) + 0.5) / n
    gy, gx = np.meshgrid(np.arange(SIZE), np.arange(SIZE), indexing="ij")
    xs = (gx[..., None, None] + t[None, None, None, :]).repeat(n, axis=2)
    ys = (gy[..., None, None] + t[None, None, :, None]).repeat(n, axis=3)
    return np.stack([xs, ys], -1).reshape(-1, 2)


def covered_fraction(
    coverage: np.ndarray, geometry: BoardGeometry | np.ndarray, frame_size=None
) -> np.ndarray:
    """10x10 float: share of each cell (sampled on a 5x5 grid) where ``coverage`` > 127 or that
    the frame does not show. ``geometry`` is a ``BoardGeometry`` or a flat grid homography."""
    if not isinstance(geometry, BoardGeometry):
        geometry = plain(geometry)
    h, w = coverage.shape
    fw, fh = frame_size or (w, h)
    pts = cell_samples()
    scene = np.round(geometry.grid_to_scene(pts)).astype(int)
    frame = np.round(geometry.scene_to_frame(geometry.grid_to_scene(pts))).astype(int)
    inside = (frame[:, 0] >= 0) & (frame[:, 0] < fw) & (frame[:, 1] >= 0) & (frame[:, 1] < fh)
    inside &= (scene[:, 0] >= 0) & (scene[:, 0] < w) & (scene[:, 1] >= 0) & (scene[:, 1] < h)
    hit = ~inside  # what the frame does not show is hidden too
    ip = scene[inside]
    hit[inside] = coverage[ip[:, 1], ip[:, 0]] > 127
    n = OCCLUSION_SAMPLES
    return hit.reshape(SIZE, SIZE, n * n).mean(axis=2)


def glare_cover(glare: np.ndarray | None, geometry) -> np.ndarray | None:
    if glare is None:
        return None
    washed = (glare[..., 0] > GLARE_HIDES).astype(np.uint8) * 255
    return covered_fraction(washed, geometry) if washed.any() else None
