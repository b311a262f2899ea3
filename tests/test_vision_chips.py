"""Per-cell reading on a drawn, already straightened grid image (no locating involved), and on
one rendered frame where a loose card lies over a chip."""

from dataclasses import replace

import cv2
import numpy as np
import pytest
from test_vision_support import STRAIGHT_CELL
from test_vision_support import straight_cards as _cards
from test_vision_support import straight_sevens as _grid

from companion.vision import chips
from companion.vision.colour import ColourProfile

CW = CH = STRAIGHT_CELL


def _disc(img, r, c, bgr, dx=0, dy=0):
    centre = (c * CW + CW // 2 + dx, r * CH + CH // 2 + dy)
    cv2.circle(img, centre, 8, bgr, -1)


def _read(img):
    feats = chips.measure(img, ColourProfile())
    return chips.classify(feats)


def test_discs_are_chips_and_printed_ink_is_not():
    img = _grid()
    _disc(img, 2, 3, (170, 70, 20))  # blue
    _disc(img, 5, 5, (40, 150, 30), dx=3, dy=-2)  # green, off-centre
    _disc(img, 7, 1, (40, 30, 200))  # red
    symbols, conf = _read(img)
    assert symbols[2, 3] == "B" and symbols[5, 5] == "G" and symbols[7, 1] == "R"
    assert conf[2, 3] > 0.8
    others = np.ones((10, 10), bool)
    others[[2, 5, 7], [3, 5, 1]] = False
    assert set(symbols[others]) == {"."}  # red "7"s stay empty cells


def test_an_arm_across_cells_makes_them_unknown_not_chips():
    img = _grid()
    _disc(img, 8, 8, (170, 70, 20))
    arm = np.array([[0, 150], [70, 150], [110, 240], [0, 240]], np.int32)
    cv2.fillPoly(img, [arm], (110, 150, 205))  # skin tone from the bottom-left corner
    symbols, _ = _read(img)
    under = symbols[7:, :3]
    assert (under == "?").sum() >= 5
    assert not set(under.ravel()) & {"B", "G", "R"}
    assert symbols[8, 8] == "B" and symbols[0, 9] == "."


def test_a_blue_sleeve_over_a_whole_cell_is_not_a_blue_chip():
    img = _grid()
    cv2.rectangle(img, (4 * CW - 6, 0), (5 * CW + 6, 4 * CH), (160, 60, 20), -1)
    symbols, _ = _read(img)
    assert not (symbols[:4, 4] == "B").any()


def test_clipped_glare_over_a_cell_is_unknown():
    img = _grid()
    _disc(img, 3, 6, (170, 70, 20))
    cv2.circle(img, (6 * CW + 12, 3 * CH + 12), 11, (255, 255, 255), -1)  # washed out
    symbols, conf = _read(img)
    assert symbols[3, 6] == "?"
    assert conf[3, 6] == 0.0


def test_grid_image_must_be_ten_cells_each_way():
    try:
        chips.shape_of(np.zeros((95, 240, 3), np.uint8))
    except ValueError as exc:
        assert "10 cells" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("a 95-pixel-high grid image must be refused")


def test_missing_edges_finds_a_card_lying_across_the_grid():
    from companion.vision.chips import cell_shape, cell_whites, missing_edges

    shape = cell_shape(24, 24)
    img = _lined()  # dark grid lines on every cell boundary
    covered = img.copy()
    covered[30:110, 30:110] = 245  # a plain card over cells (1..4, 1..4)
    assert missing_edges(img, cell_whites(img, shape), shape).max() == 0
    gone = missing_edges(covered, cell_whites(covered, shape), shape)
    assert gone[2, 2] == 4 and gone[3, 3] == 4  # wholly under the card
    assert gone[1, 1] == 2  # its corner: the card hides two of its boundaries
    assert gone[6, 6] == 0 and gone[0, 0] == 0


def test_a_line_printed_faint_along_its_whole_length_is_not_missing():
    # a mat's outer rule, the line beside the title margin: fainter than the other lines
    # everywhere along it. A piece is missing only when it is faint for that line
    from companion.vision.chips import cell_shape, cell_whites, missing_edges

    shape = cell_shape(24, 24)
    img = _lined()
    img[:, 238:240] = 150  # the right-hand outer line: half the others' contrast
    img[120:122, :] = 200  # a row line across the middle: a fifth of it
    assert missing_edges(img, cell_whites(img, shape), shape).max() == 0
    covered = img.copy()
    covered[100:140, 190:240] = 245  # a plain card over the faint lines at the right edge
    gone = missing_edges(covered, cell_whites(covered, shape), shape)
    assert gone[4, 9] >= 3 and gone[5, 9] >= 3  # its cells still lose their lines
    assert gone[1, 9] == 0 and gone[8, 9] == 0 and gone[4, 2] == 0
    # an outer line that hardly shows is none: a grid a cell off sees the table there
    img[:, 238:240] = 205
    assert (missing_edges(img, cell_whites(img, shape), shape)[:, 9] == 1).all()


def test_faint_lines_among_many_chips_are_judged_against_the_lines_free_of_chips():
    # a text board filmed small: its lines a pixel wide and faint, chips over six columns.
    # The chips beside the boundaries are far darker than a line: with them in the typical
    # line, each faint piece of line would seem gone
    from companion.vision.chips import cell_shape, cell_whites, missing_edges

    shape = cell_shape(24, 24)
    img = np.full((240, 240, 3), 236, np.uint8)
    for k in range(11):
        img[:, min(k * 24, 239)] = 205
        img[min(k * 24, 239), :] = 205
    on_chips = np.zeros((240, 240), np.uint8)
    for r in range(10):
        for c in range(6):
            cv2.circle(img, (c * 24 + 12, r * 24 + 12), 13, (40, 40, 200), -1)
            cv2.circle(on_chips, (c * 24 + 12, r * 24 + 12), 13, 255, -1)
    whites = cell_whites(img, shape)
    assert missing_edges(img, whites, shape).any()  # (what the chips did)
    assert not missing_edges(img, whites, shape, chip_mask=on_chips).any()
    covered = img.copy()
    covered[150:230, 150:230] = 245  # a plain card over the faint lines still hides them
    gone = missing_edges(covered, cell_whites(covered, shape), shape, chip_mask=on_chips)
    assert gone[7, 7] == 4 and gone[8, 8] == 4
    assert gone[:6].max() == 0 and gone[:, :6].max() == 0


def test_a_fixed_cameras_smooth_view_is_asked_again_only_when_more_lines_go():
    # a big board in a big frame loses a thin line between the grid image's samples on every
    # frame, and the smooth view (a reduction of the whole frame) finds it again: for a fixed
    # camera its answer is kept with the light while no cell loses more lines
    from companion.vision.chips import MeasureCache, _missing_edges_either, cell_shape, normalise

    shape = cell_shape(24, 24)
    full = _lined()
    aliased = full.copy()
    aliased[:, 119:121] = 235  # the line between columns 5 and 6 falls between the samples
    carded = aliased.copy()
    carded[150:230, 150:230] = 245  # then a card is laid over cells (6..9, 6..9)
    cache, asked = MeasureCache(), []

    def edges(grid, fine, fresh):
        def smooth():
            asked.append(1)
            return fine

        img, whites, _ = normalise(grid)
        return _missing_edges_either(img, whites, shape, None, smooth, None, cache, fresh)

    assert edges(aliased, full, fresh=True).max() == 0 and len(asked) == 1
    assert edges(aliased, full, fresh=False).max() == 0 and len(asked) == 1  # kept
    gone = edges(carded, carded, fresh=False)
    assert len(asked) == 2 and gone[7, 7] == 4  # more lines gone: asked again
    assert edges(aliased, full, fresh=True).max() == 0 and len(asked) == 3  # with the light


def test_a_lone_off_centre_chip_touching_its_border_is_still_read():
    # a chip pushed against the board's edge (a tilted board, a grid a little off) makes its
    # cell's border foreign (all round: ``ring_inside`` too); alone, with no skin on it, that
    # is the chip, not a cover
    img = _grid()
    _disc(img, 6, 9, (170, 70, 20))
    feats = chips.measure(img, ColourProfile())
    ring = feats.ring.copy()
    ring[6, 9] = 0.38
    lone, _ = chips.classify(replace(feats, ring=ring, ring_inside=ring))
    assert lone[6, 9] == "B"
    # a border that foreign is still a cover beside a cover (a neighbour's border foreign
    # over half of it: a hand or a sleeve is bigger than one cell) or when skin is on the chip
    ring[7, 9] = 0.55
    big, _ = chips.classify(replace(feats, ring=ring, ring_inside=ring))
    assert big[6, 9] == "?"
    # ... but two such weak borders side by side, no skin, every line showing, are no cover
    ring[7, 9] = 0.38
    pair, _ = chips.classify(replace(feats, ring=ring, ring_inside=ring))
    assert pair[6, 9] == "B" and pair[7, 9] == "."
    ring[7, 9] = feats.ring[7, 9]
    skin = feats.skin.copy()
    skin[6, 9] = 0.1
    held, _ = chips.classify(replace(feats, ring=ring, ring_inside=ring, skin=skin))
    assert held[6, 9] == "?"
    ring[6, 9] = 0.5  # more foreign than any chip makes its border
    far, _ = chips.classify(replace(feats, ring=ring, ring_inside=ring))
    assert far[6, 9] == "?"


def test_two_off_centre_chips_side_by_side_are_both_read():
    # each chip's foreign border is the other's chip, not a hand beside it
    img = _grid()
    _disc(img, 6, 9, (170, 70, 20), dy=3)
    _disc(img, 7, 9, (60, 150, 40), dy=-3)
    feats = chips.measure(img, ColourProfile())
    ring = feats.ring.copy()
    ring[6, 9], ring[7, 9] = 0.38, 0.4
    pair, _ = chips.classify(replace(feats, ring=ring, ring_inside=ring))
    assert (pair[6, 9], pair[7, 9]) == ("B", "G")
    # ... but not when the neighbour's border is more foreign than a chip makes it
    ring[7, 9] = 0.5
    covered, _ = chips.classify(replace(feats, ring=ring, ring_inside=ring))
    assert covered[6, 9] == "?"


def _lit(img, left, right):
    """The picture under light that runs from ``left`` to ``right`` (BGR gains) across it:
    a dim warm lamp on one side, cool daylight on the other."""
    t = np.linspace(0.0, 1.0, img.shape[1], dtype=np.float32)[None, :, None]
    gain = (1 - t) * np.float32(left) + t * np.float32(right)
    return np.clip(img.astype(np.float32) * gain, 0, 255).astype(np.uint8)


def test_mixed_light_across_the_board_leaves_every_cell_readable():
    # each cell is read against the board's own white near it, not one white for the board
    img = _grid()
    _disc(img, 2, 0, (170, 70, 20))  # blue, in the dim warm light
    _disc(img, 4, 1, (40, 30, 200))  # red, in the dim warm light
    _disc(img, 6, 8, (40, 150, 30))  # green, in the cool light
    _disc(img, 1, 9, (170, 70, 20))
    symbols, _ = _read(_lit(img, left=(0.30, 0.45, 0.65), right=(1.05, 1.0, 0.9)))
    assert symbols[2, 0] == "B" and symbols[4, 1] == "R"
    assert symbols[6, 8] == "G" and symbols[1, 9] == "B"
    others = np.ones((10, 10), bool)
    others[[2, 4, 6, 1], [0, 1, 8, 9]] = False
    assert set(symbols[others]) == {"."}


def test_black_ink_stays_dark_under_a_veil_of_haze():
    img = _grid()
    hazy = (img.astype(np.float32) * 0.55 + 100).astype(np.uint8)  # black ink lifted to ~115
    feats = chips.measure(hazy, ColourProfile())
    black_cells = (np.add.outer(np.arange(10), np.arange(10)) % 2) == 0
    assert feats.dark[black_cells].min() > 0.02  # the black "7"s still count as ink
    assert feats.dark[~black_cells].max() < 0.02  # the red ones do not


def _heart(img, r, c, size):
    """A bold printed heart (two lobes and a point), the way some boards print the suit."""
    x, y = c * CW + CW // 2, r * CH + CH // 2 - size // 3
    for dx in (-size // 2, size // 2):
        cv2.circle(img, (x + dx, y), size // 2 + 1, (30, 30, 200), -1)
    tip = np.array([[x - size - 1, y + 1], [x + size + 1, y + 1], [x, y + size + 2]], np.int32)
    cv2.fillPoly(img, [tip], (30, 30, 200))


def test_bold_printed_hearts_are_ink_and_a_red_chip_among_them_is_a_chip():
    img = _cards()
    for r in range(10):
        for c in range(10):
            x, y = c * CW, r * CH
            if (r + c) % 2:
                _heart(img, r, c, 7)
            else:
                cv2.putText(img, "7", (x + 7, y + 17), cv2.FONT_HERSHEY_PLAIN, 1.0, (30, 30, 30), 1)
    _disc(img, 4, 5, (40, 30, 200))  # a red chip over a heart
    feats = chips.measure(img, ColourProfile())
    hearts = (np.add.outer(np.arange(10), np.arange(10)) % 2) == 1
    assert feats.chip["R"][hearts].min() >= chips.CHIP_MIN * 0.8  # bold: much survives erosion
    symbols, _ = chips.classify(feats)
    assert symbols[4, 5] == "R"
    hearts[4, 5] = False
    assert set(symbols[hearts]) == {"."}


def test_bold_hearts_are_ink_late_in_a_game_when_chips_hide_most_of_them():
    img = _cards()
    hearts = (np.add.outer(np.arange(10), np.arange(10)) % 2) == 1
    shown = np.zeros_like(hearts)
    shown[[1, 1, 3, 3, 5, 5, 7, 7, 8], [2, 6, 4, 8, 2, 6, 4, 8, 5]] = True  # 9 hearts left
    colours = ((40, 30, 200), (170, 70, 20), (40, 150, 30))  # red, blue, green chips
    for r in range(10):
        for c in range(10):
            if not hearts[r, c]:
                x, y = c * CW + 7, r * CH + 17
                cv2.putText(img, "7", (x, y), cv2.FONT_HERSHEY_PLAIN, 1.0, (30, 30, 30), 1)
                continue
            _heart(img, r, c, 7)
            if not shown[r, c]:
                _disc(img, r, c, colours[(r * 10 + c) % 3])
    feats = chips.measure(img, ColourProfile())
    symbols, _ = chips.classify(feats)
    # a board's own bold red printing is measured over the few cells still showing it
    assert set(symbols[shown]) == {"."}
    assert set(symbols[hearts & ~shown]) <= {"R", "B", "G"}


def test_colour_running_along_boundaries_is_a_cover_not_a_chip():
    from companion.vision.chips import cell_shape, coloured_corners, coloured_sides

    shape = cell_shape(CW, CH)
    mask = np.zeros((10 * CH, 10 * CW), np.uint8)
    cv2.circle(mask, (7 * CW + 12 + 5, 1 * CH + 12 + 4), 8, 255, -1)  # a chip pushed off-centre
    cv2.rectangle(mask, (2 * CW - 6, 3 * CH - 5), (4 * CW + 6, 5 * CH + 5), 255, -1)  # a card back
    sides, corners = coloured_sides(mask, shape), coloured_corners(mask, shape)
    assert sides[1, 7] <= 1 and sides[1, 8] <= 1
    assert corners[1, 7] == 0  # no disc inside a cell reaches its corners
    assert (sides[3:5, 2:4] >= 2).all() and (corners[3:5, 2:4] >= 2).all()
    assert sides[8, 8] == 0
    row = np.zeros_like(mask)  # a row of chips as big as their cells, touching each other
    for c in range(1, 9):
        cv2.circle(row, (c * CW + 12, 5 * CH + 12), 12, 255, -1)
    assert not coloured_corners(row, shape).any()
    # a green board: every gap is chip-coloured; that is the board's own, not a cover
    board = mask.copy()
    for k in range(11):
        board[:, max(0, k * CW - 1) : k * CW + 2] = 255
        board[max(0, k * CH - 1) : k * CH + 2, :] = 255
    assert coloured_sides(board, shape)[8, 8] == 0
    # a chip whose colour runs along two of its boundaries is read as unknown
    img = _grid()
    _disc(img, 6, 6, (170, 70, 20))
    feats = chips.measure(img, ColourProfile())
    assert chips.classify(feats)[0][6, 6] == "B"
    assert feats.coloured_corners is None  # measured only where colour runs along sides
    along, over = feats.coloured_sides.copy(), np.zeros((10, 10), np.float32)
    along[6, 6] = over[6, 6] = 2
    assert chips.classify(replace(feats, coloured_sides=along))[0][6, 6] == "B"
    assert (
        chips.classify(replace(feats, coloured_sides=along, coloured_corners=over))[0][6, 6] == "?"
    )


def test_faded_printing_is_a_card_but_a_washed_out_chip_stays_unknown():
    # haze: every card's pips are pale grey, below every colour class; one chip is washed out
    # to a pale tint with a faint rim (the faint marks alone would make it look printed)
    img = _cards()
    for r in range(10):
        for c in range(10):
            x, y = c * CW, r * CH
            for dx, dy in ((7, 7), (15, 15), (7, 15)):
                cv2.circle(img, (x + dx, y + dy), 1, (175, 178, 180), -1)
    centre = (4 * CW + 12, 6 * CH + 12)
    cv2.circle(img, centre, 8, (200, 228, 200), -1)  # a green chip washed almost white
    cv2.circle(img, centre, 8, (170, 190, 170), 1)
    symbols, _ = _read(img)
    assert symbols[6, 4] == "?"
    others = np.ones((10, 10), bool)
    others[5:8, 3:6] = False  # the washed-out chip and the cells around it
    assert set(symbols[others]) == {"."}


def _crosshatch(img, r, c, bgr, step=3):
    """Thin lines every ``step`` pixels over the inside of one cell (a patterned card back)."""
    x0, y0 = c * CW + 3, r * CH + 3
    for k in range(0, CW - 6, step):
        cv2.line(img, (x0 + k, y0), (x0 + k, y0 + CH - 7), bgr, 1)
        cv2.line(img, (x0, y0 + k), (x0 + CW - 7, y0 + k), bgr, 1)


def test_blue_pattern_the_erosion_removes_is_unknown_not_an_empty_cell():
    # a chip seen only through a patterned card back: much blue, none of it solid
    img = _grid()
    _crosshatch(img, 4, 4, (170, 70, 20))
    feats = chips.measure(img, ColourProfile())
    assert feats.raw["B"][4, 4] >= chips.EMPTY_RAW_BG_MAX and feats.chip["B"][4, 4] < 0.05
    why = {}
    symbols, conf = chips.classify(feats, why=why)
    assert symbols[4, 4] == "?" and conf[4, 4] == 0.0
    assert why["undecided"][4, 4]
    others = np.ones((10, 10), bool)
    others[3:6, 3:6] = False
    assert set(symbols[others]) == {"."}


def _navy_grid():
    """Cards on a board whose gaps read as blue chip colour (a navy board)."""
    img = _grid()
    for k in range(11):
        cv2.line(img, (k * CW, 0), (k * CW, 10 * CH), (110, 40, 20), 2)
        cv2.line(img, (0, k * CH), (10 * CW, k * CH), (110, 40, 20), 2)
    return img


def test_red_reaching_over_a_border_next_to_a_cover_is_unknown_on_a_navy_board():
    # a red card back lies over cells (4, 6) and the corner of (3, 5): the covered cell is
    # unknown, and the red corner in (3, 5) is no chip, though it is as solid as one
    img = _navy_grid()
    cv2.rectangle(img, (6 * CW - 2, 4 * CH - 2), (7 * CW + 2, 5 * CH + 2), (40, 30, 200), -1)
    cv2.rectangle(img, (5 * CW + 11, 3 * CH + 11), (6 * CW + 2, 4 * CH + 2), (40, 30, 200), -1)
    _disc(img, 7, 2, (40, 30, 200))  # a real red chip elsewhere stays a chip
    feats = chips.measure(img, ColourProfile())
    assert feats.ring_colour is not None
    why = {}
    symbols, _ = chips.classify(feats, why=why)
    assert symbols[4, 6] == "?"
    assert symbols[3, 5] == "?" and why["next_to_cover"][3, 5]
    assert symbols[7, 2] == "R"
    # without the colour-by-colour border measure, the navy gaps hide the red over the border:
    # only the card back's colour filling the cell beside it still says cover
    feats.ring_colour = None
    why = {}
    old, _ = chips.classify(feats, why=why)
    assert old[3, 5] == "?" and why["cover_colour"][3, 5] and not why["next_to_cover"][3, 5]


def test_a_pale_hand_next_to_a_cover_hides_a_chip_and_is_unknown():
    # a pale hand lies over the chip of (5, 5) inside its cell, beside a plain card lying on
    # (5, 4): no blue shows, no printing either, only a broad skin tint; the cell must not
    # read as an empty card. The same pale patch far from any cover is left alone (a card's
    # yellow face picture reads as skin too)
    img = _grid()
    _disc(img, 5, 5, (170, 70, 20))
    for r, c in ((5, 5), (1, 1)):  # a pale palm, a little skin colour where it is thickest
        centre = (c * CW + 12, r * CH + 12)
        cv2.ellipse(img, centre, (9, 9), 0, 0, 360, (195, 210, 232), -1)
        cv2.ellipse(img, centre, (4, 4), 0, 0, 360, (150, 185, 225), -1)
    cv2.rectangle(img, (4 * CW + 2, 5 * CH + 2), (5 * CW - 3, 6 * CH - 3), (232, 236, 238), -1)
    feats = chips.measure(img, ColourProfile())
    assert chips.PALE_SKIN < feats.skin[5, 5] < 0.2  # too little skin for a hand on its own
    assert feats.chip["B"][5, 5] < 0.02
    why = {}
    symbols, conf = chips.classify(feats, why=why)
    assert symbols[5, 4] == "?" and why["blank"][5, 4]  # the plain card lying there
    assert symbols[5, 5] == "?" and conf[5, 5] == 0.0 and why["next_to_cover"][5, 5]
    assert symbols[1, 1] == "."
    assert symbols[8, 8] == "."


def _clipped_cards(print_odd) -> np.ndarray:
    """Card cells whose lower half is over-exposed (clipped to pure white); ``print_odd(img, r,
    c)`` prints every cell with an odd r + c, the others print a black 7."""
    img = _cards()
    for r in range(10):
        for c in range(10):
            x, y = c * CW, r * CH
            if r >= 5:
                cv2.rectangle(img, (x + 2, y + 2), (x + CW - 3, y + CH - 3), (255, 255, 255), -1)
            if (r + c) % 2:
                print_odd(img, r, c)
            else:
                cv2.putText(img, "7", (x + 7, y + 17), cv2.FONT_HERSHEY_PLAIN, 1.0, (30, 30, 30), 1)
    return img


def _washed_red_chip(img: np.ndarray, r: int, c: int) -> None:
    """A red chip under a glare spot: a clipped middle in a pale red disc, a crescent of red."""
    centre = (c * CW + CW // 2, r * CH + CH // 2)
    cv2.circle(img, centre, 10, (200, 205, 255), -1)
    cv2.circle(img, centre, 5, (255, 255, 255), -1)
    cv2.ellipse(img, centre, (10, 10), 0, 0, 180, (30, 30, 200), 5)


def test_red_ink_on_an_over_exposed_card_is_ink_but_a_washed_out_chip_stays_unknown():
    img = _clipped_cards(lambda img, r, c: _heart(img, r, c, 5))
    # a blue chip under a glare spot: clipped in the middle, a pale blue tint around that and
    # a crescent of its colour left at the rim
    centre = (3 * CW + CW // 2, 7 * CH + CH // 2)
    cv2.circle(img, centre, 9, (255, 228, 208), -1)
    cv2.circle(img, centre, 6, (255, 255, 255), -1)
    cv2.ellipse(img, centre, (9, 9), 0, 20, 160, (170, 70, 20), 4)
    # ... and a red one, whose crescent alone could pass for printed red
    _washed_red_chip(img, 8, 4)
    feats = chips.measure(img, ColourProfile())
    assert feats.glare[6:, :].mean() > chips.GLARE_MAX
    why = {}
    symbols, _ = chips.classify(feats, why=why)
    assert symbols[7, 3] == "?" and why["glare"][7, 3]
    assert symbols[8, 4] == "?" and why["glare"][8, 4]
    hearts = (np.add.outer(np.arange(10), np.arange(10)) % 2) == 1
    hearts[7, 3] = False
    assert set(symbols[hearts]) == {"."}


def test_a_chip_washed_pale_by_a_veil_of_glare_is_unknown_not_empty():
    img = _grid()
    _disc(img, 4, 4, (175, 235, 180))  # a green chip under a veil: its hue, a third of its colour
    _disc(img, 6, 2, (240, 200, 185))  # ... and a blue one
    _disc(img, 2, 7, (30, 160, 40))  # a green chip in clear view
    feats = chips.measure(img, ColourProfile())
    assert feats.chip["G"][4, 4] < chips.EMPTY_MAX  # too pale for the chip colour classes
    why = {}
    symbols, _ = chips.classify(feats, why=why)
    assert symbols[4, 4] == "?" and why["washed_chip"][4, 4]
    assert symbols[6, 2] == "?" and why["washed_chip"][6, 2]
    assert symbols[2, 7] == "G"
    others = np.ones((10, 10), bool)
    others[[4, 6, 2], [4, 2, 7]] = False
    assert set(symbols[others]) == {"."}  # no printed card reads as a pale chip


def test_a_hand_over_most_of_a_cell_is_a_cover_on_its_own():
    # the side of a hand, in shadow, over the chip of (3, 0) and the card of (4, 0): skin
    # over most of each cell, none of its printing, no card white left. Nothing else on the
    # board is covered, so no "next to a cover" helps; a small pale patch stays an empty card
    img = _grid()
    _disc(img, 3, 0, (170, 70, 20))
    cv2.rectangle(img, (0, 3 * CH), (CW - 2, 5 * CH - 2), (120, 150, 190), -1)
    cv2.ellipse(img, (7 * CW + 12, 7 * CH + 12), (6, 6), 0, 0, 360, (150, 185, 225), -1)
    feats = chips.measure(img, ColourProfile())
    assert feats.skin[3, 0] > chips.PALE_HAND and feats.chip["B"][3, 0] < 0.02
    why = {}
    symbols, _ = chips.classify(feats, why=why)
    assert symbols[3, 0] == "?" and why["pale_hand"][3, 0]
    assert symbols[4, 0] == "?"
    assert symbols[7, 7] == "."
    others = np.ones((10, 10), bool)
    others[2:6, 0:2] = False  # the hand and the cells beside it
    assert set(symbols[others]) == {"."}


def test_solid_chip_colour_over_nearly_all_of_a_cell_is_a_cover_not_a_chip():
    # a red card lying face down, its fine pattern blurred to solid red, covers (4, 4) but
    # the corner of its card (a rounded corner of the card lying there): no disc covers that
    # much of a square cell; a big red chip beside it stays a chip
    img = _grid()
    cv2.rectangle(img, (4 * CW - 4, 4 * CH - 4), (6 * CW - 8, 5 * CH + 8), (40, 40, 205), -1)
    corner = np.array(
        [[4 * CW + 3, 4 * CH + 3], [4 * CW + 6, 4 * CH + 3], [4 * CW + 3, 4 * CH + 6]]
    )
    cv2.fillPoly(img, [corner.astype(np.int32)], (232, 236, 238))
    cv2.circle(img, (2 * CW + 12, 7 * CH + 12), 10, (40, 40, 205), -1)  # a big chip
    feats = chips.measure(img, ColourProfile())
    assert 0.95 < feats.raw["R"][4, 4] < 0.97
    why = {}
    symbols, _ = chips.classify(feats, why=why)
    assert symbols[4, 4] == "?" and why["colour_everywhere"][4, 4]
    assert symbols[7, 2] == "R"


def test_faded_pips_blurred_into_pale_blobs_are_printing_not_a_washed_chip():
    # measured on a real frame (dev cards frame 37): haze and blur leave a card's red pips as
    # pale pink blobs below the red class, faint strokes all over the card, and a tint that
    # survives a small erosion (0.05-0.26 of the cell) but no chip-sized core of it; a chip
    # washed out by glare leaves such a core (0.08 on the drawn one of the test above)
    feats = chips.measure(_cards(), ColourProfile())  # cards with nothing printed: all blank
    feats.faint_print = np.full((10, 10), 0.22, np.float32)
    feats.tinted_blob = np.full((10, 10), 0.12, np.float32)
    feats.tinted_disc = np.zeros((10, 10), np.float32)
    feats.tinted_disc[6, 4] = 0.08  # the core of a washed-out chip
    why = {}
    symbols, _ = chips.classify(feats, why=why)
    assert symbols[6, 4] == "?" and why["blank"][6, 4]
    others = np.ones((10, 10), bool)
    others[5:8, 3:6] = False
    assert set(symbols[others]) == {"."}


def test_a_thin_skin_fringe_at_a_chip_is_no_hand_but_fingers_are():
    # measured on real frames (dev cards hands-0 frame 19): a blurred chip beside red ink or
    # on a warm-lit card shows a thin orange fringe (skin 0.08-0.14 of the cell, a border a
    # little foreign) that no erosion keeps; fingers holding a chip are broad
    img = _grid()
    _disc(img, 3, 3, (40, 150, 30))
    _disc(img, 6, 6, (170, 70, 20))
    feats = chips.measure(img, ColourProfile())
    feats.skin_blob = np.zeros((10, 10), np.float32)
    for cell, skin_blob in (((3, 3), 0.0), ((6, 6), 0.1)):
        feats.skin[cell] = 0.12
        feats.ring[cell] = 0.2
        feats.skin_blob[cell] = skin_blob
    why = {}
    symbols, _ = chips.classify(feats, why=why)
    assert symbols[3, 3] == "G"
    assert symbols[6, 6] == "?" and why["hand_at_chip"][6, 6]


def test_a_red_chip_shrunk_by_glare_to_a_pips_size_is_not_read_as_a_printed_pip():
    # measured on real frames (dev cards frames 71 and 8): a red chip under a glare spot keeps
    # a pip-sized patch of red (0.37 of the cell, 0.14 through the erosion) inside a broad pale
    # disc (tint 0.43); an ace's heart on an over-exposed card has the same red, no pale disc
    feats = chips.measure(_grid(), ColourProfile())
    feats.tinted_blob = np.zeros((10, 10), np.float32)
    for cell, glare, tint in (((5, 6), 0.14, 0.43), ((5, 3), 0.32, 0.18)):
        feats.raw["R"][cell] = feats.red_ink[cell] = 0.37
        feats.chip["R"][cell] = 0.14
        feats.glare[cell] = glare
        feats.tinted_blob[cell] = tint
    why = {}
    symbols, _ = chips.classify(feats, why=why)
    assert symbols[5, 6] == "?"
    assert symbols[5, 3] == "."


def test_faint_red_printing_on_a_clipped_card_is_empty_but_a_washed_out_chip_stays_unknown():
    # glare thins printed red below the ink's share of a cell: an over-exposed card with a
    # pale red rank is an empty card; a red chip under the same glare keeps a broad pale disc
    img = _clipped_cards(
        lambda img, r, c: cv2.putText(
            img, "K", (c * CW + 5, r * CH + 18), cv2.FONT_HERSHEY_PLAIN, 1.1, (150, 150, 255), 2
        )
    )
    cv2.rectangle(img, (4 * CW + 2, 8 * CH + 2), (5 * CW - 3, 9 * CH - 3), (255, 255, 255), -1)
    _washed_red_chip(img, 8, 4)
    feats = chips.measure(img, ColourProfile())
    faint = np.zeros((10, 10), bool)
    faint[5:] = (np.add.outer(np.arange(5, 10), np.arange(10)) % 2) == 1
    faint[8, 4] = False
    # clipped, with a little red left after the erosion: what made these cells unsure before
    assert (feats.glare[faint] > chips.GLARE_MAX).all()
    assert (feats.chip["R"][faint] > 0.5 * chips.EMPTY_MAX).all()
    symbols, _ = chips.classify(feats)
    assert set(symbols[faint]) == {"."}
    assert symbols[8, 4] == "?"


def _lined(shift_rows=(), shift=0):
    """White cells between dark one-pixel lines; the boundary at x = 216 (between columns 8
    and 9) moved by ``shift`` pixels beside the cells in ``shift_rows`` (a lens bends it)."""
    img = np.full((240, 240, 3), 235, np.uint8)
    for k in range(11):
        img[max(0, k * 24 - 1) : k * 24 + 1, :] = 60
        if k != 9:
            img[:, max(0, k * 24 - 1) : k * 24 + 1] = 60
    for r in range(10):
        x = 216 + (shift if r in shift_rows else 0)
        img[r * 24 : (r + 1) * 24, x - 1 : x + 1] = 60
    return img


def test_a_boundary_bent_off_its_place_by_a_lens_is_still_there():
    from companion.vision.chips import cell_shape, cell_whites, missing_edges

    shape = cell_shape(24, 24)
    bent = _lined(shift_rows=range(6, 10), shift=6)  # a quarter of a cell, near a corner
    assert missing_edges(bent, cell_whites(bent, shape), shape).max() == 0
    # the boundary gone beside the same cells (a plain card lying there) is still missing
    gone = _lined()
    gone[6 * 24 : 240, 210:222] = 235
    edges = missing_edges(gone, cell_whites(gone, shape), shape)
    assert (edges[6:, 8] == 1).all() and (edges[6:, 9] == 1).all()


def test_the_edge_of_a_card_lying_askew_does_not_stand_in_for_the_boundaries_it_hides():
    from companion.vision.chips import cell_shape, cell_whites, missing_edges

    shape = cell_shape(24, 24)
    img = _lined()
    card = cv2.boxPoints(((132.0, 132.0), (70.0, 100.0), 25.0)).astype(np.int32)
    cv2.fillPoly(img, [card], (245, 245, 245))
    cv2.polylines(img, [card], True, (90, 90, 90), 1)  # its edge casts a thin shadow
    edges = missing_edges(img, cell_whites(img, shape), shape)
    assert edges[5, 5] == 4 and edges[4, 5] >= 2 and edges[5, 4] >= 2


def test_a_dim_hand_over_a_cell_is_a_cover_though_some_printing_shows_through():
    # measured on a rendered frame (hands-only dev set, a pale hand blurred by its motion over
    # a green chip): skin over two thirds of the cell, a broad tint, the card's white dimmed
    # to 0.79, and 3 % of dark printing showing through, so not "unprinted"; its border not
    # foreign enough for a cover. A yellow face card (skin-coloured, broad, but white card
    # around it) stays an empty card
    feats = chips.measure(_grid(), ColourProfile())
    skin, white, dark = feats.skin.copy(), feats.white.copy(), feats.dark.copy()
    tint = np.zeros((10, 10), np.float32)
    skin[3, 0], tint[3, 0], white[3, 0], dark[3, 0] = 0.67, 0.83, 0.79, 0.03
    skin[6, 6], tint[6, 6], white[6, 6] = 0.67, 0.83, 1.0
    dim = replace(feats, skin=skin, white=white, dark=dark, tinted_blob=tint)
    assert dark[3, 0] + dim.red_ink[3, 0] >= chips.PRINT_MIN
    why = {}
    symbols, _ = chips.classify(dim, why=why)
    assert symbols[3, 0] == "?" and why["pale_hand"][3, 0]
    assert symbols[6, 6] == "."
    assert set(chips.classify(dim, covers=False)[0][~chips.CORNERS].ravel()) == {"."}


def test_per_cell_fractions_count_each_cells_inner_pixels():
    rng = np.random.default_rng(3)
    shape = chips.shape_for_aspect(1.5)  # landscape cells, unequal borders each way
    h, w = 10 * shape.h, 10 * shape.w
    masks = ((rng.random((3, h, w)) > 0.6) * 255).astype(np.uint8)
    got = chips._per_cell_planes(masks, shape)
    ix, iy = shape.inner_x, shape.inner_y
    for k in range(3):
        for r, c in ((0, 0), (4, 7), (9, 9)):
            cell = masks[k, r * shape.h : (r + 1) * shape.h, c * shape.w : (c + 1) * shape.w]
            want = (cell[iy:-iy, ix:-ix] > 0).mean()
            assert abs(got[k, r, c] - want) < 1e-6
    assert np.allclose(chips._per_cell(masks[1], shape), got[1])


def test_colour_classes_are_the_hsv_boxes_of_the_profile():
    from companion.vision.colour import (
        CLASSES,
        CRIMSON_RED,
        CRIMSON_RED_SAT,
        ORANGE_RED,
        ORANGE_RED_SAT,
        TINT_MIN,
        HueBand,
        class_mask,
        colour_code,
    )

    rng = np.random.default_rng(4)
    hsv = np.dstack(
        [
            rng.integers(0, 180, (80, 80)),
            rng.integers(0, 256, (80, 80)),
            rng.integers(0, 256, (80, 80)),
        ]
    ).astype(np.uint8)

    def box(band, s, v):  # a hue band (wrapping round red when lo > hi), least S and V
        if band.lo <= band.hi:
            return cv2.inRange(hsv, (band.lo, s, v), (band.hi, 255, 255))
        return cv2.inRange(hsv, (band.lo, s, v), (180, 255, 255)) | cv2.inRange(
            hsv, (0, s, v), (band.hi, 255, 255)
        )

    wrapped = ColourProfile(
        chips={"B": HueBand(95, 125), "G": HueBand(172, 20), "R": HueBand(150, 168)}
    )
    for profile in (ColourProfile(), wrapped):
        code = colour_code(hsv, profile, 100)
        masks = {name: class_mask(code, name) for name in CLASSES}
        want = {
            k: box(b, profile.min_saturation, profile.min_value) for k, b in profile.chips.items()
        }
        # red's usual band: orange-red and crimson too (paler rust counts only among red,
        # which random pixels never are: ``test_vision_orange_red``)
        if profile.chips["R"].lo > profile.chips["R"].hi:
            lo, hi = ORANGE_RED
            want["R"] |= cv2.inRange(hsv, (lo, ORANGE_RED_SAT, profile.min_value), (hi, 255, 255))
            lo, hi = CRIMSON_RED
            want["R"] |= cv2.inRange(hsv, (lo, CRIMSON_RED_SAT, profile.min_value), (hi, 255, 255))
        want["skin"] = box(profile.skin, 40, 80) & ~want["R"]
        want["dark"] = cv2.inRange(hsv, (0, 0, 0), (180, 109, 100))
        blue, green = profile.chips["B"], profile.chips["G"]
        if green.lo <= green.hi < blue.lo <= blue.hi:  # green to blue, cyan included
            want["pale_bg"] = cv2.inRange(hsv, (green.lo, 40, 45), (blue.hi, 255, 255))
        else:
            want["pale_bg"] = box(blue, 40, 45) | box(green, 40, 45)
        # any tint, however pale
        want["tinted"] = cv2.inRange(hsv, (0, TINT_MIN, profile.min_value), (180, 255, 255))
        # the skin hue too dark for skin, still saturated
        want["dark_skin"] = cv2.inRange(hsv, (profile.skin.lo, 60, 15), (profile.skin.hi, 255, 79))
        assert set(want) == set(CLASSES)
        for name, mask in want.items():
            assert (masks[name] == mask).all(), name


def test_a_part_disc_beside_a_hand_is_the_chip_it_holds_but_a_whole_chip_there_is_read():
    # measured on rendered frames (hands dev set, a hand pinching a red chip over an empty
    # cell): the hand's cells are covered, mostly skin; the held chip straddles the cells, so
    # only 45-49 % of its colour there survives the erosion (a placed chip keeps 60 % or more)
    img = _grid()
    _disc(img, 4, 4, (30, 30, 200))
    _disc(img, 5, 5, (30, 30, 200))
    _disc(img, 7, 7, (30, 30, 200))
    feats = chips.measure(img, ColourProfile())
    skin, white, raw_red = feats.skin.copy(), feats.white.copy(), feats.raw["R"].copy()
    skin[4, 5], white[4, 5] = 0.9, 0.3  # the hand: skin, no card white
    for cell in ((4, 4), (7, 7)):  # part discs: a held chip beside the hand, and one far off
        raw_red[cell] = feats.chip["R"][cell] / 0.47
    held = replace(feats, skin=skin, white=white, raw={**feats.raw, "R": raw_red})
    held.red_ink = raw_red
    why = {}
    symbols, _ = chips.classify(held, why=why)
    assert symbols[4, 5] == "?"
    assert symbols[4, 4] == "?" and why["held_chip"][4, 4]
    assert symbols[5, 5] == "R"  # a whole chip beside the hand is a placed chip
    assert symbols[7, 7] == "R"  # a part disc with no hand beside it is read as before


def test_a_free_corner_s_skin_coloured_emblem_is_no_hand_holding_the_chip_beside_it():
    # seen frames (a tan cards board, fin29 r0_cards 164; mat boards): the free corner's
    # emblem on the board's skin-like colour reads as skin within a foreign border, and a chip
    # beside it pushed towards the margin, with the margin's tan on it, was held "in fingers"
    img = _grid()
    _disc(img, 1, 0, (30, 30, 200))
    _disc(img, 4, 4, (30, 30, 200))
    feats = chips.measure(img, ColourProfile())
    skin, white, raw_red = feats.skin.copy(), feats.white.copy(), feats.raw["R"].copy()
    for cell in ((0, 0), (4, 5)):  # skin and no card white: a free corner, and a hand
        skin[cell], white[cell] = 0.9, 0.3
    for cell in ((1, 0), (4, 4)):  # part discs beside each
        raw_red[cell] = feats.chip["R"][cell] / 0.47
    held = replace(feats, skin=skin, white=white, raw={**feats.raw, "R": raw_red})
    held.red_ink = raw_red
    why = {}
    symbols, _ = chips.classify(held, why=why)
    assert symbols[1, 0] == "R" and not why["held_chip"][1, 0]
    assert symbols[4, 4] == "?" and why["held_chip"][4, 4]  # a hand beside it still holds it


@pytest.mark.parametrize(
    "name",
    ["corner_emblem_beside_chip_cards_spec.json", "corner_emblem_beside_chip_mat_spec.json"],
)
def test_rendered_chips_beside_a_free_corner_s_emblem_are_read(name):
    """Seen frames without hands, exact but for a chip beside a free corner left `?` as held
    by the "hand" the corner's tan emblem seemed to be."""
    from test_vision_support import spec_frame

    from companion.vision import BoardReader

    image, truth = spec_frame(name, written=True)
    reading = BoardReader().read(image)
    assert reading.board_found
    assert reading.cells == truth.cells


def test_a_red_chip_faded_to_its_rim_under_a_veil_of_glare_is_unknown_not_ink():
    # measured on a rendered frame (text hands dev set 7650211, frame 57): a red chip under a
    # veil of glare that clips nothing keeps red only at its rim (0.32 of the cell, 0.08 after
    # the erosion: thin, like ink) and a broad pale tint (0.32); its darkest part is lifted to
    # 0.48 of the white. The same red with no pale tint around it is printing
    feats = chips.measure(_grid(), ColourProfile())
    raw_red, chip_red = feats.raw["R"].copy(), feats.chip["R"].copy()
    black = np.full((10, 10), 0.3, np.float32)
    tint = np.zeros((10, 10), np.float32)
    for cell in ((3, 4), (6, 5)):
        raw_red[cell], chip_red[cell], black[cell] = 0.32, 0.08, 0.48
    tint[3, 4] = 0.32
    veiled = replace(
        feats,
        raw={**feats.raw, "R": raw_red},
        chip={**feats.chip, "R": chip_red},
        red_ink=raw_red,
        black=black,
        veil_tint=tint,
    )
    why = {}
    symbols, _ = chips.classify(veiled, why=why)
    assert symbols[3, 4] == "?" and why["washed_red"][3, 4]
    assert symbols[6, 5] == "."


def test_a_red_chip_among_red_printing_is_read_though_the_printing_lowers_its_solidity():
    img = _grid()
    r, c = 4, 4
    x, y = c * CW, r * CH
    for k in range(3, CW - 3, 2):  # red strokes over the whole cell (a card's red pips)
        cv2.line(img, (x + k, y + 3), (x + k, y + CH - 4), (40, 30, 200), 1)
    cv2.circle(img, (x + 12, y + 12), 7, (40, 30, 200), -1)  # and a red chip on them
    feats = chips.measure(img, ColourProfile())
    solidity = feats.chip["R"][r, c] / feats.raw["R"][r, c]
    assert solidity < chips.SOLIDITY_MIN  # the printing around it counts in its share ...
    assert feats.chip["R"][r, c] >= chips.RED_CORE_MIN  # ... its core is a chip's
    symbols, _ = chips.classify(feats)
    assert symbols[r, c] == "R"
    # the printing alone is ink, not a chip
    img = _grid()
    for k in range(3, CW - 3, 2):
        cv2.line(img, (x + k, y + 3), (x + k, y + CH - 4), (40, 30, 200), 1)
    assert _read(img)[0][r, c] != "R"


def test_a_white_card_lying_over_cells_is_a_cover_where_no_glare_was_found():
    img = _grid()
    _disc(img, 4, 5, (40, 150, 30))  # a green chip the card hides
    x0, y0 = 4 * CW + 6, 3 * CH + 8
    cv2.rectangle(img, (x0, y0), (x0 + 2 * CW, y0 + int(2.4 * CH)), (236, 238, 240), -1)
    pip = np.array([[x0 + CW, y0 + 20], [x0 + CW + 7, y0 + 30], [x0 + CW, y0 + 40]], np.int32)
    cv2.fillPoly(img, [np.vstack([pip, [[x0 + CW - 7, y0 + 30]]])], (40, 30, 200))
    feats = chips.measure(img, ColourProfile())
    gone = feats.edges_missing >= chips.EDGES_GONE
    # the card's white lifts the cells' darkest level as a veil of glare would
    assert (feats.black[gone] >= chips.VEIL_BLACK).any()
    symbols, _ = chips.classify(feats)
    assert (symbols[gone] == "?").all()
    assert symbols[4, 5] == "?"
    # ... where glare was found (and taken off) the same signs are the veil's doing
    glared = replace(feats, glare_added=np.full((10, 10), 30.0, np.float32))
    assert (chips.classify(glared)[0][gone] != "?").any()


def test_a_red_chip_half_under_a_loose_cards_patterned_back_is_unknown_not_empty():
    from test_vision_support import cli_frame

    from companion.vision import BoardReader

    # dev frame 12 of seed 7612002: a card lies face down across C3, whose red chip shows
    # only a rim beside the card's red lattice (thin red, like printing)
    image, truth = cli_frame(7612002, 12, "cards", board_share=(0.3, 0.95))
    assert truth.cells[2][2] == "R" and truth.occluded[2][2]
    reading = BoardReader().read(image)
    assert reading.cells[2][2] == "?"
    # the card's back (red over more of a cell than any printing) is no empty cell either
    assert reading.cells[2][3] == "?" and reading.cells[3][3] == "?"


def test_the_margin_seen_along_the_boards_edge_is_no_cover_but_a_hand_there_is():
    # a grid line a little off along the board's edge (a lens, a warped board) brings the
    # board's dark margin onto the outer side of the edge cells
    img = _grid()
    _disc(img, 0, 4, (170, 70, 20))
    truth, _ = _read(img)
    margin = img.copy()
    margin[:5] = (90, 40, 120)
    seen, _ = _read(margin)
    assert (seen[0] == truth[0]).all() and seen[0, 4] == "B"
    # ... but something reaching in over the edge covers the cells' sides as well
    hand = margin.copy()
    hand[:14, 3 * CW : 6 * CW] = (90, 40, 120)
    covered, _ = _read(hand)
    assert (covered[0, 3:6] == "?").all()


def test_red_chips_pale_in_part_are_read_by_their_disc():
    # a seen frame: two red chips whose highlight turned much of their disc salmon keep too
    # little of their red through the small erosion to be told from bold printing that way
    # (they read `?`); a chip-sized core of red and of tint, which no printed symbol leaves,
    # reads them
    import json
    from pathlib import Path

    from companion.render import RenderSpec, render_frame
    from companion.vision import BoardReader

    values = json.loads((Path(__file__).parent / "data" / "pale_red_chips_spec.json").read_text())
    image, truth = render_frame(RenderSpec.from_json(values))
    assert truth.cells[0][4] == "R" and truth.cells[3][9] == "R"
    assert BoardReader().read(image).cells == list(truth.cells)


def test_blur_explains_a_faint_tint_over_much_of_a_card_but_not_a_washed_chips_rim():
    # a board whose black printing shows dark on 20 cells (no haze), nothing clipped, no glare
    # found: a cell with faint marks over 0.25 of it and a small tint core (0.08, blurred
    # red pips) is printing; the same core with faint marks over 0.13 (a washed-out chip's
    # thin rim) stays unknown, and so does the first cell on a board greyed by haze
    feats = chips.measure(_grid(), ColourProfile())
    zero = np.zeros((10, 10), np.float32)
    dark = zero.copy()
    dark.flat[::5] = 0.1  # 20 cells of dark printing
    faint, disc = zero.copy(), zero.copy()
    faint[4, 4], faint[6, 6] = 0.25, 0.13
    disc[4, 4] = disc[6, 6] = 0.08
    raw = {s: zero.copy() for s in feats.raw}
    blank_cells = replace(
        feats, dark=dark, red_ink=zero, raw=raw, skin=zero, faint_print=faint,
        tinted_blob=disc * 2, tinted_disc=disc, glare=zero,
    )  # fmt: skip
    symbols, _ = chips.classify(blank_cells)
    assert symbols[4, 4] == "." and symbols[6, 6] == "?"
    hazed = replace(blank_cells, dark=zero)
    assert chips.classify(hazed)[0][4, 4] == "?"


def test_a_boards_own_colour_is_judged_against_its_own_nearby_gaps():
    from companion.vision.chips import _sides_in_own_colour, cell_shape, coloured_sides

    shape = cell_shape(CW, CH)
    # a green board under a lamp: its gaps read green in the dim top rows only, bright
    # (no chip colour) in the middle and below
    gaps = np.zeros((10 * CH, 10 * CW), np.uint8)
    for k in range(11):
        gaps[:, max(0, k * CW - 1) : k * CW + 2] = 255
        gaps[max(0, k * CH - 1) : k * CH + 2, :] = 255
    gaps[3 * CH + 2 :] = 0
    card = gaps.copy()  # ... and a card's back lying over four cells lower down
    cv2.rectangle(card, (2 * CW - 6, 5 * CH - 5), (4 * CW + 6, 7 * CH + 5), 255, -1)
    sides = coloured_sides(card, shape)
    assert (sides[:3] < 2).all()  # the dim rows' green gaps are the board's own
    assert (sides[5:7, 2:4] >= 2).all()  # the card still runs along its cells' boundaries
    # counted in the colour each cell's chip shows: a red chip among green gaps crosses none,
    # a green "chip" (the card) still does
    nothing = np.zeros((10 * CH, 10 * CW), np.uint8)
    red_chip = nothing.copy()
    red_chip[2 * CH + 4 : 3 * CH - 4, 5 * CW + 4 : 6 * CW - 4] = 255
    green_mat = np.where(red_chip > 0, 0, 255).astype(np.uint8)  # green all over (a green mat)
    chip = {s: np.zeros((10, 10), np.float32) for s in "BGR"}
    chip["R"][2, 5] = 0.5
    chip["G"][5:7, 2:4] = 0.9
    own_sides, _ = _sides_in_own_colour({"B": nothing, "G": green_mat, "R": red_chip}, chip, shape)
    assert own_sides[2, 5] == 0
    masks = {"B": nothing, "G": card, "R": nothing}
    own_sides, own_corners = _sides_in_own_colour(masks, chip, shape)
    assert (own_sides[5:7, 2:4] >= 2).all() and (own_corners[5:7, 2:4] >= 2).all()


def test_a_green_board_s_dim_edges_are_not_taken_for_covers():
    # frame 155 of the fin34 r0_cards set (4K, green board, warm lamp glare in the middle):
    # the gaps between the cards read greener at the dim edges than in the middle, and
    # against one median for the whole board 18 edge chips read as covers (`?`)
    from test_vision_support import spec_frame

    from companion.vision import analyze_image

    image, truth = spec_frame("green_board_dim_edges_4k_cards_spec.json", written=True)
    reading = analyze_image(image)
    assert reading.cells == truth.cells


def test_the_printing_beside_a_chip_is_measured_without_the_chip():
    # cards 48 px wide with their corner indices in red or black (checkerboard), each under a
    # chip of another colour in turn: the ink still showing around the chip is the card's
    n = 48
    img = np.full((10 * n, 10 * n, 3), (120, 125, 125), np.uint8)
    colours = [(170, 70, 20), (40, 150, 30), (40, 30, 200)]  # blue, green, red chips
    red_card = np.zeros((10, 10), bool)
    for r in range(10):
        for c in range(10):
            x, y = c * n, r * n
            cv2.rectangle(img, (x + 2, y + 2), (x + n - 3, y + n - 3), (232, 236, 238), -1)
            red_card[r, c] = (r + c) % 2 == 1
            ink = (30, 30, 200) if red_card[r, c] else (30, 30, 30)
            cv2.rectangle(img, (x + 5, y + 5), (x + 9, y + 12), ink, -1)  # the corner index
            cv2.rectangle(img, (x + n - 10, y + n - 13), (x + n - 6, y + n - 6), ink, -1)
            cv2.circle(img, (x + n // 2, y + n // 2), 14, colours[(r * 10 + c) % 3], -1)
    feats = chips.measure(img, ColourProfile())
    cells = np.ones((10, 10), bool)
    red, dark = chips.ink_beside_chips(feats, cells)
    assert (red + dark > 0.01).all()  # printing shows beside every chip
    assert (red[red_card] > dark[red_card]).all()  # red indices beside blue, green, red chips
    assert (dark[~red_card] > red[~red_card]).all()  # black ones beside them too
    assert not chips.ink_beside_chips(feats, np.zeros((10, 10), bool))[0].any()


def test_a_margin_along_a_whole_edge_column_is_no_colour_of_the_board_s_own():
    # a grid a cell off (fin39 mat frame 51, 7 % of a 640x480 frame): its last column lies on
    # the board's blue margin all along, which runs along its cells' boundaries; against a
    # median that repeated the edge column it was the board's own colour, and the column read
    # as ten blue chips on a grid read 12 cells wrong
    from companion.vision.chips import cell_shape, coloured_sides

    shape = cell_shape(CW, CH)
    mask = np.zeros((10 * CH, 10 * CW), np.uint8)
    mask[:, 9 * CW + 1 :] = 255  # the margin over the whole last column
    sides = coloured_sides(mask, shape)
    assert (sides[1:9, 9] >= 2).all()
    assert not sides[:, :8].any()
