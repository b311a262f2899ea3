"""The shear check of a located grid: its lines must run along the board's boundaries."""

import cv2
import numpy as np
import pytest
from test_vision_support import cli_frame

from companion.vision.geometry import corner_error, quad_at, screen_quad
from companion.vision.locate import downscale, grid_along_boundaries
from companion.vision.shear import AxisShear, axis_shear, grid_shear, unsheared_quad


@pytest.fixture(scope="module")
def board_frame():
    # a busy cards board filling most of a 640x480 frame (dev seed 7650101, frame 3)
    image, truth = cli_frame(
        7650101, 3, "cards", size=(640, 480), max_tilt=30.0, lens=0.0, board_share=(0.5, 0.8)
    )
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return image, grey, screen_quad(np.asarray(truth.corners), truth.orientation)


def test_the_true_grid_runs_along_the_boundaries(board_frame):
    _, grey, quad = board_frame
    for axis in grid_shear(grey, quad):
        assert not axis.sheared
        assert axis.straight > 0.15  # the boundaries repeat clearly at the grid's own pitch
        assert abs(axis.shear) <= 0.25 and abs(axis.offset) < 0.1


def test_columns_slanted_across_the_board_are_sheared_and_turned_back(board_frame):
    # the top edge one cell to the right, the bottom edge one cell to the left: every column
    # line crosses two cards between the top and the bottom
    _, grey, quad = board_frame
    sheared = quad_at(quad, [[1, 0], [11, 0], [9, 10], [-1, 10]])
    cols, rows = grid_shear(grey, sheared)
    assert cols.sheared and not rows.sheared
    assert abs(abs(cols.shear) - 2.0) <= 0.25
    cell = np.linalg.norm(quad[1] - quad[0]) / 10
    assert corner_error(unsheared_quad(sheared, cols, rows), quad) < 0.3 * cell


def test_rows_slanted_across_the_board_are_sheared(board_frame):
    _, grey, quad = board_frame
    cols, rows = grid_shear(grey, quad_at(quad, [[0, -1], [10, 1], [10, 11], [0, 9]]))
    assert rows.sheared and not cols.sheared


def test_a_sheared_grid_is_searched_again_along_the_boundaries(board_frame):
    image, grey, quad = board_frame
    sheared = quad_at(quad, [[1, 0], [11, 0], [9, 10], [-1, 10]])
    small, scale = downscale(image)
    turned = grid_along_boundaries(
        cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), scale, grey, sheared, grid_shear(grey, sheared)
    )
    assert turned is not None
    grid, lines, score = turned
    cell = np.linalg.norm(quad[1] - quad[0]) / 10
    assert corner_error(grid, quad) < 0.25 * cell
    assert lines >= 0.6 and score >= 0.45


def test_a_grid_spanning_eleven_or_nine_of_the_boards_cells_has_the_wrong_pitch(board_frame):
    _, grey, quad = board_frame
    assert not any(a.wrong_pitch for a in grid_shear(grey, quad))
    for corners in ([[0, 0], [11, 0], [11, 11], [0, 11]], [[0, 0], [9, 0], [9, 9], [0, 9]]):
        assert all(a.wrong_pitch for a in grid_shear(grey, quad_at(quad, corners)))
    # eleven cells wide, ten high: only the column lines are off
    cols, rows = grid_shear(grey, quad_at(quad, [[-0.5, 0], [10.5, 0], [10.5, 10], [-0.5, 10]]))
    assert cols.wrong_pitch and not rows.wrong_pitch


def test_faint_boundaries_at_some_shear_are_no_evidence():
    # the boundaries show clearly along the grid's lines: a slightly better slant is noise
    assert not AxisShear(straight=0.3, best=0.35, shear=1.0).sheared
    # nothing shows clearly at any shear (a washed-out board): no judgement
    assert not AxisShear(straight=0.02, best=0.1, shear=2.0).sheared
    # a clear slant, far better than none, but under half a cell: a perspective nuance
    assert not AxisShear(straight=0.05, best=0.3, shear=0.25).sheared
    assert AxisShear(straight=0.05, best=0.3, shear=1.5).sheared
    # another pitch only counts when it is clear and far clearer than the grid's own
    assert not AxisShear(0.2, 0.2, 0.0, off_pitch=0.4).wrong_pitch
    assert not AxisShear(0.03, 0.03, 0.0, off_pitch=0.12).wrong_pitch
    assert AxisShear(0.05, 0.05, 0.0, off_pitch=0.3).wrong_pitch


def test_band_coefficients_turning_steadily_are_summed_at_their_shear():
    # ten bands whose boundaries lie 0.15 cell further right in each band than in the last
    coefficients = np.exp(-2j * np.pi * 0.15 * (np.arange(10) - 4.5)) * 0.3
    axis = axis_shear(coefficients)
    assert axis.shear == pytest.approx(1.5)
    assert axis.best == pytest.approx(0.3, abs=1e-6)
    assert axis.straight < 0.1 and axis.sheared
