"""Chips as big as their cells: one chip colour over a cell's whole inner part that is a chip's
disc (a circle as wide as the board's chips, the cell's corners clear), not a card back or a
sleeve lying there; and the chips beside it, doubted for that cover, read back."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from test_vision_support import independent_frame

from companion.vision.chips import CellShape
from companion.vision.cleared_covers import chips_beside_no_cover
from companion.vision.filling_chips import FILLED, clear_corners, filling_chips

W, H = 24, 20
SHAPE = CellShape(W, H)
WIDTH = 19.0  # the board's chips, pixels: nearly as tall as a cell


def _masks(**shapes) -> dict[str, np.ndarray]:
    """Class masks of a grid image with a chip disc over cell (2, 3) in blue and, with
    ``cover=True``, a card back's rectangle over cells (5-6, 5-7) in red."""
    masks = {sym: np.zeros((10 * H, 10 * W), np.uint8) for sym in "BGR"}
    dx = shapes.get("dx", 0)
    cv2.circle(masks["B"], (round(3.5 * W) + dx, round(2.5 * H)), round(WIDTH / 2), 255, -1)
    if shapes.get("cover"):
        masks["R"][5 * H - 4 : 7 * H + 4, 5 * W - 6 : 8 * W + 6] = 255
    return masks


def _why(*cells, cause=FILLED, read="B") -> tuple[np.ndarray, dict]:
    symbols = np.full((10, 10), ".", dtype="<U1")
    mask = np.zeros((10, 10), bool)
    before = symbols.copy()
    for r, c in cells:
        symbols[r, c], mask[r, c], before[r, c] = "?", True, read
    return symbols, {cause: mask, "_read": before}


def test_a_chip_as_tall_as_its_cell_is_read():
    symbols, why = _why((2, 3))
    found = filling_chips(symbols, why, _masks(), SHAPE, WIDTH)
    assert found[2, 3] == "B"
    assert (found != "").sum() == 1


def test_a_card_back_over_the_cell_is_no_chip():
    # the red rectangle covers cell (6, 6) wholly, its corners included: a cover
    symbols, why = _why((6, 6), read="R")
    assert clear_corners(_masks(cover=True)["R"], 6, 6, SHAPE) == 0
    assert filling_chips(symbols, why, _masks(cover=True), SHAPE, WIDTH)[6, 6] == ""


@pytest.mark.parametrize("width", [WIDTH * 0.6, WIDTH * 1.4])
def test_a_disc_unlike_the_boards_chips_is_no_chip(width):
    # a circle much narrower or wider than this board's chips: a patch of a cover's colour
    symbols, why = _why((2, 3))
    assert filling_chips(symbols, why, _masks(), SHAPE, width)[2, 3] == ""


def test_only_cells_doubted_for_colour_everywhere_alone():
    symbols, why = _why((2, 3))
    why["no_card_white"] = why[FILLED].copy()  # a sign of a cover besides
    assert filling_chips(symbols, why, _masks(), SHAPE, WIDTH)[2, 3] == ""
    symbols, why = _why((2, 3), read=".")  # read empty before the doubt: nothing to read
    assert filling_chips(symbols, why, _masks(), SHAPE, WIDTH)[2, 3] == ""
    symbols, why = _why((2, 3))
    assert filling_chips(symbols, why, _masks(), SHAPE, None)[2, 3] == ""  # no chip width


def test_a_chip_off_its_cells_centre_clears_fewer_corners():
    # pushed a third of a cell sideways, its disc covers both corners on that side
    assert clear_corners(_masks()["B"], 2, 3, SHAPE) == 4
    assert clear_corners(_masks(dx=round(W / 3))["B"], 2, 3, SHAPE) == 2


def test_chips_doubted_for_the_covers_colour_read_back_once_it_is_a_chip():
    symbols, why = _why((2, 4), (3, 3), cause="cover_colour")
    why["next_to_cover"] = np.zeros((10, 10), bool)
    why["next_to_cover"][1, 3] = True
    symbols[1, 3], why["_read"][1, 3] = "?", "B"
    # beside the filled cell still unknown: kept
    symbols[2, 3] = "?"
    assert not chips_beside_no_cover(symbols, why).any()
    # ... and read as a chip: all three read what they showed
    symbols[2, 3] = "B"
    back = chips_beside_no_cover(symbols, why)
    assert sorted(map(tuple, np.argwhere(back).tolist())) == [(1, 3), (2, 4), (3, 3)]


def test_a_board_printed_small_for_its_chips_reads_exactly():
    # an independent renderer's mixed board whose chips nearly fill their cells: two blue chips
    # read as a cover's colour over their whole cells left five clear chips around them `?`
    reading, truth = independent_frame("mixed17_frame_0005")
    assert reading.cells == truth["cells"]
