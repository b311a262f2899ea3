"""How a grid image stretches the chips, and the cell shape that makes them round again."""

import cv2
import numpy as np
import pytest

from companion.vision.chip_aspect import chip_stretch, round_chip_shape
from companion.vision.chips import cell_shape

SHAPE = cell_shape(20, 30)  # a grid image of 200 x 300 pixels


def _mask(discs, axes) -> np.ndarray:
    """Blobs drawn as ellipses of half-axes ``axes`` (x, y) at cells ``discs``."""
    mask = np.zeros((300, 200), np.uint8)
    for r, c in discs:
        centre = (c * 20 + 10, r * 30 + 15)
        cv2.ellipse(mask, centre, axes, 0, 0, 360, 255, -1)
    return mask


CELLS = [(1, 1), (2, 5), (4, 3), (6, 7), (8, 2)]


@pytest.mark.parametrize(("axes", "ratio"), [((7, 7), 1.0), ((6, 9), 2 / 3), ((8, 6), 4 / 3)])
def test_the_stretch_is_the_chips_width_over_their_height(axes, ratio):
    assert chip_stretch(_mask(CELLS, axes), SHAPE) == pytest.approx(ratio, rel=0.05)


def test_too_few_chips_or_no_ellipses_say_nothing():
    assert chip_stretch(_mask(CELLS[:2], (6, 9)), SHAPE) is None
    # two chips touching along a row, a sleeve over many cells, tiny specks: not chips
    mask = np.zeros((300, 200), np.uint8)
    for r in (1, 4, 7):
        cv2.circle(mask, (50, r * 30 + 15), 8, 255, -1)
        cv2.circle(mask, (66, r * 30 + 15), 8, 255, -1)
        cv2.circle(mask, (180, r * 30 + 15), 2, 255, -1)
    cv2.ellipse(mask, (120, 150), (30, 60), 0, 0, 360, 255, -1)
    assert chip_stretch(mask, SHAPE) is None
    # ... and among round chips, they do not change the stretch
    assert chip_stretch(mask | _mask(CELLS, (7, 7)), SHAPE) == pytest.approx(1.0, rel=0.05)


def test_a_highlight_inside_a_chip_does_not_change_its_shape():
    mask = _mask(CELLS, (6, 9))
    for r, c in CELLS:
        cv2.circle(mask, (c * 20 + 8, r * 30 + 12), 2, 0, -1)
    assert chip_stretch(mask, SHAPE) == pytest.approx(2 / 3, rel=0.05)


def test_the_round_shape_undoes_the_stretch_and_keeps_the_cell_area():
    assert round_chip_shape(SHAPE, 1.0) is None
    assert round_chip_shape(SHAPE, 1.04) is None  # within the apparent ratio's rounding
    assert round_chip_shape(SHAPE, None) is None
    better = round_chip_shape(SHAPE, 2 / 3)  # chips 2/3 as wide as tall: cells 1.5x as wide
    assert better.w / better.h == pytest.approx(1.0, abs=0.1)
    assert abs(better.w * better.h - SHAPE.w * SHAPE.h) < 0.15 * SHAPE.w * SHAPE.h
