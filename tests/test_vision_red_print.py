"""Bold printed hearts and diamonds as big as a chip are printing, not red chips."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from test_vision_support import read_found_right

from companion.render.suits import draw_suit
from companion.vision.chip_shapes import blob_inner_circle, board_chip_width
from companion.vision.chips import CellShape
from companion.vision.red_print import chips_read_as_ink, red_print

W, H = 30, 24  # a grid image's cell
SHAPE = CellShape(W, H)


def _masks(marks: dict[tuple[int, int], str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(symbols, red mask, blue/green mask)`` of a grid image with, per cell, ``"disc"`` (a red
    chip), ``"heart"`` or ``"diamond"`` (bold red print as wide as a chip) or ``"bg"`` (a blue
    or green chip)."""
    red = np.zeros((10 * H, 10 * W), np.uint8)
    bg = np.zeros_like(red)
    symbols = np.full((10, 10), ".", "<U1")
    for (r, c), kind in marks.items():
        centre = ((c + 0.5) * W, (r + 0.5) * H)
        chip = round(0.39 * H)  # a chip is ~0.78 of the cell's shorter side wide
        if kind == "disc":
            cv2.circle(red, (round(centre[0]), round(centre[1])), chip, 255, -1)
            cv2.circle(red, (round(centre[0]) - 3, round(centre[1]) - 3), 2, 0, -1)  # highlight
        elif kind == "bg":
            cv2.circle(bg, (round(centre[0]), round(centre[1])), chip, 255, -1)
        else:
            suit = {"heart": "H", "diamond": "D"}[kind]
            ink = np.zeros((10 * H, 10 * W, 3), np.uint8)
            draw_suit(ink, suit, centre, 0.68 * H, (255, 255, 255))
            red = np.maximum(red, ink[..., 0])
        symbols[r, c] = "G" if kind == "bg" else "R"
    return symbols, (red > 127).astype(np.uint8) * 255, bg


def test_inner_circle_of_a_disc_is_its_width_and_area():
    symbols, red, _ = _masks({(4, 4): "disc"})
    diameter, area = blob_inner_circle(red, 4, 4, SHAPE)
    radius = round(0.39 * H)
    assert diameter == pytest.approx(2 * radius, abs=2.0)
    # the highlight's hole is filled: the whole disc counts
    assert area == pytest.approx(np.pi * radius * radius, rel=0.1)
    assert blob_inner_circle(red, 0, 0, SHAPE) == (0.0, 0.0)


@pytest.mark.parametrize("with_bg_chips", [True, False])
def test_bold_hearts_and_diamonds_on_red_cards_are_printing(with_bg_chips):
    marks = {(2, 5): "heart", (2, 6): "diamond", (4, 4): "disc", (5, 5): "disc", (1, 1): "heart"}
    if with_bg_chips:
        marks.update({(7, 1): "bg", (8, 2): "bg", (6, 0): "bg"})
    symbols, red, bg = _masks(marks)
    red_cards = np.zeros((10, 10), bool)
    red_cards[2, 5] = red_cards[2, 6] = red_cards[4, 4] = red_cards[5, 5] = True
    raw_bg = (bg > 0).reshape(10, H, 10, W).mean(axis=(1, 3))
    width = board_chip_width(bg, raw_bg, SHAPE)
    assert (width is not None) == with_bg_chips
    printed, doubtful = red_print(symbols, red, width, red_cards, SHAPE)
    flagged = printed | doubtful
    assert flagged[2, 5] and flagged[2, 6]  # bold print on red cards
    # a diamond is clearly no disc: printing, read empty, once the board's own blue and green
    # chips tell a chip's size; without them only doubtful (a small chip may look so)
    assert printed[2, 6] == with_bg_chips
    assert not flagged[4, 4] and not flagged[5, 5]  # red chips stay chips
    assert not flagged[1, 1]  # a black suit's card prints no red: red there is a chip


def test_nothing_to_look_at_without_red_readings():
    symbols = np.full((10, 10), ".", "<U1")
    red = np.zeros((10 * H, 10 * W), np.uint8)
    printed, doubtful = red_print(symbols, red, None, np.ones((10, 10), bool), SHAPE)
    assert not printed.any() and not doubtful.any()


def test_board_printing_bold_suits_reads_its_red_chips_and_no_hearts():
    """A printable board whose hearts and diamonds are as big as a chip (text art style 6),
    with 21 red chips: before, 11 bold hearts and diamonds read as red chips."""
    reading = read_found_right("bold_suits_red_chips_text_spec.json", most_unknown=3)
    assert sum(row.count("R") for row in reading.cells) >= 20


def test_portrait_cells_with_big_suits_read_no_hearts_as_chips():
    """Portrait cells (0.65 as wide as tall) whose big suits fill the cell's width: before, 22
    hearts and diamonds read as red chips."""
    read_found_right("portrait_cells_big_suits_text_spec.json", most_unknown=16)


def test_red_read_as_ink_that_is_a_chips_disc():
    """A red chip dark in dim light, or holed by its highlight, keeps too little of its red
    through the erosion and reads as bold ink. On a black suit's pip card, which prints no red,
    its round disc is a chip, and red there that is no disc is unknown; on a card printed red
    a disc as wide as a chip is a chip, and a bold heart stays printing."""
    marks = {(4, 4): "disc", (5, 5): "heart", (6, 6): "disc", (3, 3): "heart"}
    marks.update({(7, 1): "bg", (8, 2): "bg"})
    symbols, red, bg = _masks(marks)
    raw_bg = (bg > 0).reshape(10, H, 10, W).mean(axis=(1, 3))
    width = board_chip_width(bg, raw_bg, SHAPE)
    ink = np.zeros((10, 10), bool)
    ink[4, 4] = ink[5, 5] = ink[6, 6] = ink[3, 3] = True
    red_share = np.where(ink, 0.4, 0.0)
    no_red = np.ones((10, 10), bool)
    no_red[6, 6] = no_red[3, 3] = False  # cards printed red
    top = np.ones((10, 10), bool)
    chips, doubtful = chips_read_as_ink(
        ink, red_share, top, red, width, no_red, np.zeros((10, 10), bool), SHAPE
    )
    assert chips[4, 4] and not doubtful[4, 4]
    assert doubtful[5, 5] and not chips[5, 5]
    assert chips[6, 6] and not doubtful[6, 6]
    assert not chips[3, 3] and not doubtful[3, 3]
    # too little red for a chip, or no chip of the board's own to measure: nothing / unknown
    chips, doubtful = chips_read_as_ink(
        ink, red_share / 4, top, red, width, no_red, np.zeros((10, 10), bool), SHAPE
    )
    assert not chips.any() and not doubtful.any()
    chips, doubtful = chips_read_as_ink(
        ink, red_share, top, red, None, no_red, np.zeros((10, 10), bool), SHAPE
    )
    assert not chips.any() and doubtful[4, 4] and not doubtful[6, 6]
    # an ace's one big pip may be as wide and round as a chip: left
    chips, doubtful = chips_read_as_ink(ink, red_share, top, red, width, no_red, ~no_red, SHAPE)
    assert not chips[6, 6] and not doubtful[6, 6] and chips[4, 4]
    # a disc as wide as a chip but not quite round (a tilted chip, its side wall) on a card
    # printing no red is a chip too
    chip = round(0.39 * H)
    cv2.ellipse(red, (round(2.5 * W), round(2.5 * H)), (chip + 3, chip - 1), 0, 0, 360, 255, -1)
    ink[2, 2] = True
    chips, doubtful = chips_read_as_ink(
        ink, np.where(ink, 0.4, 0.0), top, red, width, no_red, np.zeros((10, 10), bool), SHAPE
    )
    assert chips[2, 2] and not doubtful[2, 2]
