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

from companion.vision.geometry import quad_at, rect_points
from companion.vision.lens import warp_lensed

CELL_PX = 16  # the grid is straightened to cells of this many pixels each way
BAND_KEEP = 0.6  # the middle share of each band's rows (the boundaries across it left out)
SHEARS = np.arange(-3.0, 3.0001, 0.125)  # offsets tried between the first and last band, cells
SHEARED_LEVEL = 0.15  # a sheared axis: its boundaries line up at least this clearly at a shear
SHEARED_RATIO = 2.5  # ... this many times as clearly as along the grid's own lines
SHEARED_MIN = 0.5  # ... at a shear of at least this many cells between the end bands
OFF_PITCHES = (9.0, 11.0)  # boundaries of 9 or 11 cells repeating across a grid of 10
OFF_PITCH_LEVEL = 0.15  # a grid with the wrong pitch: its boundaries repeat at least this clearly
OFF_PITCH_RATIO = 3.0  # ... and this many times as clearly at 9 or 11 cycles as at 10
# boundaries of 8-8.5 or 11.5-12.5 cells across a grid of 10 (motion blur smears the lines along
# one axis, and the fit can take 12 cells for 10 there): a lens bends a right grid's outer
# cells by far less, so these need only be this many times as clear as 10 cycles
FAR_PITCHES = (8.0, 8.5, 11.5, 12.0, 12.5)
FAR_PITCH_RATIO = 2.0


@dataclass(frozen=True, slots=True)
class AxisShear:
    """How clearly the boundaries across one axis repeat at the grid's pitch (0..1, the
    normalised Fourier magnitude of the bands' median gradient), along the grid's own lines
    (``straight``) and at the best shear (``best`` at ``shear`` cells between end bands).
    At that shear the boundaries lie at ``offset`` + k cells from the grid's lines in the
    middle of the grid (known up to whole cells). ``off_pitch``: the same level at 9 or 11
    cycles across the grid instead of 10, at any shear; ``far_pitch``: at ``FAR_PITCHES``."""

    straight: float
    best: float
    shear: float
    offset: float = 0.0
    off_pitch: float = 0.0
    far_pitch: float = 0.0

    @property
    def sheared(self) -> bool:
        return (
            self.best >= SHEARED_LEVEL
            and self.best >= SHEARED_RATIO * self.straight
            and abs(self.shear) >= SHEARED_MIN
        )

    @property
    def wrong_pitch(self) -> bool:
        """The board's boundaries repeat 9 or 11 times across the grid, far more clearly than
        10 times: a grid spanning 11 of the board's cells, or 9 (a strong barrel lens bends a
        right grid's outer cells to about half this ratio); or 8 or 12 times (the lines along
        one axis smeared by motion blur), twice as clearly as 10 times."""
        near = self.off_pitch >= OFF_PITCH_LEVEL and self.off_pitch >= OFF_PITCH_RATIO * self.best
        far = self.far_pitch >= OFF_PITCH_LEVEL and self.far_pitch >= FAR_PITCH_RATIO * self.best
        return near or far


def straightened_grey(grey: np.ndarray, quad: np.ndarray, lens: float = 0.0) -> np.ndarray:
    """The grid quad (TL, TR, BR, BL, image pixels) of a grey frame warped to 10x10 square cells
    of ``CELL_PX`` pixels (point-sampled: the boundaries' gradients need no finer look),
    through the camera's ``lens`` when one is given."""
    side = 10 * CELL_PX
    if lens:
        return warp_lensed(grey, quad, lens, (side, side))
    hom = cv2.getPerspectiveTransform(
        np.asarray(quad, np.float32).reshape(4, 2), rect_points(side, side).astype(np.float32)
    )
    return cv2.warpPerspective(grey, hom, (side, side), flags=cv2.INTER_LINEAR)


def _coefficients(profile: np.ndarray, cycles: float) -> np.ndarray:
    return (profile @ _wave(profile.shape[1], cycles)) / (profile.sum(axis=1) + 1e-9)


def band_profiles(straight: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per band (10 x positions), the median gradient over the middle of the band's rows, for
    the column lines and for the row lines of a straightened grid image."""
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
        out.append(0.5 * (ordered[..., (n - 1) // 2] + ordered[..., n // 2]))
    return out[0], out[1]


@functools.cache
def _wave(length: int, cycles: float = 10.0) -> np.ndarray:
    """``cycles`` over a profile of ``length`` gradient samples: the difference between
    pixels i and i+1 lies at i + 0.5, grid line k (of 10 cycles) at k * (length + 1) / 10."""
    return np.exp(-2j * np.pi * cycles * (np.arange(length) + 0.5) / (length + 1))


@functools.cache
def _turns() -> np.ndarray:
    """Per shear (rows) and band (columns): the phase turn that undoes the shear."""
    return np.exp(2j * np.pi * np.outer(SHEARS, np.arange(10) - 4.5) / 10)


def axis_shear(
    coefficients: np.ndarray,
    off_pitch: tuple[np.ndarray, ...] = (),
    far_pitch: tuple[np.ndarray, ...] = (),
) -> AxisShear:
    """:class:`AxisShear` of one axis from its 10 band coefficients (and those at the
    ``OFF_PITCHES`` and ``FAR_PITCHES``, if given)."""
    other = _pitch_level(off_pitch)
    far = _pitch_level(far_pitch)
    sums = _turns() @ coefficients
    level = np.abs(sums) / 10
    zero = int(np.argmin(np.abs(SHEARS)))
    best = int(np.argmax(level))
    # a band whose boundaries lie d cells past the grid's lines has the phase -2 pi d
    offset = -float(np.angle(sums[best])) / (2 * np.pi)
    return AxisShear(
        float(level[zero]), float(level[best]), float(SHEARS[best]), offset, other, far
    )


def _pitch_level(coefficients: tuple[np.ndarray, ...]) -> float:
    """The clearest level, at any shear, of the band coefficients at other pitches."""
    return max((float(np.abs(_turns() @ c).max()) / 10 for c in coefficients), default=0.0)


def grid_shear(
    grey: np.ndarray, quad: np.ndarray, lens: float = 0.0
) -> tuple[AxisShear, AxisShear]:
    """(column lines, row lines) shear and pitch evidence of a located grid in a grey frame
    (seen through the camera's ``lens``, :mod:`companion.vision.lens`, when one is given)."""
    return tuple(
        axis_shear(
            _coefficients(p, 10.0),
            tuple(_coefficients(p, c) for c in OFF_PITCHES),
            tuple(_coefficients(p, c) for c in FAR_PITCHES),
        )
        for p in band_profiles(straightened_grey(grey, quad, lens))
    )


def crosses_boundaries(grey: np.ndarray, quad: np.ndarray) -> bool:
    """Whether the board's boundaries run clearly slanted across the grid's lines, or
    repeat at another pitch than the grid's."""
    return any(a.sheared or a.wrong_pitch for a in grid_shear(grey, quad))


def unsheared_quad(quad: np.ndarray, cols: AxisShear, rows: AxisShear) -> np.ndarray:
    """The grid quad turned to run along the boundaries that :func:`grid_shear` found slanted
    across it (each sheared axis moved by its shear and offset; its extent along that axis
    is unknown by whole cells, so this is a candidate for the grid search, not a grid)."""
    du = (cols.offset, cols.shear) if cols.sheared else (0.0, 0.0)
    dv = (rows.offset, rows.shear) if rows.sheared else (0.0, 0.0)
    corners = rect_points(10, 10)
    # in grid units: column line k runs at u = k + offset + shear * (v - 5) / 10
    moved = corners + np.stack(
        [du[0] + du[1] * (corners[:, 1] - 5) / 10, dv[0] + dv[1] * (corners[:, 0] - 5) / 10],
        axis=1,
    )
    return quad_at(quad, moved)
