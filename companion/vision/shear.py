"""Self-check of a located grid: do its lines run along the board's boundaries, or across them?

A grid can be fitted with the right rows but columns slanted across the board (a sheared
parallelogram from a candidate outline that took in part of a pale table): every column line
then meets the right boundary in some rows and crosses cards in others, and a fit that looks at
each line in only two halves of the board can still explain most of them. Straightened at
such a grid, the board's own boundaries run slanted.

The test, per axis: the straightened grid is cut into 10 bands across the lines (one per cell
row for the column lines). In each band the median gradient over the band's rows keeps only
edges that run along the whole band (boundaries, not pips or chips); its Fourier coefficient
at the grid's frequency (10 cycles) says how strongly and at which phase the band's boundaries
repeat at the grid's pitch. On the right grid the bands agree (their coefficients add up at
phase 0); on a sheared grid the phase turns steadily from band to band, and the coefficients
add up only once that turn is undone. So the coefficients are summed for every shear (the
offset between the first and last band, in cells): a grid is sheared when its boundaries show
clearly at some shear at least half a cell away and far more clearly than at none.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.geometry import rect_points

CELL_PX = 16  # the grid is straightened to cells of this many pixels each way
BAND_KEEP = 0.6  # the middle share of each band's rows (the boundaries across it left out)
SHEARS = np.arange(-3.0, 3.0001, 0.125)  # offsets tried between the first and last band, cells
SHEARED_LEVEL = 0.15  # a sheared axis: its boundaries line up at least this clearly at a shear
SHEARED_RATIO = 2.5  # ... this many times as clearly as along the grid's own lines
SHEARED_MIN = 0.5  # ... at a shear of at least this many cells between the end bands


@dataclass(frozen=True, slots=True)
class AxisShear:
    """How clearly the boundaries across one axis repeat at the grid's pitch (0..1, the
    normalised Fourier magnitude of the bands' median gradient), along the grid's own lines
    (``straight``) and at the best shear (``best`` at ``shear`` cells between end bands).
    At that shear the boundaries lie at ``offset`` + k cells from the grid's lines in the
    middle of the grid (known up to whole cells)."""

    straight: float
    best: float
    shear: float
    offset: float = 0.0

    @property
    def sheared(self) -> bool:
        return (
            self.best >= SHEARED_LEVEL
            and self.best >= SHEARED_RATIO * self.straight
            and abs(self.shear) >= SHEARED_MIN
        )


def straightened_grey(grey: np.ndarray, quad: np.ndarray, cell_px: int = CELL_PX) -> np.ndarray:
    """The grid quad (TL, TR, BR, BL, image pixels) of a grey frame warped to 10x10 square cells."""
    side = 10 * cell_px
    hom = cv2.getPerspectiveTransform(
        np.asarray(quad, np.float32).reshape(4, 2), rect_points(side, side).astype(np.float32)
    )
    return cv2.warpPerspective(grey, hom, (side, side), flags=cv2.INTER_AREA)


def band_coefficients(straight: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per band, the complex Fourier coefficient at 10 cycles of its median gradient profile
    (normalised by the profile's sum), for the column lines (bands = cell rows) and the row
    lines (bands = cell columns) of a straightened grid image (10 cells each way)."""
    g = straight.astype(np.float32)
    out = []
    for grad in (np.abs(np.diff(g, axis=1)), np.abs(np.diff(g, axis=0)).T):
        rows = grad.shape[0] // 10
        skip = int(round(rows * (1 - BAND_KEEP) / 2))
        bands = grad[: 10 * rows].reshape(10, rows, -1)[:, skip : rows - skip]
        # the median over each band's rows: sorted along the last axis (np.median costs
        # several times more on such short runs)
        ordered = np.sort(bands.transpose(0, 2, 1), axis=2)
        n = ordered.shape[2]
        profile = 0.5 * (ordered[..., (n - 1) // 2] + ordered[..., n // 2])
        out.append((profile @ _wave(grad.shape[1])) / (profile.sum(axis=1) + 1e-9))
    return out[0], out[1]


@functools.cache
def _wave(length: int) -> np.ndarray:
    """10 cycles over a profile of ``length`` gradient samples: the difference between pixels
    i and i+1 lies at i + 0.5, grid line k at k * (length + 1) / 10."""
    return np.exp(-2j * np.pi * 10 * (np.arange(length) + 0.5) / (length + 1))


@functools.cache
def _turns() -> np.ndarray:
    """Per shear (rows) and band (columns): the phase turn that undoes the shear."""
    return np.exp(2j * np.pi * np.outer(SHEARS, np.arange(10) - 4.5) / 10)


def axis_shear(coefficients: np.ndarray) -> AxisShear:
    """:class:`AxisShear` of one axis from its 10 band coefficients."""
    sums = _turns() @ coefficients
    level = np.abs(sums) / 10
    zero = int(np.argmin(np.abs(SHEARS)))
    best = int(np.argmax(level))
    # a band whose boundaries lie d cells past the grid's lines has the phase -2 pi d
    offset = -float(np.angle(sums[best])) / (2 * np.pi)
    return AxisShear(float(level[zero]), float(level[best]), float(SHEARS[best]), offset)


def grid_shear(grey: np.ndarray, quad: np.ndarray) -> tuple[AxisShear, AxisShear]:
    """(column lines, row lines) shear evidence of a located grid in a grey frame."""
    cols, rows = band_coefficients(straightened_grey(grey, quad))
    return axis_shear(cols), axis_shear(rows)


def is_sheared(grey: np.ndarray, quad: np.ndarray) -> bool:
    """Whether the board's boundaries run clearly slanted across the grid's lines."""
    return any(a.sheared for a in grid_shear(grey, quad))


def unsheared_quad(quad: np.ndarray, cols: AxisShear, rows: AxisShear) -> np.ndarray:
    """The grid quad turned to run along the boundaries that :func:`grid_shear` found slanted
    across it (each sheared axis moved by its shear and offset; its extent along that axis
    is unknown by whole cells, so this is a candidate for the grid search, not a grid)."""
    du = (cols.offset, cols.shear) if cols.sheared else (0.0, 0.0)
    dv = (rows.offset, rows.shear) if rows.sheared else (0.0, 0.0)
    corners = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], np.float64)
    # in grid units: column line k runs at u = k + offset + shear * (v - 5) / 10
    moved = corners + np.stack(
        [du[0] + du[1] * (corners[:, 1] - 5) / 10, dv[0] + dv[1] * (corners[:, 0] - 5) / 10],
        axis=1,
    )
    hom = cv2.getPerspectiveTransform(
        corners.astype(np.float32), np.asarray(quad, np.float32).reshape(4, 2)
    )
    return cv2.perspectiveTransform(moved.reshape(-1, 1, 2).astype(np.float32), hom).reshape(4, 2)
