"""Chips pushed off their cells' centres (companion.vision.off_centre): a cell left unknown only
for being neither clearly a chip nor clearly printing reads the blue or green chip whose disc's
centre lies inside it; a neighbour's chip spilling over the line does not count."""

import cv2
import numpy as np
from test_vision_support import spec_frame

from companion.vision import BoardReader
from companion.vision.off_centre import disc_centres, off_centre_chips

CELL = 24


def _disc_mask(*discs) -> np.ndarray:
    """An eroded colour mask of a 10x10 grid image with chip-sized discs centred at (row,
    col) in cells (fractions allowed: off-centre)."""
    mask = np.zeros((10 * CELL, 10 * CELL), np.uint8)
    for row, col in discs:
        centre = (int((col + 0.5) * CELL), int((row + 0.5) * CELL))
        cv2.circle(mask, centre, int(0.3 * CELL), 255, -1)
    return mask


def _reading(undecided, other_cause=()):
    symbols = np.full((10, 10), ".", dtype="<U1")
    why = {"undecided": np.zeros((10, 10), bool), "next_to_cover": np.zeros((10, 10), bool)}
    for cell in undecided:
        symbols[cell] = "?"
        why["undecided"][cell] = True
    for cell in other_cause:
        symbols[cell] = "?"
        why["next_to_cover"][cell] = True
    return symbols, why


def _raw(**shares):
    raw = {c: np.zeros((10, 10), np.float32) for c in "BGR"}
    for name, cells in shares.items():
        colour, share = name[0], float(name[1:]) / 100
        for cell in cells:
            raw[colour][cell] = share
    return raw


def test_disc_centres_finds_the_cell_of_each_chip_sized_disc_only():
    mask = _disc_mask((4, 4.35), (2, 6))
    cv2.rectangle(mask, (0, 0), (3, 3), 255, -1)  # a speck
    cv2.rectangle(mask, (0, 8 * CELL), (10 * CELL - 1, 8 * CELL + 15), 255, -1)  # a sleeve
    assert set(map(tuple, np.argwhere(disc_centres(mask)))) == {(4, 4), (2, 6)}


def test_a_blue_chip_off_its_cell_s_centre_reads_there_not_in_the_cell_it_spills_into():
    # the chip lies 0.35 cell right of (4, 4)'s centre: both cells show blue inside and on
    # their border, neither enough for a chip; its centre is in (4, 4)
    symbols, why = _reading([(4, 4), (4, 5)])
    raw = _raw(B30=[(4, 4)], B18=[(4, 5)])
    eroded = {"B": _disc_mask((4, 4.35)), "G": _disc_mask(), "R": _disc_mask()}
    out = off_centre_chips(symbols, why, raw, eroded)
    assert out[4, 4] == "B"
    assert out[4, 5] == ""
    assert (out != "").sum() == 1


def test_only_cells_unknown_for_that_doubt_alone_and_of_one_chip_colour_are_read():
    # (2, 2) also beside a cover; (6, 6) shows green and blue; (8, 3) is red (printed too)
    symbols, why = _reading([(6, 6), (8, 3)], other_cause=[(2, 2)])
    why["undecided"][2, 2] = True
    raw = _raw(G30=[(2, 2), (6, 6)], B10=[(6, 6)], R40=[(8, 3)])
    eroded = {
        "B": _disc_mask((6, 6)),
        "G": _disc_mask((2, 2), (6, 6)),
        "R": _disc_mask((8, 3)),
    }
    out = off_centre_chips(symbols, why, raw, eroded)
    assert (out == "").all()


def test_a_wrinkled_board_s_off_centre_chips_read_exact():
    """fin26 r0_cards frame 27: a cards board wrinkled so that its left columns' cards and
    chips lie up to 0.4 cell right of the grid; five chips were left `?` (`undecided`)."""
    image, truth = spec_frame("off_centre_chips_wrinkled_cards_spec.json", written=True)
    reading = BoardReader().read(image)
    assert reading.board_found
    assert reading.cells == truth.cells
