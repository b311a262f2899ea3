"""Self-check of a located grid: do the chips sit inside their cells?

A chip is a disc lying inside one cell (players push it off-centre, but by well under a third of
a cell). On a grid located half a cell to a cell off, or stretched so that one side drifts off,
many chips sit across the grid's boundaries instead, and every such chip is read in the wrong
cell or in two cells at once. Counting the chips whose centre lies near a boundary of the
straightened grid tells a misplaced grid from a right one before any cell is reported.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision import chips
from companion.vision.colour import ColourProfile

STRADDLE = 0.3  # a chip centre this far (in cells) from its cell's centre, along either axis
MISPLACED_MIN = 5  # ... on at least this many chips ...
MISPLACED_SHARE = 0.3  # ... and this share of the chips found: the grid is misplaced
SIDE_BAND = 2  # ... or, among the chips in the 2 rows or columns along one side of the grid,
SIDE_MISPLACED_MIN = 3  # ... on at least this many
SIDE_MISPLACED_SHARE = 0.5  # ... and this share of them
DRIFT_MAX = 0.35  # ... or the chips' offsets, fitted by a line, put an outer grid line this far off
DRIFT_MIN_CHIPS = 8  # ... fitted on at least this many chips
DRIFT_SURE = 1.0  # ... and that far off by this many standard errors of the fitted line
DRIFT_MIN_SPREAD = 1.5  # ... spread over the grid this much (standard deviation, in cells)
WRAPPED = 0.45  # a chip this far off centre may belong to either neighbour: not fitted
# a chip's eroded disc covers at least this share of the square on the cell's shorter side
# (a chip is round, as wide as ~0.7 of that side: on landscape cards, 1.5 times wider than
# tall, or small grids, where the erosion takes a bigger bite, its disc covers only 0.11-0.18
# of the whole cell. On the right grids of 9 rendered sets, 97 % of 9,497 eroded chip discs
# measured 0.12 of that square or more, where 21 % reached 0.2 of the whole cell, the bound
# before; ink blobs on empty cards: 16 % and 12 %) ...
CHIP_AREA_MIN = 0.12
CHIP_AREA_MAX = 0.9  # ... and at most this share of the whole cell
# a round solid disc this many times the cell's shorter side is no chip of it (on the right
# grids of four sets, 11,400 eroded chip discs measured at most 0.95 of it):
OVERSIZED = 1.05
OVERSIZED_MIN = 2  # ... this many of them: the grid's cells are smaller than the board's
# ... and this share of the chip-sized discs (under a steep tilt a few chips, their side walls
# stretching them, measure up to 1.7 of a text board's cells: 2-3 of 50)
OVERSIZED_SHARE = 0.25
ROUND_ASPECT = 1.35  # a disc's bounding box is at most this much longer one way (pixels)
SOLID_FILL = 0.6  # ... and the disc fills at least this share of it (a circle fills 0.785)
OVERSIZED_MAX = 3.0  # ... but a blob over this many cells across is a sleeve or a card


@dataclass(frozen=True, slots=True)
class ChipPlacement:
    """Chips found in a straightened grid and where their centres lie within their cells."""

    offsets: np.ndarray  # (n, 2): chip centre minus cell centre, in cells (x, y), in [-0.5, 0.5]
    cells: np.ndarray  # (n, 2): the (row, col) each centre lies in
    oversized: int = 0  # round solid discs of chip colour too big for one cell of this grid

    @property
    def straddling(self) -> np.ndarray:
        """Boolean per chip: its centre lies close to a cell boundary."""
        if not len(self.offsets):
            return np.zeros(0, bool)
        return np.abs(self.offsets).max(axis=1) > STRADDLE

    @property
    def misplaced(self) -> bool:
        """Many chips straddle the grid's boundaries, over the whole grid or along one side
        (a grid with the wrong pitch or perspective is right in the middle and off at a side):
        the grid is not where the cells are. Chips too big for the grid's cells (a grid at
        half the board's pitch, spanning part of the board) count as well."""
        if self.oversized >= max(
            OVERSIZED_MIN, OVERSIZED_SHARE * (self.oversized + len(self.offsets))
        ):
            return True
        if _many_straddle(self.straddling, MISPLACED_MIN, MISPLACED_SHARE):
            return True
        if self.edge_drift(sure=True) > DRIFT_MAX:
            return True
        if not len(self.cells):
            return False
        rows, cols = self.cells[:, 0], self.cells[:, 1]
        sides = (rows < SIDE_BAND, rows >= 10 - SIDE_BAND, cols < SIDE_BAND, cols >= 10 - SIDE_BAND)
        return any(
            _many_straddle(self.straddling[side], SIDE_MISPLACED_MIN, SIDE_MISPLACED_SHARE)
            for side in sides
        )

    def edge_drift(self, sure: bool = False) -> float:
        """How far (in cells) the grid's outer lines lie from the chips' lines, from a straight
        line fitted to the chips' offsets across the grid, per axis (a grid with a wrong pitch
        or perspective: the chips drift steadily off centre towards one side). 0 with too few
        chips to tell; chips half a cell off (which side is unclear) are left out. With
        ``sure``, less ``DRIFT_SURE`` standard errors of that line at the outer lines: a few
        chips scattered on a wrinkled or tilted board fit a line that the outer lines follow
        only by chance."""
        worst = 0.0
        for axis in (0, 1):  # x offsets against columns, y offsets against rows
            off = self.offsets[:, axis] if len(self.offsets) else np.zeros(0)
            pos = self.cells[:, 1 - axis] + 0.5 - 5.0 if len(self.cells) else np.zeros(0)
            keep = np.abs(off) < WRAPPED
            if keep.sum() < DRIFT_MIN_CHIPS or pos[keep].std() < DRIFT_MIN_SPREAD:
                continue
            x, y = pos[keep], off[keep]
            slope, at_centre = np.polyfit(x, y, 1)
            for edge in (-5.0, 5.0):
                drift = abs(at_centre + edge * slope)
                if sure:
                    drift -= DRIFT_SURE * _line_error_at(x, y, slope, at_centre, edge)
                worst = max(worst, drift)
        return float(worst)

    @property
    def straddling_count(self) -> int:
        return int(self.straddling.sum())

    def grid_offset(self) -> tuple[float, float]:
        """The chips' common offset from their cell centres (x, y, in cells): how far the grid
        must move to put them back in the middle. Averaged around the circle, as a chip half a
        cell off shows +0.5 or -0.5 alike."""
        if not len(self.offsets):
            return (0.0, 0.0)
        turns = np.exp(2j * np.pi * self.offsets).mean(axis=0)
        return tuple(float(np.angle(t) / (2 * np.pi)) for t in turns)


def _line_error_at(
    x: np.ndarray, y: np.ndarray, slope: float, at_centre: float, at: float
) -> float:
    """The standard error of a least-squares line through (``x``, ``y``) at ``x = at``."""
    n = len(x)
    residual = y - (slope * x + at_centre)
    sigma2 = float(residual @ residual) / max(n - 2, 1)
    spread = float(((x - x.mean()) ** 2).sum())
    return float(np.sqrt(sigma2 * (1.0 / n + (at - x.mean()) ** 2 / max(spread, 1e-9))))


def _many_straddle(straddling: np.ndarray, least: int, share: float) -> bool:
    n = int(straddling.sum())
    return n >= least and n >= share * len(straddling)


def chip_discs(any_chip: np.ndarray, area_min: float = CHIP_AREA_MIN) -> ChipPlacement:
    """Chip-sized blobs of an eroded chip-colour mask (uint8, a grid image of 10x10 cells),
    from ``area_min`` of the square on a cell's shorter side."""
    h, w = any_chip.shape[0] / 10.0, any_chip.shape[1] / 10.0
    _, _, stats, centres = cv2.connectedComponentsWithStats(any_chip)
    bw, bh = stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT]
    area, centres = stats[1:, cv2.CC_STAT_AREA], centres[1:]
    oversized = _oversized_disc(bw, bh, area, min(w, h))
    lo, hi = area_min * min(w, h) ** 2, CHIP_AREA_MAX * w * h
    # not ink strokes, specks, or something bigger than a chip (a card, a sleeve)
    chip = ~oversized & (lo <= area) & (area <= hi) & (bw <= 1.1 * w) & (bh <= 1.1 * h)
    u, v = centres[chip, 0] / w, centres[chip, 1] / h
    col, row = np.minimum(u.astype(int), 9), np.minimum(v.astype(int), 9)
    # a free corner holds no chip, but may print a coloured emblem off-centre
    inner = ~(np.isin(row, (0, 9)) & np.isin(col, (0, 9)))
    offsets = np.stack([u - col - 0.5, v - row - 0.5], axis=1)[inner]
    cells = np.stack([row, col], axis=1)[inner]
    return ChipPlacement(
        offsets.astype(np.float64).reshape(-1, 2), cells.reshape(-1, 2), int(oversized.sum())
    )


def _oversized_disc(bw: np.ndarray, bh: np.ndarray, area: np.ndarray, side: float) -> np.ndarray:
    """Per blob: a round, solid blob wider than a cell of this grid allows a chip to be (in
    pixels of the straightened grid, which keeps the board's proportions, so a chip stays
    round)."""
    long, short = np.maximum(bw, bh), np.minimum(bw, bh)
    return (
        (OVERSIZED * side <= long)
        & (long <= OVERSIZED_MAX * side)
        & (long <= ROUND_ASPECT * short)
        & (area >= SOLID_FILL * bw * bh)
    )


def chip_placement(grid_bgr: np.ndarray, profile: ColourProfile) -> ChipPlacement:
    """Find the chips of a straightened grid image and where they sit within their cells."""
    return placement_in_mask(chips.measure(grid_bgr, profile).chip_mask)


def placement_in_mask(chip_mask: np.ndarray) -> ChipPlacement:
    """The chips of a grid image's any-chip-colour mask (``CellFeatures.chip_mask``, which the
    reading has measured already) and where they sit within their cells."""
    return chip_discs(cv2.erode(chip_mask, chips.ERODE))


LATTICE_PITCHES = np.arange(0.7, 1.0501, 0.005)  # a board's pitch, in the grid's cells, tried
LATTICE_CHIPS = 8  # a lattice is fitted to at least this many chips ...
LATTICE_ALIGNED = 0.85  # ... whose centres line up on it this well (mean resultant length)
LATTICE_REACH = 0.5  # the board's cells may reach this far (in the grid's cells) past the grid
# where the chips' discs (``CHIP_AREA_MIN``) line up on no lattice, discs from this share of
# the square on a cell's shorter side are taken: the margin taken for cells makes an
# outline's cells bigger than the board's, and a chip smaller against them. (On 35
# overexposed frames where no board was found, 0.06 found 8, every cell of them read right
# or `?`, and 0.04 found 9, 2 cells wrong. Taken first, 0.06 moved the lattice of 16 boards
# read on it, ink blobs among the chips: 2 cells wrong more, one board lost. So they are the
# reader's last resort, see ``BoardReader._locate_and_read``)
LATTICE_AREA_MIN = 0.06


def chip_lattice(centres: np.ndarray) -> tuple[float, float] | None:
    """The pitch and phase (in the grid's cells) of the lattice that chip centres (one axis's
    coordinates, 0..10) line up on best, among ``LATTICE_PITCHES``: the board's own cells,
    whatever the grid's (an outline of the whole board, its margin taken for cells, has a
    pitch up to a fifth too wide). The phase is where one of the lattice's lines lies. None
    with too few chips, or chips that line up on no pitch (``LATTICE_ALIGNED``)."""
    if len(centres) < LATTICE_CHIPS:
        return None
    turns = np.exp(2j * np.pi * centres[None, :] / LATTICE_PITCHES[:, None]).mean(axis=1)
    best = int(np.argmax(np.abs(turns)))
    if abs(turns[best]) < LATTICE_ALIGNED:
        return None
    pitch = float(LATTICE_PITCHES[best])
    centre_phase = float(np.angle(turns[best]) / (2 * np.pi) * pitch)
    return pitch, (centre_phase - pitch / 2) % pitch


def lattice_window(centres: np.ndarray) -> tuple[float, float] | None:
    """Where the board's 10 cells lie along one axis of a grid (in its cells): the 10 pitches
    of the chips' lattice (``chip_lattice``) that hold every chip, within the grid and
    ``LATTICE_REACH`` beyond, the most nearly centred on it (a board's margins are alike)."""
    fit = chip_lattice(centres)
    if fit is None:
        return None
    pitch, phase = fit
    best = None
    for m in range(-4, 14):  # (pitch >= 0.7: these lines cover the grid and its reach)
        start = phase + m * pitch
        end = start + 10 * pitch
        if start < -LATTICE_REACH or end > 10 + LATTICE_REACH:
            continue
        if centres.min() < start or centres.max() > end:
            continue
        off_centre = abs((start + end) / 2 - 5.0)
        if best is None or off_centre < best[0]:
            best = (off_centre, start, end)
    return None if best is None else (best[1], best[2])


def fitted_to_chips(placement: ChipPlacement) -> tuple[float, float, float, float] | None:
    """The board's cells within a grid, from where its chips (or discs: ``small_discs``) lie:
    (x0, y0, x1, y1, in the grid's cells), or None where they do not say."""
    xs = placement.cells[:, 1] + 0.5 + placement.offsets[:, 0]
    ys = placement.cells[:, 0] + 0.5 + placement.offsets[:, 1]
    across, down = lattice_window(xs), lattice_window(ys)
    if across is None or down is None:
        return None
    return across[0], down[0], across[1], down[1]


def small_discs(chip_mask: np.ndarray) -> ChipPlacement:
    """The discs of a grid image's any-chip-colour mask from ``LATTICE_AREA_MIN`` of the
    square on a cell's shorter side (chips small against the cells, and bold ink)."""
    return chip_discs(cv2.erode(chip_mask, chips.ERODE), LATTICE_AREA_MIN)
