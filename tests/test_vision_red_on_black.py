"""Red on a black suit's card (companion.vision.red_on_black): a cell left unknown only for
doubts between red ink and a red chip, on a card that prints no red, holds a red chip; any
sign of a cover, too little red or another colour leaves it unknown."""

from __future__ import annotations

import numpy as np
import pytest
from test_vision_support import independent_frame, spec_frame

from companion.vision import BoardReader
from companion.vision.layout import CLASSIC_INK, black_suit_cells
from companion.vision.pipeline import to_canonical_grid
from companion.vision.red_on_black import RED_ON_BLACK_MIN, red_chips_on_black

B2 = (1, 1)  # canonical row 2, column B: the 5 of clubs
E6 = (5, 4)  # the 2 of hearts


@pytest.mark.parametrize("orientation", [0, 90, 180, 270])
def test_black_suit_cells_follow_the_layout_in_every_orientation(orientation):
    screen = black_suit_cells(orientation=orientation)
    canon = to_canonical_grid(screen, orientation)
    assert (canon == (np.array([list(r) for r in CLASSIC_INK]) == "k")).all()


def _unknown_at(cell, causes=("undecided",), red=0.45, orientation=0):
    """Screen-order inputs for one unknown cell (given in canonical order)."""
    k = -(orientation // 90)
    mark = np.zeros((10, 10), bool)
    mark[cell] = True
    mark = np.rot90(mark, k)
    symbols = np.where(mark, "?", ".")
    why = {code: mark.copy() for code in causes}
    why["_veiled"] = mark.copy()  # diagnostic masks say nothing
    return symbols, why, np.where(mark, red, 0.0), np.ones((10, 10), bool), mark


@pytest.mark.parametrize("orientation", [0, 90, 180, 270])
@pytest.mark.parametrize(
    "causes",
    [("undecided",), ("pink_disc",), ("glare", "undecided"), ("washed_red",), ("red_on_black",)],
)
def test_red_doubts_on_a_black_suit_are_a_red_chip(orientation, causes):
    symbols, why, red, top, mark = _unknown_at(B2, causes, orientation=orientation)
    assert (red_chips_on_black(symbols, why, red, top, orientation) == mark).all()


@pytest.mark.parametrize(
    "change",
    [
        dict(cell=E6),  # a red suit's card prints red: ink or chip stays a question
        dict(causes=("undecided", "next_to_cover")),  # a hand beside it
        dict(causes=("boundaries_gone",)),  # a card lying over it
        dict(causes=("pink_disc", "hand_at_chip")),  # fingers on a chip
        dict(red=RED_ON_BLACK_MIN - 0.01),  # a fringe of red, not a chip's disc
    ],
)
def test_other_signs_or_other_cards_leave_the_cell_unknown(change):
    cell = change.pop("cell", B2)
    symbols, why, red, top, _ = _unknown_at(cell, **change)
    assert not red_chips_on_black(symbols, why, red, top, 0).any()


@pytest.mark.parametrize("causes", [("pink_disc",), ("washed_red",), ("pink_disc", "washed_red")])
def test_doubts_only_a_red_chips_disc_raises_are_a_red_chip_on_any_card(causes):
    symbols, why, red, top, mark = _unknown_at(E6, causes)
    assert (red_chips_on_black(symbols, why, red, top, 0) == mark).all()


@pytest.mark.parametrize(
    "causes", [("pink_disc", "undecided"), ("washed_red", "glare"), ("pink_disc", "hand_at_chip")]
)
def test_on_a_red_suits_card_any_other_doubt_leaves_the_cell_unknown(causes):
    symbols, why, red, top, _ = _unknown_at(E6, causes)
    assert not red_chips_on_black(symbols, why, red, top, 0).any()


def test_a_red_chip_veiled_by_glare_on_a_red_suits_card_reads_red():
    """An independent frame (jax4 frame 90): two red chips under a veil of glare keep only
    their rims' red and a broad pale tint (`washed_red`), on the king and the nine of hearts:
    `?` before, red chips now; the board reads exactly."""
    import json
    from pathlib import Path

    import cv2

    data = Path(__file__).parent / "data" / "independent"
    truth = json.loads((data / "jax4_frame_0090.json").read_text())
    reading = BoardReader().read(cv2.imread(str(data / "jax4_frame_0090.jpg")))
    assert truth["cells"][5][6] == "R" and truth["cells"][6][4] == "R"
    assert reading.cells == truth["cells"]


def test_no_red_chip_read_so_on_a_board_showing_red_around_its_cards():
    """A maroon board seen inside the cells of a grid a little off fills a quarter of a black
    card with red: a seen frame (portrait cards) read a queen of clubs as a red chip."""
    symbols, why, red, top, mark = _unknown_at(B2)
    white_gaps = np.full((10, 10), 0.02)
    assert (red_chips_on_black(symbols, why, red, top, 0, ring_red=white_gaps) == mark).all()
    red_board = np.full((10, 10), 0.57)
    assert not red_chips_on_black(symbols, why, red, top, 0, ring_red=red_board).any()


def test_red_doubts_on_a_black_suit_under_a_hand_s_skin_are_no_red_chip():
    """Fingers on a black suit's card raised no sign of a cover, and their skin reads red
    where it meets the card: a green chip under a hand (never-seen text frame 218 of `companion
    render --seed 77477 --art text --hands 0.2`) and an empty card (cards seed 77577 frame 90)
    were read red. With skin over that much of the cell, the doubt stands."""
    symbols, why, red, top, mark = _unknown_at(B2)
    none = np.zeros((10, 10))
    assert (red_chips_on_black(symbols, why, red, top, 0, skin=none) == mark).all()
    fingers = np.where(mark, 0.18, 0.0)
    assert not red_chips_on_black(symbols, why, red, top, 0, skin=fingers).any()


def test_rendered_skin_on_a_black_suit_s_card_is_no_red_chip():
    """The never-seen frame itself: E1, a green chip under a hand on a black suit's card,
    reads `?` (red before), and no cell is read wrong."""
    from test_vision_support import cli_frame, confidently_wrong

    image, truth = cli_frame(77477, 218, "text", hands=0.2, board_share=(0.3, 0.95))
    reading = BoardReader().read(image)
    assert truth.cells[0][4] == "G" and reading.cells[0][4] == "?"
    assert confidently_wrong(reading, truth.cells) == []


def test_red_that_is_not_the_strongest_chip_colour_is_no_red_chip():
    symbols, why, red, _, mark = _unknown_at(B2)
    assert not red_chips_on_black(symbols, why, red, ~mark, 0).any()


def test_a_red_chip_turned_pink_by_glare_on_a_black_suit_reads_red():
    """A seen text frame under glare (0.82) and blur (1.1 px): a red chip on the 6 of spades
    (F1) turned pink read `?` (pink_disc); spades print no red."""
    image, truth = spec_frame("red_on_black_pink_text_spec.json", written=True)
    reading = BoardReader().read(image)
    assert reading.board_found
    assert reading.cells == truth.cells
    assert reading.cells[0][5] == "R"


def test_a_pink_chip_whose_red_is_no_round_disc_on_a_black_suit_reads_red():
    """An independent frame (mixed6 frame 64): a red chip washed pink over the seven of spades
    (B9), its red no round disc as wide as a chip (its rim lost to the card's white), was left
    `?` by the look at red read as ink (``red_on_black``); spades print no red."""
    reading, truth = independent_frame("mixed6_frame_0064")
    assert truth["cells"][8][1] == "R"
    assert reading.cells == truth["cells"]
