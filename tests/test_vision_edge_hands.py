"""A chip under a hand reaching in over the board's edge is `?`, never empty nor another colour:
the hand rules of ``chips.classify`` for what the skin class misses (``dark_hand``: skin too
dark for it, a dark-skinned hand or fingers in shadow, read as the board's dark ink;
``hand_over_chip``: skin over a cell with a sliver of blue or green showing), on drawn grid
images and on rendered frames of the dev sets where they read wrong."""

import cv2
import numpy as np
import pytest
from test_vision_support import STRAIGHT_CELL, cli_frame, confidently_wrong
from test_vision_support import straight_sevens as _grid

from companion.vision import BoardReader, chips
from companion.vision.causes import cause_kind, cause_text
from companion.vision.colour import DARK_MAX, ColourProfile, HueBand, colour_code
from companion.vision.packed import erode_bits_ellipse5

CW = CH = STRAIGHT_CELL
BLUE = (170, 70, 20)
DARK_SKIN = (38, 52, 80)  # the darkest skin the renderer draws (BGR)
PALE_SKIN = (140, 170, 222)


def _classify(img, faces=None):
    feats = chips.measure(img, ColourProfile())
    why = {}
    symbols, _ = chips.classify(feats, why=why, faces=faces)
    return feats, symbols, why


def _fingers(img, r, c, colour, shade):
    """Two fingers lying across cell (r, c) from its left side, each shaded darker below."""
    for k in range(2):
        y = r * CH + 7 + 9 * k
        cv2.line(img, (c * CW - 10, y), (c * CW + 15, y), colour, 6)
        cv2.line(img, (c * CW - 10, y + 3), (c * CW + 15, y + 3), shade, 2)


def test_a_dark_hand_over_a_chip_is_unknown_though_it_looks_like_ink():
    img = _grid()
    cv2.circle(img, (5 * CW + 12, 5 * CH + 12), 8, BLUE, -1)
    _fingers(img, 5, 5, DARK_SKIN, (25, 35, 55))
    feats, symbols, why = _classify(img)
    # the skin class sees none of it, and little blue shows: read empty before this rule
    assert feats.skin[5, 5] < chips.HAND_SKIN
    assert feats.dark_skin is not None and feats.dark_skin[5, 5] > chips.DARK_HAND
    assert symbols[5, 5] == "?" and why["dark_hand"][5, 5]
    # the cells it does not reach are read as they are
    assert symbols[2, 2] == "." and not why["dark_hand"][2, 2]


def test_black_printing_as_bold_as_fingers_is_no_dark_hand():
    img = _grid()
    _fingers(img, 5, 5, (40, 40, 40), (25, 25, 25))  # dark grey bars: printing, not skin
    feats, symbols, why = _classify(img)
    assert feats.dark_skin is None or feats.dark_skin[5, 5] <= chips.DARK_HAND
    assert not why["dark_hand"].any()


def test_dark_skin_follows_the_profiles_skin_hue():
    img = _grid()
    _fingers(img, 5, 5, DARK_SKIN, (25, 35, 55))
    hsv = cv2.cvtColor(chips.normalise(img)[0], cv2.COLOR_BGR2HSV)  # light divided out
    shape = chips.shape_of(img)

    def eroded(profile):  # the colour code with every class eroded, as measure makes it
        return erode_bits_ellipse5(colour_code(hsv, profile, DARK_MAX))

    found = chips.dark_skin(eroded(ColourProfile()), shape)
    assert found is not None and found[5, 5] > chips.DARK_HAND
    # a calibration whose skin band lies elsewhere (here: only yellow) finds none of it
    yellow = ColourProfile(skin=HueBand(26, 34))
    assert chips.dark_skin(eroded(yellow), shape) is None


def test_an_empty_board_shows_no_dark_skin():
    feats, symbols, _ = _classify(_grid())
    assert feats.dark_skin is None
    assert (symbols[~chips.CORNERS] == ".").all()


def _skin_over_chip(img, r, c):
    """Two pale fingers across cell (r, c), slivers of a blue chip showing between them."""
    cv2.circle(img, (c * CW + 12, r * CH + 12), 8, BLUE, -1)
    for y0, y1 in ((6, 9), (14, 17)):
        cv2.rectangle(img, (c * CW + 1, r * CH + y0), (c * CW + 22, r * CH + y1), PALE_SKIN, -1)


def test_skin_over_a_sliver_of_blue_is_a_chip_under_fingers():
    img = _grid()
    _skin_over_chip(img, 4, 4)
    feats, symbols, why = _classify(img)
    assert chips.HAND_SPREAD_SKIN <= feats.skin[4, 4] < chips.PALE_HAND
    assert chips.NEAR_RAW_BG <= feats.raw["B"][4, 4] < chips.EMPTY_RAW_BG_MAX
    assert feats.chip["B"][4, 4] < chips.EMPTY_MAX  # no solid part of it: it would read empty
    assert symbols[4, 4] == "?" and why["hand_over_chip"][4, 4]


def test_a_picture_cards_own_face_and_robe_are_no_hand_over_a_chip():
    img = _grid()
    _skin_over_chip(img, 4, 4)  # a face over a blue robe, printed on a king
    faces = np.zeros((10, 10), bool)
    faces[4, 4] = True
    _, symbols, why = _classify(img, faces=faces)
    assert not why["hand_over_chip"][4, 4]


def test_the_new_causes_are_named_as_hands_for_the_table():
    for code in ("dark_hand", "hand_over_chip", "fingers_at_edge"):
        assert cause_kind((code,)) == "hand"
        assert cause_text(code) != code.replace("_", " ")


# rendered frames where a hand over a chip read wrong before these rules
# (`companion render --seed S --art A --hands H --no-board 0 --board-share 0.3-0.95`):
# seed, frame, art, hands, canonical cells hidden under the hand
EDGE_HANDS = [
    # dark fingers over A8's blue chip at the board's edge, holding a red one (fin19 r_text)
    (8787911, 5, "text", 0.2, ["A8"]),
    # dark fingers holding a blue chip over J4's red one at the edge (fin19 r_mat)
    (8787914, 64, "mat", 0.2, ["J4"]),
    # pale fingers over E10's blue chip, a sliver of it showing (fin19 r_cards)
    (8787912, 11, "cards", 0.2, ["E10"]),
    # a dark hand over G1's blue chip, G2's red one beside it (dev set dv_cards)
    (7992001, 42, "cards", 1.0, ["G1", "G2"]),
]


@pytest.mark.parametrize(("seed", "index", "art", "hands", "cells"), EDGE_HANDS)
def test_a_rendered_chip_under_a_hand_at_the_edge_is_unknown(seed, index, art, hands, cells):
    image, truth = cli_frame(seed, index, art, hands=hands, board_share=(0.3, 0.95))
    reading = BoardReader().read(image)
    assert reading.board_found and reading.orientation == truth.orientation
    for name in cells:
        r, c = int(name[1:]) - 1, "ABCDEFGHIJ".index(name[0])
        assert truth.occluded[r][c] and truth.cells[r][c] in "BGR"
        assert reading.cells[r][c] == "?", name
    assert confidently_wrong(reading, truth.cells) == []


def test_a_chip_held_in_fingers_at_the_edge_is_unknown_not_placed():
    """fin19 r_text frame 70: fingers reaching in over the board's top edge hold a red chip
    over H1, an empty cell; the chip keeps its whole disc (solidity 0.51), the fingers' skin
    lies on it (0.10 of the cell) and the border is foreign where they cross it, beside the
    cell under the hand (skin over 0.77 of I1)."""
    image, truth = cli_frame(8787911, 70, "text", hands=0.2, board_share=(0.3, 0.95))
    reading = BoardReader().read(image)
    assert reading.board_found and reading.orientation == truth.orientation
    assert truth.occluded[0][7] and truth.cells[0][7] == "."
    assert reading.cells[0][7] == "?"
    assert "held_chip" in reading.unknown_reasons["H1"]
    assert confidently_wrong(reading, truth.cells) == []


def test_fingers_reaching_in_over_the_edge_are_no_red_chips():
    """A never-seen independent frame (seed 173, frame 15): a hand reaches in over a paper
    board's top edge, its fingertips on B1-D1 (empty cards of black suits). Their warm skin,
    with the light divided by the board's cool white, read red over most of C1 and D1 and
    solid enough for chips, with confidence 1.0; a cell's side facing the margin is not
    looked at for a cover. A chip is a disc on its cell: red with skin on it and no disc
    as wide as the board's chips, at the edge, is `?` (``fingers_at_edge``)."""
    import json

    from test_vision_support import DATA

    name = DATA / "independent" / "hands18_frame_0015"
    truth = json.loads(name.with_suffix(".json").read_text())
    reading = BoardReader().read(cv2.imread(str(name.with_suffix(".jpg"))))
    assert reading.board_found and reading.orientation == truth["orientation"]
    for r, c in [(r, c) for r in range(10) for c in range(10)]:
        assert reading.cells[r][c] in ("?", truth["cells"][r][c]), (r, c)
    assert {"C1", "D1"} <= set(reading.unknown_reasons)
    assert "fingers_at_edge" in reading.unknown_reasons["D1"]


def test_red_chips_at_the_edge_of_a_maroon_board_are_no_fingers():
    """Never-seen cards-art frame (`companion render --seed 77577 --art cards --hands 0.2
    --board-share 0.3-0.95`, frame 114): two big red chips side by side on the bottom row of
    a maroon board, no hand anywhere. The board's red gaps join their discs into one blob,
    twice its inner circle, as little round as fingers reaching in over the edge, and both
    were `?`; with the cells' red borders left out (the board's own red) they read red."""
    image, truth = cli_frame(77577, 114, "cards", hands=0.2, board_share=(0.3, 0.95))
    reading = BoardReader().read(image)
    assert reading.board_found and reading.orientation == truth.orientation
    assert not truth.occluded.any()
    assert [truth.cells[r][0] for r in (6, 7)] == ["R", "R"]
    assert reading.cells == truth.cells
