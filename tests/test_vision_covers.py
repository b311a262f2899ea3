"""A chip under a loose card or a see-through hand reads `?`, never empty nor another colour:
the cover rules of ``chips.classify`` that need no other covered cell beside them
(``pale_patch``: a pale hand spread over several cells; ``print_gone``: a cell showing none of
its printing with a line gone; ``colour_over_corners``: one chip colour over a grid corner and
the four cells around it), on drawn grid images and on rendered frames of the dev sets where
they read wrong."""

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from test_vision_support import STRAIGHT_CELL, confidently_wrong
from test_vision_support import straight_sevens as _grid

from companion.vision import chips
from companion.vision.colour import ColourProfile

CW = CH = STRAIGHT_CELL
BLUE, GREEN = (170, 70, 20), (40, 150, 30)
CARD_WHITE = (236, 238, 240)


def _classify(img):
    feats = chips.measure(img, ColourProfile())
    why = {}
    symbols, _ = chips.classify(feats, why=why)
    return feats, symbols, why


def _pale_palm(img, r, c):
    """A pale, see-through palm over a cell: a broad light skin tint hiding its printing, a
    little stronger skin colour where it is thickest."""
    centre = (c * CW + 12, r * CH + 12)
    cv2.ellipse(img, centre, (9, 9), 0, 0, 360, (195, 210, 232), -1)
    cv2.ellipse(img, centre, (4, 4), 0, 0, 360, (150, 185, 225), -1)


def test_a_pale_hand_over_two_cells_hides_their_chip_on_its_own():
    img = _grid()
    cv2.circle(img, (5 * CW + 12, 5 * CH + 12), 8, BLUE, -1)  # a blue chip under the hand
    for cell in ((5, 5), (5, 6), (1, 1)):
        _pale_palm(img, *cell)
    feats, symbols, why = _classify(img)
    # too little skin for a hand in any one cell, no blue showing, no printing either
    assert chips.PALE_SKIN < feats.skin[5, 5] < chips.PALE_HAND
    assert feats.raw["B"][5, 5] < chips.EMPTY_MAX
    assert not why["pale_hand"][5, 5]
    assert symbols[5, 5] == "?" and symbols[5, 6] == "?"
    assert why["pale_patch"][5, 5] and why["pale_patch"][5, 6]
    # the same tint on one cell alone is a card's face picture (yellow reads as skin): read
    assert symbols[1, 1] == "." and not why["pale_patch"][1, 1]
    assert (symbols == "?").sum() == 2


def test_a_pale_patch_is_no_hand_where_the_printing_shows_through():
    img = _grid()
    for cell in ((5, 5), (5, 6)):
        _pale_palm(img, *cell)
        r, c = cell
        cv2.putText(img, "7", (c * CW + 4, r * CH + 16), cv2.FONT_HERSHEY_PLAIN, 0.9, (30, 30, 30))
    feats, symbols, why = _classify(img)
    assert (feats.dark + feats.red_ink)[5, 5] >= chips.PRINT_MIN
    assert symbols[5, 5] == "." and symbols[5, 6] == "."


def _card_over(img, r, c, over_line: bool):
    """A plain part of a loose card lying over cell (r, c), a sliver of its chip showing at the
    left; with ``over_line`` the card runs on over the cell's right line into the next cell."""
    x1 = (c + 1) * CW + 2 if over_line else (c + 1) * CW - 4
    cv2.rectangle(img, (c * CW + 6, r * CH + 1), (x1, (r + 1) * CH - 2), CARD_WHITE, -1)


def test_a_loose_card_hiding_a_chip_and_a_line_is_unknown_not_empty():
    img = _grid()
    cv2.circle(img, (4 * CW + 12, 4 * CH + 12), 8, GREEN, -1)
    _card_over(img, 4, 4, over_line=True)
    feats, symbols, why = _classify(img)
    # not blank (the chip's sliver), no printing at all, one line gone
    assert feats.content[4, 4] >= chips.BLANK_CONTENT and not why["blank"][4, 4]
    assert (feats.dark + feats.red_ink)[4, 4] < chips.PRINT_MIN
    assert feats.edges_missing[4, 4] >= 1
    assert symbols[4, 4] == "?" and why["print_gone"][4, 4]
    # the cell beside it, whose line the card hides, is beside a cover now
    assert symbols[4, 5] == "?" and why["next_to_cover"][4, 5]
    # the same card inside the cell, its four lines showing, is nothing this rule can tell
    # from an empty card (left to the signs of its border and its neighbours)
    img = _grid()
    cv2.circle(img, (4 * CW + 12, 4 * CH + 12), 8, GREEN, -1)
    _card_over(img, 4, 4, over_line=False)
    _, symbols, why = _classify(img)
    assert not why["print_gone"].any()


def test_a_card_printing_little_beside_a_faded_line_stays_empty():
    # a sparse card (a two: small pips, less printing than PRINT_MIN) whose right line faded:
    # it shows printing for this board (more than PRINT_GONE_SHARE of its typical card)
    img = _grid()
    cv2.rectangle(img, (4 * CW + 2, 4 * CH + 2), (5 * CW + 1, 5 * CH - 3), CARD_WHITE, -1)
    cv2.rectangle(img, (4 * CW + 8, 4 * CH + 8), (4 * CW + 9, 4 * CH + 10), (30, 30, 30), -1)
    cv2.circle(img, (4 * CW + 16, 4 * CH + 16), 1, GREEN, -1)  # a speck: not a blank card
    feats, symbols, why = _classify(img)
    printed = feats.dark + feats.red_ink
    assert 0 < printed[4, 4] < chips.PRINT_MIN and feats.edges_missing[4, 4] >= 1
    assert not why["blank"][4, 4]
    assert printed[4, 4] > chips.PRINT_GONE_SHARE * float(np.median(printed))
    assert symbols[4, 4] == "." and not why["print_gone"].any()
    assert (symbols == ".").all()


def test_one_colour_over_a_grid_corner_is_one_cover_not_four_chips():
    # a blue thing as big as two cells (a card's back, a coaster) centred on the corner the
    # four cells around (3..4, 3..4) share: each shows a chip-sized solid blue part
    img = _grid()
    cv2.circle(img, (4 * CW, 4 * CH), 22, BLUE, -1)
    feats, symbols, why = _classify(img)
    assert feats.corner_colour["B"][3, 3] >= chips.SIDE_COLOURED  # the corner point is blue
    assert (symbols[3:5, 3:5] == "?").all()
    assert why["colour_over_corners"][3:5, 3:5].all()
    assert not why["foreign_border"][3:5, 3:5].any()
    # four blue chips around the same corner leave the point itself free: four chips
    img = _grid()
    for r, c in ((3, 3), (3, 4), (4, 3), (4, 4)):
        cv2.circle(img, (c * CW + 12, r * CH + 12), 8, BLUE, -1)
    feats, symbols, why = _classify(img)
    assert feats.corner_colour["B"][3, 3] < chips.SIDE_COLOURED
    assert (symbols[3:5, 3:5] == "B").all() and not why["colour_over_corners"].any()


DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(
    ("spec_file", "hidden_chips"),
    [
        # a loose playing card over B6 B7 C7, its big pip at their corner standing in for the
        # lines between them (dev set fin18 r0_mat frame 51, mat art)
        ("loose_card_over_chips_spec.json", ["B6", "B7", "C7"]),
        # a pale, motion-blurred hand over H1 I1 H2, the chips showing through faintly (dev
        # set fin18 r_text frame 64, text art)
        ("see_through_hand_spec.json", ["H1", "I1", "H2"]),
        # a red card's back over A3..C4, its dense pattern solid enough to read as red chips
        # in all six cells (dev set fin17 mat frame 48)
        ("red_card_back_over_chips_spec.json", ["A3", "B3", "A4", "C4"]),
    ],
)
def test_rendered_chips_under_a_loose_card_or_a_see_through_hand_are_unknown(
    spec_file, hidden_chips
):
    from companion.render import RenderSpec, render_frame
    from companion.vision import BoardReader

    image, truth = render_frame(RenderSpec.from_json(json.loads((DATA / spec_file).read_text())))
    reading = BoardReader().read(image)
    assert reading.board_found and reading.orientation == truth.orientation
    for name in hidden_chips:
        r, c = int(name[1:]) - 1, "ABCDEFGHIJ".index(name[0])
        assert truth.cells[r][c] in "BGR" and truth.occluded[r][c]
        assert reading.cells[r][c] == "?", name
    assert confidently_wrong(reading, truth.cells) == []
    # the cover stays local: the cells far from it are read
    unknown = sum(row.count("?") for row in reading.cells)
    assert unknown <= 12


def test_weakly_foreign_borders_with_no_skin_and_every_line_showing_are_no_cover():
    """A seen cards frame with hands elsewhere but none here (seed 8888912, frame 51): seven
    cells around a corner, borders foreign over 0.32-0.38 of them (light across the gaps),
    no skin, every boundary line showing, read `?` as covered. A hand brings its skin onto a
    border; a sleeve or a card over one hides the line beneath it."""
    from test_vision_support import spec_frame

    from companion.vision import BoardReader

    image, truth = spec_frame("weak_borders_cards_spec.json", written=True)
    reading = BoardReader().read(image)
    assert reading.cells == truth.cells


def _read_why(feats, faces=None):
    """``chips.classify``'s reading of ``feats`` and its causes."""
    why = {}
    symbols, _ = chips.classify(feats, why=why, faces=faces)
    return symbols, why


def _bordered(feats, ring_at: dict, skin: float, skin_at: dict):
    """``feats`` with the border rings and skin shares given (all other cells' rings clean)."""
    ring = np.zeros((10, 10), np.float32)
    board_skin = np.full((10, 10), skin, np.float32)
    for cell, value in ring_at.items():
        ring[cell] = value
    for cell, value in skin_at.items():
        board_skin[cell] = value
    return replace(feats, ring=ring, skin=board_skin, ring_inside=None, ring_off_lines=None)


def test_a_weak_border_s_skin_is_judged_against_the_board_s_own_cards():
    # warm light turns every card a little skin-coloured (seen: a median of 0.025-0.05 of the
    # empty cards): a weakly foreign border (0.32) on a card showing 0.07 is no hand's edge
    # there, while on a board whose cards show none the same 0.07 may be
    feats = chips.measure(_grid(), ColourProfile())
    warm = _bordered(feats, {(4, 4): 0.32}, 0.045, {(4, 4): 0.07})
    symbols, why = _read_why(warm)
    assert symbols[4, 4] == "." and not why["foreign_border"].any()
    cool = _bordered(feats, {(4, 4): 0.32}, 0.0, {(4, 4): 0.07})
    symbols, why = _read_why(cool)
    assert symbols[4, 4] == "?" and why["foreign_border"][4, 4]
    # ... and far above the board's own level it is a hand's skin, warm light or not
    warm_hand = _bordered(feats, {(4, 4): 0.32}, 0.045, {(4, 4): 0.2})
    symbols, why = _read_why(warm_hand)
    assert symbols[4, 4] == "?" and why["foreign_border"][4, 4]


def test_a_free_corner_s_emblem_makes_no_weak_border_beside_it_a_cover():
    # the cards art's round emblem on a free corner shows a strange, skin-coloured border
    # (seen: 0.4 of it, skin 0.17); a weakly foreign border beside it stays the light's,
    # while beside a real cover (not a corner) the same weak border is the cover's edge
    feats = chips.measure(_grid(), ColourProfile())
    emblem = _bordered(feats, {(0, 0): 0.45, (0, 1): 0.32}, 0.0, {(0, 0): 0.17})
    symbols, why = _read_why(emblem)
    assert symbols[0, 1] == "." and not why["foreign_border"][0, 1]
    cover = _bordered(feats, {(0, 2): 0.45, (0, 1): 0.32}, 0.0, {(0, 2): 0.17})
    symbols, why = _read_why(cover)
    assert symbols[0, 1] == "?" and why["foreign_border"][0, 1]


@pytest.mark.parametrize(
    "spec_file",
    [
        # warm light (2,800 K): every card shows some skin colour; one empty card beside a
        # green chip pushed towards it shows 0.3 of its border foreign and 0.053 skin (fresh
        # set fin31 seed 6161922, frame 0)
        "weak_border_warm_cards_spec.json",
        # an empty card beside the free corner, its border 0.32 foreign, beside the corner's
        # emblem (border 0.4 foreign, skin 0.17) (fin31 seed 6161922, frame 1)
        "weak_border_by_corner_cards_spec.json",
    ],
)
def test_rendered_weak_borders_by_warm_light_or_a_corner_s_emblem_are_no_cover(spec_file):
    """Fresh hand-free frames exact but for an empty card with a weakly foreign border and
    the chip beside it, both `?`."""
    from test_vision_support import spec_frame

    from companion.vision import BoardReader

    image, truth = spec_frame(spec_file, written=True)
    reading = BoardReader().read(image)
    assert reading.cells == truth.cells


FACES = np.zeros((10, 10), bool)
FACES[[1, 2, 6, 7, 7, 8, 2, 5, 4], [6, 7, 1, 2, 8, 3, 9, 6, 4]] = True  # kings and queens


def _faces_showing_skin(feats, skin_at: dict):
    """``feats`` of a cards board whose picture cards print faces: skin over 0.2 of each
    (0.16-0.24), the other cards none; ``skin_at`` overrides single cells."""
    skin = np.zeros((10, 10), np.float32)
    skin[FACES] = np.linspace(0.16, 0.24, int(FACES.sum()))
    for cell, value in skin_at.items():
        skin[cell] = value
    return replace(feats, skin=skin)


def _face_not_hand(feats, skin: float, cause: str, reads: str) -> None:
    """Cell E5 of ``feats``, a picture card showing ``skin``, reads ``reads`` once the faces
    are known; with them unknown, or with skin far beyond the faces' own, it is ``?`` for
    ``cause``."""
    face = _faces_showing_skin(feats, {(4, 4): skin})
    symbols, why = _read_why(face, FACES)
    assert symbols[4, 4] == reads and not why[cause].any()
    # ... while the orientation (and so the faces) is unknown, that skin may be a hand's
    symbols, why = _read_why(face)
    assert symbols[4, 4] == "?" and why[cause][4, 4]
    # ... and skin clearly beyond the faces' own is a hand, on a picture card too
    symbols, why = _read_why(_faces_showing_skin(feats, {(4, 4): 0.45}), FACES)
    assert symbols[4, 4] == "?" and why[cause][4, 4]


def test_a_picture_card_s_printed_face_keeps_no_whole_border():
    # a strip along a whole line of cells (a crease, a grid line a little off) is left out of
    # a border, unless the cell shows a hand's skin; a picture card's printed face is no hand
    # (seen: fresh set fin30 r0_cards frame 32, a king at the board's edge, skin 0.16, border
    # 0.39 foreign of which 0.01 off the edge's strip, its neighbours then left `?`)
    feats = chips.measure(_grid(), ColourProfile())
    ring = np.zeros((10, 10), np.float32)
    ring[4, 4] = 0.39
    off_lines = np.zeros((10, 10), np.float32)
    off_lines[4, 4] = 0.01
    feats = replace(feats, ring=ring, ring_inside=None, ring_off_lines=off_lines)
    _face_not_hand(feats, 0.16, "foreign_border", ".")


def test_a_chip_on_a_picture_card_s_face_is_held_by_no_hand():
    # a chip placed on a queen leaves part of her face showing around it (seen: fin30 r0_cards
    # frame 161, skin 0.15 around a blue chip whose border is 0.23 foreign): a hand's skin at
    # a chip is skin beyond what this board's own faces show
    img = _grid()
    cv2.circle(img, (4 * CW + 12, 4 * CH + 12), 8, BLUE, -1)
    feats = chips.measure(img, ColourProfile())
    ring = np.zeros((10, 10), np.float32)
    ring[4, 4] = 0.23
    feats = replace(feats, ring=ring, ring_inside=None, ring_off_lines=None, skin_blob=None)
    _face_not_hand(feats, 0.15, "hand_at_chip", "B")


def test_a_picture_card_s_face_is_no_hand_beside_a_weak_border():
    # a weakly foreign border beside a stronger cover is the cover's own edge; a picture
    # card showing its printed face with a weakly foreign border is no such cover (seen: fresh
    # set fin32 r0_cards frame 192, a king's border 0.48 foreign with skin 0.21, beside a green
    # chip whose border is 0.47 foreign and 0.38 with the margin's side left out)
    img = _grid()
    cv2.circle(img, (5 * CW + 12, 4 * CH + 12), 8, GREEN, -1)
    feats = chips.measure(img, ColourProfile())
    feats = _bordered(feats, {(4, 4): 0.48, (4, 5): 0.47}, 0.0, {})
    king = _faces_showing_skin(feats, {(4, 4): 0.21})
    symbols, why = _read_why(king, FACES)
    assert symbols[4, 4] == "." and symbols[4, 5] == "G" and not why["foreign_border"].any()
    # ... with the faces unknown, the king's skin makes its border a cover, and the chip's
    # weak border beside it the cover's edge
    symbols, why = _read_why(king)
    assert why["foreign_border"][4, 4] and why["foreign_border"][4, 5]
    assert symbols[4, 5] == "?"


@pytest.mark.parametrize(
    "spec_file",
    [
        # a king at the board's edge (fin30 seed 6262922, frame 32)
        "face_border_on_edge_cards_spec.json",
        # a blue chip on a queen, a green one on the king beside her (fin30 seed 6262922,
        # frame 161)
        "chip_on_face_cards_spec.json",
        # a king beside a green chip, both borders weakly foreign (fin32 seed 6060922,
        # frame 192)
        "weak_border_by_face_cards_spec.json",
    ],
)
def test_rendered_picture_cards_faces_are_no_hands(spec_file):
    """Fresh hand-free frames exact but for cells left `?` for the skin of printed faces."""
    from test_vision_support import spec_frame

    from companion.vision import BoardReader

    image, truth = spec_frame(spec_file, written=True)
    reading = BoardReader().read(image)
    assert reading.cells == truth.cells
