"""What a board's own look puts on every cell alike is no cover: a fold crease along a whole row
of cells, a board whose gaps print a chip's colour, warm light that tints every printed red."""

from dataclasses import replace

import cv2
import numpy as np
from test_vision_support import STRAIGHT_CELL
from test_vision_support import straight_sevens as _board

from companion.vision import chips
from companion.vision.colour import ColourProfile

CW = CH = STRAIGHT_CELL


def test_a_crease_along_a_whole_row_is_the_boards_not_a_cover():
    img = _board()
    y = 4 * CH + CH - 3  # a brown fold line over the bottom ring of every cell of row 5
    img[y : y + 3, :] = (40, 90, 150)
    img[:, 1:3] = (40, 90, 150)  # ... and the grid a little off along the left edge
    feats = chips.measure(img, ColourProfile())
    assert feats.ring[4].min() > 0.05 and feats.ring[4, 0] > chips.RING_MAX  # a cover's?
    assert feats.ring_off_lines[4].max() < 0.02  # ... no: the board's lines explain it
    symbols, _ = chips.classify(feats)
    assert (symbols[4, :9] == ".").all()
    # without the lines taken off, the edge cell where both meet reads as covered once it
    # shows a little skin (a weakly foreign border on a clean cell is no cover on its own)
    skin = feats.skin.copy()
    skin[4, 0] = 0.06
    assert chips.classify(replace(feats, skin=skin))[0][4, 0] == "."
    symbols, _ = chips.classify(replace(feats, ring_off_lines=None, skin=skin))
    assert symbols[4, 0] == "?"


def test_a_cell_showing_a_hands_skin_keeps_its_whole_border_beside_a_line():
    # measured on a rendered frame with hands (text, seed 9494911 frame 38, B9): an arm lying
    # along a row lines up as a "line" with it, and taking that off left a blue chip under the
    # hand's edge (0.06 blue showing, skin over 0.17 of the cell) with 0.28 of its border
    # foreign, below a cover's 0.3: it read empty
    feats = chips.measure(_board(), ColourProfile())
    ring, lines, skin = feats.ring.copy(), np.zeros((10, 10), np.float32), feats.skin.copy()
    ring[8, 1], lines[8, 1], skin[8, 1] = 0.32, 0.28, 0.17
    under_hand = replace(feats, ring=ring, ring_inside=ring, ring_off_lines=lines, skin=skin)
    why = {}
    symbols, _ = chips.classify(under_hand, why=why)
    assert symbols[8, 1] == "?" and why["foreign_border"][8, 1]
    skin[8, 1] = 0.0  # the same border on a card that shows no skin is the board's line
    assert chips.classify(replace(under_hand, skin=skin))[0][8, 1] == "."


def test_a_foreign_border_on_a_few_cells_is_still_a_cover():
    img = _board()
    img[3 * CH - 6 : 5 * CH + 6, 3 * CW - 6 : 5 * CW + 6] = (60, 110, 190)  # a sleeve over 4
    cv2.rectangle(img, (3 * CW + 3, 3 * CH + 3), (5 * CW - 4, 5 * CH - 4), (232, 236, 238), -1)
    feats = chips.measure(img, ColourProfile())
    # the sleeve's edge lies on the borders of the cells around, not along whole lines
    assert feats.ring_off_lines is None or feats.ring_off_lines[2, 3] > 0.2
    symbols, _ = chips.classify(feats)
    assert symbols[2, 3] == "?" and symbols[5, 4] == "?"


def test_a_strip_over_all_of_an_edge_column_is_no_line():
    # a grid a cell off: its edge column on the table, foreign all round each cell there
    foreign = np.zeros((10, 10, 40), bool)
    foreign[:, 9] = True
    assert chips.off_board_lines(foreign.reshape(100, 40)) is None  # the border as it is
    # ... while a thin line along the same column is the board's
    foreign[:, 9] = False
    foreign[:, 9, :8] = True
    assert chips.off_board_lines(foreign.reshape(100, 40)).max() == 0


def test_a_navy_boards_gaps_on_a_chips_border_are_the_boards_but_a_card_back_is_no_chip():
    img = _board()
    cv2.circle(img, (4 * CW + CW // 2, 4 * CH + CH // 2), 8, (170, 70, 20), -1)  # a blue chip
    cv2.rectangle(img, (6 * CW + 3, 6 * CH + 3), (7 * CW - 4, 7 * CH - 4), (170, 70, 20), -1)
    feats = chips.measure(img, ColourProfile())
    ring_chip = np.full((10, 10), 0.55, np.float32)  # the navy gaps read blue all round
    ring_chip[4, 4] = ring_chip[6, 6] = 0.8  # the chip over its border; a blue card's back
    why = {}
    symbols, _ = chips.classify(replace(feats, ring_chip=ring_chip), why=why)
    assert symbols[4, 4] == "B"
    assert symbols[6, 6] == "?" and why["colour_on_border"][6, 6]  # it fills more than a disc
    plain = np.zeros((10, 10), np.float32)  # a grey board: that much blue is more than a chip
    plain[4, 4] = 0.8
    symbols, _ = chips.classify(replace(feats, ring_chip=plain))
    assert symbols[4, 4] == "?"


def test_warm_light_lets_a_big_printed_pip_show_the_boards_skin():
    img = _board()
    cv2.circle(img, (4 * CW + CW // 2, 4 * CH + CH // 2), 5, (40, 40, 210), -1)  # an ace's pip
    feats = chips.measure(img, ColourProfile())
    assert chips.classify(feats)[0][4, 4] == "."
    warm = np.full((10, 10), 0.12, np.float32)  # warm light: skin-coloured edges everywhere
    symbols, _ = chips.classify(replace(feats, skin=warm))
    assert symbols[4, 4] == "."
    cold = np.zeros((10, 10), np.float32)
    cold[4, 4] = 0.12  # the same skin on that cell alone: an orange-leaning red chip's
    symbols, _ = chips.classify(replace(feats, skin=cold))
    assert symbols[4, 4] != "."
