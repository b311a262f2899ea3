"""Motion blur must never make the reader report a grid a cell off (every chip in the wrong
cell): it may answer `?` or "no board", never a confident wrong cell.

The frames are scenes of a robustness sweep where a horizontal motion blur smeared the grid
lines along one axis and the locator fitted a grid with the wrong pitch there (11 or 12 cells
taken for 10); a copy of that grid moved by a cell, or by the chips' common offset, then read
plausibly with a whole edge line unreadable (table taken in), a cell off elsewhere.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.render import RenderSpec, render_frame
from companion.vision import BoardReader
from companion.vision.pipeline import _moved_copy
from companion.vision.shear import AxisShear

SPECS = json.loads((Path(__file__).parent / "data" / "motion_blur_specs.json").read_text())


def motion_blurred(
    image: np.ndarray, length: int, diagonal: bool = False, vertical: bool = False
) -> np.ndarray:
    """The frame smeared over ``length`` pixels (a camera or board moving), horizontally,
    vertically or along the rising diagonal."""
    kernel = np.fliplr(np.eye(length)) if diagonal else np.ones((1, length))
    if vertical:
        kernel = np.ones((length, 1))
    return cv2.filter2D(image, -1, kernel / length)


def confident_wrong(cells: list[str], truth_cells: list[str]) -> list[str]:
    return [
        f"{chr(65 + c)}{r + 1}:{want}->{got}"
        for r, (row, want_row) in enumerate(zip(cells, truth_cells, strict=True))
        for c, (got, want) in enumerate(zip(row, want_row, strict=True))
        if got != want and got != "?"
    ]


@pytest.mark.parametrize(
    ("name", "length"),
    [("text_frame_0020", 9), ("mat_frame_0022", 9), ("mat_frame_0022", 7)],
)
def test_motion_blur_never_reads_a_grid_a_cell_off(name, length):
    image, truth = render_frame(RenderSpec.from_json(SPECS[name]))
    reader = BoardReader()
    reading = reader.read(motion_blurred(image, length))
    if reading.board_found:
        assert reading.orientation == truth.orientation
        assert confident_wrong(reading.cells, truth.cells) == [], reader.located_by


def test_a_long_blur_does_not_make_the_locator_take_twelve_cells_for_ten():
    # 13 pixels of horizontal blur: the fitted outline's grid spanned 11.7 of the board's
    # cells along the blurred axis and read plausibly, with every chip past the middle a cell
    # off; its boundaries repeat 11.5 times across it, more than twice as clearly as 10 times
    image, truth = render_frame(RenderSpec.from_json(SPECS["text_frame_0018"]))
    reading = BoardReader().read(motion_blurred(image, 13))
    assert reading.board_found
    assert confident_wrong(reading.cells, truth.cells) == []


@pytest.mark.parametrize(
    ("name", "length", "diagonal"), [("text_frame_0002", 9, True), ("text_frame_0024", 13, False)]
)
def test_a_grid_with_chips_on_two_free_corners_is_not_reported(name, length, diagonal):
    # the blur made the fit take a grid with the wrong pitch (8 cells for 10, or half the
    # board); it read plausibly, but two of its "free corners" held chips: nobody plays there
    image, truth = render_frame(RenderSpec.from_json(SPECS[name]))
    reader = BoardReader()
    reading = reader.read(motion_blurred(image, length, diagonal))
    if reading.board_found:
        assert confident_wrong(reading.cells, truth.cells) == []
    assert any(t[1] == "chips on free corners" for t in reader._trials)


def test_blurred_emblems_on_free_corners_alike_do_not_refuse_the_board():
    # vertical blur: the cards art's corner emblems read as chips on two corners, but the four
    # corners look alike, so the right grid is still read
    image, truth = render_frame(RenderSpec.from_json(SPECS["cards_frame_0002"]))
    reading = BoardReader().read(motion_blurred(image, 9, vertical=True))
    assert reading.board_found
    assert confident_wrong(reading.cells, truth.cells) == []


def test_boundaries_repeating_eight_or_twelve_times_need_half_the_evidence():
    # far off pitches: twice as clear as 10 cycles suffices; 9 or 11 still need three times
    assert AxisShear(0.1, 0.1, 0.0, far_pitch=0.23).wrong_pitch
    assert not AxisShear(0.1, 0.1, 0.0, far_pitch=0.18).wrong_pitch
    assert not AxisShear(0.1, 0.1, 0.0, off_pitch=0.23).wrong_pitch
    assert not AxisShear(0.05, 0.05, 0.0, far_pitch=0.12).wrong_pitch  # too faint to tell


def test_blurred_mat_is_still_read_from_its_own_outline():
    # the copies of the mis-pitched grid moved by a whole cell are refused (their chips sit
    # across their cells, or a whole edge line is unreadable); the board's own outline, moved
    # by its chips' common offset, reads it
    image, truth = render_frame(RenderSpec.from_json(SPECS["mat_frame_0022"]))
    reader = BoardReader()
    reading = reader.read(motion_blurred(image, 9))
    assert reading.board_found
    assert "+shift" not in reader.located_by
    assert confident_wrong(reading.cells, truth.cells) == []
    assert sum(row.count("?") for row in reading.cells) <= 10
    refused = [t for t in reader._trials if t[1] in ("edge unreadable", "misplaced")]
    shifted = [t for t in reader._trials if "+shift" in t[0]]
    assert shifted and all(t in refused for t in shifted)


def test_moved_copy_names():
    assert _moved_copy("cells+shift(-1,0)")
    assert _moved_copy("outline+lens+shift(0,1)+moved")
    assert _moved_copy("outline+moved")
    assert not _moved_copy("outline")
    assert not _moved_copy("outline+lens")


@pytest.mark.parametrize("name", ["blurred_pips_cards_spec.json", "blurred_pips_cards_2_spec.json"])
def test_a_blurred_cards_boards_faint_red_pips_are_printing_not_a_washed_chip(name):
    """Two seen cards frames blurred by about a pixel, no glare: the bottom row's cards of
    many red pips blur into a pale pink tint below every colour class, a little of which
    survives the chip-core erosion (0.05-0.12 of the cell), and were read `?` ("no printing
    at all"). Blur washes out no chip; the board's black printing still shows dark."""
    from test_vision_support import spec_frame

    image, truth = spec_frame(name, written=True)
    reading = BoardReader().read(image)
    assert reading.board_found
    assert reading.cells == truth.cells
