"""Pure geometry and grid-fitting functions of the vision pipeline."""

import numpy as np
import pytest

from companion.vision.geometry import (
    apply_homography,
    canonical_corners,
    homography,
    is_convex,
    order_quad,
    orientation_of,
    quad_area,
    screen_quad,
    to_canonical_grid,
)
from companion.vision.grid import fit_axis
from companion.vision.layout import CLASSIC_INK, ink_from_layout, ink_sign
from companion.vision.orient import vote_orientation

SQUARE = np.array([[10, 10], [110, 12], [108, 90], [12, 88]], float)


def test_order_quad_any_input_order():
    rng = np.random.default_rng(0)
    for _ in range(10):
        shuffled = SQUARE[rng.permutation(4)]
        assert np.allclose(order_quad(shuffled), SQUARE)


@pytest.mark.parametrize("orientation", [0, 90, 180, 270])
def test_canonical_corners_round_trip(orientation):
    canon = canonical_corners(SQUARE, orientation)
    assert np.allclose(screen_quad(canon, orientation), SQUARE)
    assert orientation_of(canon) == orientation


def test_orientation_90_puts_a1_top_right():
    # canonical row 1 along the right side: A1 is the top-right corner on screen
    assert np.allclose(canonical_corners(SQUARE, 90)[0], SQUARE[1])


def test_to_canonical_grid_inverts_clockwise_rotation():
    canon = np.arange(100).reshape(10, 10)
    for o in (0, 90, 180, 270):
        on_screen = np.rot90(canon, -(o // 90))  # rotated clockwise by o
        assert np.array_equal(to_canonical_grid(on_screen, o), canon)


def test_bad_orientation_is_a_clear_error():
    with pytest.raises(ValueError, match="orientation must be one of"):
        canonical_corners(SQUARE, 45)


def test_homography_maps_corners_exactly():
    dst = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], float)
    h = homography(SQUARE, dst)
    assert np.allclose(apply_homography(h, SQUARE), dst, atol=1e-9)


def test_area_and_convexity():
    assert quad_area([[0, 0], [2, 0], [2, 3], [0, 3]]) == pytest.approx(6)
    assert is_convex(SQUARE)
    assert not is_convex(np.array([[0, 0], [4, 0], [1, 1], [0, 4]], float))


def test_fit_axis_finds_lines_inside_a_margin():
    prof = np.full(400, 0.3)
    start, pitch = 57.0, 29.0
    for k in range(11):
        x = int(round(start + k * pitch))
        prof[x - 1 : x + 2] += [0.5, 2.0, 0.5]
    prof[10] += 3  # an unrelated strong edge (the board's outline)
    for k in range(10):  # printed content in every cell
        prof[int(start + (k + 0.5) * pitch)] += 0.8
    fit = fit_axis(prof, min_span=0.5)
    assert fit.start == pytest.approx(start, abs=1)
    assert fit.pitch == pytest.approx(pitch, abs=0.3)


def test_ink_pattern_is_not_rotation_symmetric():
    sign = ink_sign()
    for k in (1, 2, 3):
        assert (np.rot90(sign, k) * sign).sum() < 0.1 * (sign * sign).sum()


def test_ink_from_layout_matches_private_copy():
    layout = [["W", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "W"]] + [["AH"] * 10] * 9
    assert ink_from_layout(layout)[0] == CLASSIC_INK[0]
    assert ink_from_layout(layout)[1] == "r" * 10


def test_ink_pattern_matches_referee_layout():
    referee = pytest.importorskip("companion.referee.layout")
    labels = referee.classic_layout().labels
    assert ink_from_layout([list(row) for row in labels]) == CLASSIC_INK


@pytest.mark.parametrize("orientation", [0, 90, 180, 270])
def test_vote_orientation_from_noisy_partial_ink(orientation):
    rng = np.random.default_rng(orientation)
    on_screen = np.rot90(ink_sign(), -(orientation // 90))
    redness = on_screen * 0.6 + rng.normal(0, 0.4, (10, 10))
    usable = rng.random((10, 10)) > 0.5  # half the cells hidden under chips
    vote = vote_orientation(redness, usable)
    assert vote.orientation == orientation
    assert vote.margin > 0.2
