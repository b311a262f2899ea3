"""A chip under a hand reads `?`, never empty nor another colour: the hand and cover rules of
``chips.classify`` on drawn grid images (measured features changed where a drawing cannot make
them) and on rendered frames with hands (dev seeds)."""

from dataclasses import replace

import cv2
import numpy as np
import pytest
from test_vision_support import STRAIGHT_CELL
from test_vision_support import straight_sevens as _grid

from companion.vision import chips
from companion.vision.colour import ColourProfile

CW = CH = STRAIGHT_CELL
BLUE, GREEN = (170, 70, 20), (40, 150, 30)


def _sliver(img, r, c, bgr, height=4):
    """A bar of chip colour across the middle of a cell, thinner than the erosion keeps: what
    shows of a chip between two fingers over it."""
    x, y = c * CW, r * CH + CH // 2 - height // 2
    cv2.rectangle(img, (x + 4, y), (x + CW - 5, y + height - 1), bgr, -1)


def _classify(feats):
    why = {}
    symbols, _ = chips.classify(feats, why=why)
    return symbols, why


def _covered(feats, cell):
    """The features with a hand over ``cell``: skin all over it, no card white left."""
    skin, white = feats.skin.copy(), feats.white.copy()
    skin[cell], white[cell] = 0.9, 0.3
    return replace(feats, skin=skin, white=white)


def test_blue_between_fingers_is_a_chip_seen_in_part_unless_the_board_shows_as_much():
    img = _grid()
    _sliver(img, 4, 4, BLUE)
    feats = chips.measure(img, ColourProfile())
    # thin: the erosion removes it, so it is no chip; more than a text board's empty cells show
    assert feats.chip["B"][4, 4] < chips.EMPTY_MAX
    assert feats.raw["B"][4, 4] >= chips.PART_BG_MIN
    symbols, why = _classify(feats)
    assert symbols[4, 4] == "?" and why["part_chip_bg"][4, 4]
    assert (symbols[chips.CORNERS] == ".").all() and (symbols == "?").sum() == 1
    # a board whose own empty cells all show as much blue (a card art's pictures) reads it
    # as one of them
    pictures = _grid()
    for r in range(1, 9):
        for c in range(1, 9):
            _sliver(pictures, r, c, BLUE)
    symbols, _ = _classify(chips.measure(pictures, ColourProfile()))
    assert symbols[4, 4] == "."
    # ... and half as much blue on a text board is a neighbour's chip reaching in, not a chip
    img = _grid()
    _sliver(img, 4, 4, BLUE, height=2)
    assert _classify(chips.measure(img, ColourProfile()))[0][4, 4] == "."


def test_a_picture_cards_own_blue_robe_is_no_chip_seen_in_part():
    faces = np.zeros((10, 10), bool)
    faces[[1, 2, 6, 7, 7, 8, 2, 5, 4], [6, 7, 1, 2, 8, 3, 9, 6, 4]] = True  # kings and queens
    img = _grid()
    for r, c in zip(*np.nonzero(faces), strict=True):
        _sliver(img, r, c, BLUE)  # the blue robe each of them prints
    feats = chips.measure(img, ColourProfile())
    assert feats.raw["B"][4, 4] >= chips.PART_BG_MIN
    # with the orientation unknown, blue beyond the board's empty cells is a chip seen in part
    symbols, why = _classify(feats)
    assert symbols[4, 4] == "?" and why["part_chip_bg"][4, 4]
    # ... once the picture cards are known, as much blue as their own pictures show is theirs
    symbols, _ = chips.classify(feats, faces=faces)
    assert (symbols[faces] == ".").all()
    # ... and clearly more on one of them is still a chip seen in part
    _sliver(img, 4, 4, BLUE, height=6)
    symbols, _ = chips.classify(chips.measure(img, ColourProfile()), faces=faces)
    assert symbols[4, 4] == "?"


def test_a_little_blue_under_a_broad_tint_or_skin_is_a_chip_between_fingers():
    # measured on a rendered frame (text hands set 7850001, frame 41, H1): a blue chip between
    # two dark fingers shows 0.14 blue inside a broad tint over 0.5 of the cell; a green one
    # under pale fingers (cards set 7860001, frame 39, A6) 0.11 green under skin over 0.61
    img = _grid()
    _sliver(img, 4, 4, BLUE, height=3)
    feats = chips.measure(img, ColourProfile())
    assert chips.NEAR_RAW_BG <= feats.raw["B"][4, 4] < chips.PART_BG_MIN
    assert _classify(feats)[0][4, 4] == "."  # alone: a neighbour's chip reaching in
    tint = np.zeros((10, 10), np.float32)
    tint[4, 4] = 0.5
    symbols, why = _classify(replace(feats, tinted_blob=tint))
    assert symbols[4, 4] == "?" and why["part_chip_bg"][4, 4]
    skin = feats.skin.copy()
    skin[4, 4] = 0.61
    symbols, why = _classify(replace(feats, skin=skin))
    assert symbols[4, 4] == "?" and why["part_chip_bg"][4, 4]


def test_a_hand_spreads_its_cover_over_the_cells_its_skin_crosses():
    feats = _covered(chips.measure(_grid(), ColourProfile()), (4, 3))
    ring = feats.ring.copy()
    ring[4, 5] = 0.2  # a faint sign of something foreign two cells from the cover
    feats = replace(feats, ring=ring, ring_inside=ring)
    symbols, _ = _classify(feats)
    assert symbols[4, 3] == "?" and symbols[4, 5] == "."  # too far from the cover
    # the hand runs on over (4, 4): skin over a third of it
    skin = feats.skin.copy()
    skin[4, 4] = 0.3
    symbols, why = _classify(replace(feats, skin=skin))
    assert symbols[4, 4] == "?" and why["next_to_cover"][4, 4]
    assert symbols[4, 5] == "?" and why["next_to_cover"][4, 5]
    # ... the cells beside it without any sign of the hand are read
    assert symbols[4, 6] == "." and symbols[3, 5] == "." and symbols[6, 4] == "."
    # skin at a cell's edge (a hand's shadow, a warm card) carries no cover on
    skin[4, 4] = 0.22
    symbols, _ = _classify(replace(feats, skin=skin))
    assert symbols[4, 4] == "?" and symbols[4, 5] == "."


def test_a_picture_cards_own_face_beside_a_hand_is_no_sign_of_the_hand():
    feats = _covered(chips.measure(_grid(), ColourProfile()), (4, 3))
    faces = np.zeros((10, 10), bool)
    faces[[1, 2, 6, 7, 7, 8, 2, 5, 4], [6, 7, 1, 2, 8, 3, 9, 6, 4]] = True  # (4, 4) by the hand
    skin = feats.skin.copy()
    skin[faces] = 0.27  # the faces these kings and queens print
    feats = replace(feats, skin=skin)
    # with the orientation (and so the picture cards) unknown, skin beside a cover is the hand's
    symbols, why = _classify(feats)
    assert symbols[4, 4] == "?" and why["next_to_cover"][4, 4]
    symbols, _ = chips.classify(feats, faces=faces)
    assert symbols[4, 4] == "." and symbols[4, 3] == "?"
    assert (symbols[faces] == ".").all()  # no face is taken for a hand
    # ... more skin on it than the board's faces show is the hand reaching over
    skin = skin.copy()
    skin[4, 4] = 0.45
    symbols, _ = chips.classify(replace(feats, skin=skin), faces=faces)
    assert symbols[4, 4] == "?"
    # a rank-and-suit board prints no faces: its picture cards keep the plain level
    plain = feats.skin.copy()
    plain[faces] = 0.0
    plain[4, 4] = 0.27
    symbols, _ = chips.classify(replace(feats, skin=plain), faces=faces)
    assert symbols[4, 4] == "?"


def test_a_chip_held_over_another_beside_a_hand_is_unknown():
    img = _grid()
    cv2.circle(img, (4 * CW + 14, 4 * CH + 12), 8, GREEN, -1)  # the chip on the board
    cv2.circle(img, (4 * CW + 8, 4 * CH + 12), 8, BLUE, -1)  # the one held over it
    feats = chips.measure(img, ColourProfile())
    assert feats.raw["G"][4, 4] > chips.NEAR_RAW_MIXED  # two chip colours in the cell
    symbols, _ = _classify(feats)
    assert symbols[4, 4] == "B"  # alone, the dominant colour is read ...
    symbols, why = _classify(_covered(feats, (4, 3)))
    assert symbols[4, 4] == "?" and why["next_to_cover"][4, 4]  # ... beside a hand it is not
    # a single chip beside the hand is read
    img = _grid()
    cv2.circle(img, (4 * CW + 12, 4 * CH + 12), 8, BLUE, -1)
    assert _classify(_covered(chips.measure(img, ColourProfile()), (4, 3)))[0][4, 4] == "B"


def test_part_of_a_disc_with_skin_and_a_foreign_border_is_a_chip_in_fingertips():
    # measured on a rendered frame (text hands dev set 7612011, frame 3, G1): a blue chip held
    # by fingertips over an empty cell keeps 0.45 of its colour through the erosion (a
    # placed chip: 0.6 or more), with skin over 0.09 of the cell, none broad enough to survive
    # the erosion, and 0.25 of its border foreign
    img = _grid()
    cv2.circle(img, (4 * CW + 12, 4 * CH + 12), 8, BLUE, -1)
    feats = chips.measure(img, ColourProfile())
    cell = (4, 4)
    skin, ring, raw_blue = feats.skin.copy(), feats.ring.copy(), feats.raw["B"].copy()
    skin[cell], ring[cell] = 0.09, 0.25
    skin_blob = np.zeros((10, 10), np.float32)
    fringe = replace(feats, skin=skin, ring=ring, skin_blob=skin_blob)
    assert _classify(fringe)[0][cell] == "B"  # a whole disc with an orange fringe is a chip
    raw_blue[cell] = feats.chip["B"][cell] / 0.45
    held = replace(fringe, raw={**feats.raw, "B": raw_blue})
    symbols, why = _classify(held)
    assert symbols[cell] == "?" and why["hand_at_chip"][cell]


def test_a_chip_sized_tint_beside_a_hand_is_unknown_not_an_empty_card():
    # measured on a rendered frame (text hands dev set 7612011, frame 59, B1): a green chip
    # seen through a hand's translucent, motion-blurred edge shows 0.02 green, yet a broad
    # tint as big as a chip's core (0.34 after an erosion by a disc of ~0.36 cell)
    feats = chips.measure(_grid(), ColourProfile())
    disc = np.zeros((10, 10), np.float32)
    disc[4, 4] = 0.34
    feats = replace(feats, tinted_disc=disc, tinted_blob=disc)
    assert _classify(feats)[0][4, 4] == "."  # alone: no sign of a chip
    symbols, why = _classify(_covered(feats, (4, 3)))
    assert symbols[4, 4] == "?" and why["next_to_cover"][4, 4]


RED = (40, 40, 200)


def test_a_chip_colour_beside_a_cell_filled_with_it_is_unknown():
    # measured on a rendered frame (cards, a loose red-backed card over three cells of a red
    # board): the back's dense pattern fills one cell with red (0.99 of it) and survives a
    # chip core's erosion in the next ones (0.24 and 0.6 red), read as red chips
    img = _grid()
    cv2.rectangle(img, (4 * CW, 4 * CH), (5 * CW - 1, 5 * CH - 1), RED, -1)  # the card's back
    cv2.circle(img, (5 * CW + 12, 4 * CH + 12), 8, RED, -1)  # red beside it
    cv2.circle(img, (5 * CW + 12, 5 * CH + 12), 8, BLUE, -1)  # a blue chip beside it
    cv2.circle(img, (8 * CW + 12, 7 * CH + 12), 8, RED, -1)  # a red chip away from it
    feats = chips.measure(img, ColourProfile())
    assert feats.raw["R"][4, 4] > chips.RAW_MAX  # no chip fills its cell
    symbols, why = _classify(feats)
    assert symbols[4, 4] == "?" and why["colour_everywhere"][4, 4]
    assert symbols[4, 5] == "?" and why["cover_colour"][4, 5]
    assert symbols[5, 5] == "B" and symbols[7, 8] == "R"


# rendered frames with hands (`companion render --hands H --board-share 0.3-0.95`, dev seeds):
# seed, frame, art, hands, canonical cell hidden under the hand, its chip
HIDDEN_CHIPS = [
    (7612011, 29, "text", 1.0, "A2", "B"),  # a blue chip half under pale fingers
    (7810001, 35, "text", 0.6, "J4", "R"),  # a red chip under a finger beside the hand
]


@pytest.mark.parametrize(("seed", "index", "art", "hands", "cell", "chip"), HIDDEN_CHIPS)
def test_a_rendered_chip_under_a_hand_is_unknown(seed, index, art, hands, cell, chip):
    from test_vision_support import cli_frame, confidently_wrong

    from companion.vision import BoardReader

    image, truth = cli_frame(seed, index, art, hands=hands, board_share=(0.3, 0.95))
    r, c = int(cell[1:]) - 1, "ABCDEFGHIJ".index(cell[0])
    assert truth.occluded[r][c] and truth.cells[r][c] == chip
    reading = BoardReader().read(image)
    assert reading.board_found and reading.orientation == truth.orientation
    assert reading.cells[r][c] == "?"
    assert confidently_wrong(reading, truth.cells) == []
