"""The pipeline on small frames from the project's renderer (both board arts).

Regression checks on a few fixed, easy-to-moderate scenes (board filling most of a 640x480
frame, 15 degree tilt, no hands, no glare); `companion eval` measures the hard cases.
"""

import numpy as np
import pytest
from test_vision_support import confidently_wrong

from companion.render import random_spec, render_frame
from companion.vision import BoardReader, analyze_image


def _frame(art, seed):
    spec = random_spec(
        np.random.default_rng(seed),
        art=art,
        hand=False,
        board_fraction=0.8,
        tilt_deg=15.0,
        size=(640, 480),
        glare=0.0,
    )
    return render_frame(spec)


@pytest.mark.parametrize("art,seed", [("text", 1), ("text", 3), ("cards", 1), ("cards", 2)])
def test_rendered_board_is_read_without_invented_chips(art, seed):
    image, truth = _frame(art, seed)
    reading = analyze_image(image)
    assert reading.board_found
    assert reading.orientation == truth.orientation
    wrong = confidently_wrong(reading, truth.cells)
    assert wrong == []
    assert sum(row.count("?") for row in reading.cells) <= 2
    assert np.max(np.linalg.norm(reading.corners - truth.corners, axis=1)) < 8


def test_reader_keeps_the_board_between_frames_and_straightens_it():
    image, truth = _frame("cards", 2)
    reader = BoardReader()
    first = reader.read(image)
    again = reader.read(image)
    assert again.cells == first.cells and again.notes == []
    top_down = reader.straighten(image, width=400)
    assert top_down.shape[1] == 400 and 200 < top_down.shape[0] < 400  # landscape cells


def test_a_playing_card_lying_over_chips_is_not_read_as_empty():
    """A loose card covers a blue chip (B7) and a red one (A9): unknown, never '.' or a chip."""
    cells = ["*BB.....R*", ".....G....", "...R......", "..........", "....GGR..."]
    cells += ["..........", ".B........", "..........", "R.........", "*......B.*"]
    spec = random_spec(
        np.random.default_rng(6),
        art="text",
        hand=False,
        board_fraction=0.8,
        tilt_deg=10.0,
        size=(640, 480),
        glare=0.0,
        orientation=90,
    )
    assert spec.board_cards == 1
    image, truth = render_frame(spec.with_frame(cells=tuple(cells)))
    reading = analyze_image(image)
    assert reading.board_found and reading.orientation == 90
    assert reading.cells[6][1] == "?" and reading.cells[8][0] == "?"
    wrong = confidently_wrong(reading, truth.cells)
    assert wrong == []
