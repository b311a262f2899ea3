"""Frames drawn by a renderer written independently of ours (a separate session wrote it from a
brief, without reading ``companion/render`` or ``companion/vision``): a jax-like retail board,
its own chips, light and camera. Each one failed in a way our own renderer had not shown; the
truth is that renderer's (``tests/data/independent/*.json``, cells in canonical order)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from companion.calibration import Calibration
from test_vision_support import independent_frame

from companion.vision import BoardReader, analyze_image
from companion.vision.geometry import canonical_corners

DATA = Path(__file__).parent / "data" / "independent"


_read = independent_frame


@pytest.mark.parametrize(
    ("name", "cell", "why"),
    [
        # a dark, brownish red chip on the 8 of clubs (a card that prints no red), small in
        # the frame: its red kept too little through the erosion and read as printed ink
        ("jax1_frame_0003", (3, 0), "red on a card printing none"),
        # a mint-green chip under a soft glare, too pale for the green class: read empty
        ("jax1_frame_0023", (4, 8), "a pale disc"),
    ],
)
def test_chip_once_read_empty_is_no_longer(name, cell, why):
    reading, truth = _read(name)
    r, c = cell
    assert truth["cells"][r][c] != "."
    assert reading.cells[r][c] in ("?", truth["cells"][r][c]), why


def test_chips_holed_by_their_highlights_read_as_chips():
    """A board small in the frame whose chips' highlights bite into their discs at the rim:
    five red chips on cards printed red read as printed ink (empty), and blue and green ones
    beside each other as a pattern (`?`). As wide as a chip and about as round, they are
    chips; nothing is read wrong."""
    reading, truth = _read("jax2_frame_0096")
    assert _wrong(reading, truth) == []
    for r, c in ((3, 9), (4, 9), (6, 4), (7, 4)):  # green chips side by side
        assert reading.cells[r][c] == "G"
    assert sum(row.count("?") for row in reading.cells) <= 9  # 14 before


def _wrong(reading, truth) -> list[tuple[int, int]]:
    return [
        (r, c)
        for r in range(10)
        for c in range(10)
        if reading.cells[r][c] not in ("?", truth["cells"][r][c])
    ]


def test_chips_doubted_only_for_each_other_read_as_chips():
    """Green chips holed by their highlights, two of them side by side: each left `?` as a
    pattern, and each one's colour on the border it shares made the other, and the empty card
    beside them, doubted as lying next to a cover. Such doubts only echo the chips looked at:
    the board reads exactly (9 cells `?` before)."""
    reading, truth = _read("jax2_frame_0001")
    assert reading.cells == truth["cells"]


def test_green_chips_on_a_green_felt_board():
    """A felt board whose gaps are green: its green chips measured 0.86-0.89 of the board's
    chip width (their rims merge with the felt), too narrow for a chip's disc before; 11 cells
    were `?`."""
    reading, truth = _read("mixed2_frame_0013")
    assert _wrong(reading, truth) == []
    assert sum(row.count("?") for row in reading.cells) <= 1


def test_small_board_crowded_with_chips():
    """A board small in the frame, crowded with chips: 21 cells were `?`, doubted beside one
    another. Two red chips read as printing stay wrong (a known weakness: their blobs join the
    cards' pips and side walls into shapes no disc test passes); no other cell is wrong, and a
    card read empty by its shape alone does not stand in for the cells like it."""
    reading, truth = _read("mixed2_frame_0076")
    assert set(_wrong(reading, truth)) <= {(1, 5), (6, 5)}
    assert sum(row.count("?") for row in reading.cells) <= 2


def test_paper_board_whose_margins_fooled_the_fit_by_a_cell_both_ways():
    """A printed paper board whose white margins, each about a cell wide, made the fitted grid
    take in a margin column and a margin row: 42 of 100 cells read wrong. Moving it by a cell
    along each axis ran off the frame or kept a margin line; moved along both, it reads right."""
    reading, truth = _read("mixed3_frame_0084")
    assert reading.cells == truth["cells"]


@pytest.mark.parametrize(
    ("name", "wrong_before"),
    [
        ("mixed3_frame_0035", 22),  # a jax-like board on a gingham cloth, its faint gaps lost
        ("jax3_frame_0018", 6),  # the grid's top edge half a cell above the cards
    ],
)
def test_a_grid_bent_off_the_cards_is_not_reported(name, wrong_before):
    """The fitted grid lay on the cards in one part of the board and off them in another (the
    cloth's checks or the margin fooled the fit), and the reading had `wrong_before` cells
    wrong with plausible ink. Its empty cards do not look like their empty twins (median
    likeness 0.16-0.18; 0.34 and more on every grid that read right): that grid is refused,
    and no board is reported rather than a wrong one, unless the closer look finds the
    board's own grid (the jax-like board, since its profiles' strongest peaks are cut too)."""
    reading = analyze_image(cv2.imread(str(DATA / f"{name}.jpg")))
    if reading.board_found:
        truth = json.loads((DATA / f"{name}.json").read_text())
        assert reading.orientation == truth["orientation"]
        assert _wrong(reading, truth) == []
    else:
        assert name != "jax3_frame_0018"  # found and read right on the closer look


def test_a_moved_grid_reading_a_chip_on_a_free_corner_is_refused():
    """An arm across the board: the located grid's copy moved by a cell along both axes read
    plausibly (0.47) with a chip on a free corner, where nobody plays, and one chip invented.
    It is refused; the closer look finds the board's own grid and reads no cell wrong."""
    reading = analyze_image(cv2.imread(str(DATA / "hands2_frame_0037.jpg")))
    truth = json.loads((DATA / "hands2_frame_0037.json").read_text())
    assert reading.board_found and reading.orientation == truth["orientation"]
    assert _wrong(reading, truth) == []


def test_a_chip_paled_by_glare_on_a_board_lit_close_to_clipping():
    """A board lit so brightly that its white clips, under a glare spot: the white could not
    rise, so the glare was found but nothing taken off, and a green chip paled to a faint
    tint read empty. On a cell not much clipped itself the darkest level alone now measures
    the veil and takes it off; what is left of the chip is too pale for green but too broad
    for printing: `?`, not empty."""
    reading, truth = _read("jax4_frame_0115")
    assert truth["cells"][7][7] == "G"
    assert reading.cells[7][7] in ("G", "?")
    assert _wrong(reading, truth) == []


def test_chips_paled_by_a_veil_whose_white_rose_little():
    """A veil of glare lifted the black ink by up to 115 levels and the white by 20: taken as
    the same light in grey levels, the white's 20 said no glare was there, and three red chips
    paled to salmon read empty. As a share of the way up to white the two agree: taken off,
    two of the chips are red again or `?`; the third (on the spot's edge) is still read
    empty."""
    reading, truth = _read("mixed4_frame_0071")
    assert reading.cells[7][4] in ("R", "?") and reading.cells[7][5] in ("R", "?")
    assert set(_wrong(reading, truth)) <= {(9, 6)}


def test_a_chip_still_pale_where_glare_was_taken_off_is_unknown():
    """A narrow glare spot: taken off by the light measured at each cell's darkest point, a
    red chip at its centre came back as a broad pale pink tint, which read empty with full
    confidence. No empty card's printing spreads a tint that broad: the cell is `?`."""
    reading, truth = _read("mixed4_frame_0075")
    assert truth["cells"][4][4] == "R"
    assert reading.cells[4][4] in ("?", "R")
    assert _wrong(reading, truth) == []


def test_dark_maroon_chips_narrower_in_their_red_class_read_as_chips():
    """Two dark maroon chips whose shaded part falls out of the red class: their red blobs'
    inner circles measured 0.79 and 0.83 of the board's chip width (1.28 and 1.44x their
    circle), below the 0.85 that a disc as wide as a chip needed, and read as printing. No
    printing measures over 0.76 of the width: the band now starts at 0.78."""
    reading, truth = _read("jax5_frame_0056")
    assert truth["cells"][2][9] == truth["cells"][4][8] == "R"
    assert reading.cells[2][9] == reading.cells[4][8] == "R"
    assert _wrong(reading, truth) == []


def test_a_board_whose_outer_edges_outshine_its_faint_gaps_is_found():
    """A jax-like board crowded with chips, its cards' gaps faint: inside the board's outline
    its strong outer edges won both axes' fits (the rows at 0.64 of the pitch), the refined
    grid fit no homography and no board was reported. The closer look also fits each axis
    with the profile's peaks cut to four times its median, and reads the board exactly."""
    reading, truth = _read("jax5_frame_0108")
    assert reading.cells == truth["cells"]


def test_a_grid_a_cell_off_with_the_title_strip_for_an_edge_row_loses():
    """A printed paper board on a gingham cloth: the fitted grid took in the title strip as
    its edge row (unreadable whole) and left out the first column of cards; its corners, by
    chance more alike than the board's three different emblems, read it more plausibly (0.60)
    than the grid moved by a cell (0.45 after its handicap, 0.70 ink match against 0.42), and
    51 cells were read wrong. A grid leaving a whole edge line unreadable now ranks lower."""
    reading, truth = _read("mixed6_frame_0027")
    assert reading.cells == truth["cells"]


@pytest.mark.parametrize(
    ("name", "unknown_max"),
    [
        ("mixed6_frame_0119", 2),  # 800x600, on an orange zigzag cloth (read exactly)
        # 640x480, on a striped cloth whose stripes outshine the board (glare on it)
        ("mixed6_frame_0111", 10),
        # 800x600 on a gingham cloth: five grids fitted to the cloth's checks and the cards'
        # edges first (chips across their lines, empty twins unlike), which had dropped the
        # sheet; 21 cells `?` under glare and along faint lines
        ("mixed6_frame_0022", 24),
    ],
)
def test_a_sheet_of_cards_whose_gaps_are_too_faint_to_fit_is_found_as_its_outline(
    name, unknown_max
):
    """Cards printed edge to edge on a sheet laid on felt, in a small frame: the 1-px gaps of
    felt between the white cards were too faint for any grid fitted to them to explain enough
    of its lines, and no board was reported (8 of 18 such boards in frames up to 800 px).
    The closer look now also takes the sheet's outline as the grid itself, reported only when
    it reads clearly plausibly and its many empty twin cards look alike."""
    reading, truth = _read(name)
    assert _wrong(reading, truth) == []
    assert sum(row.count("?") for row in reading.cells) <= unknown_max


def test_a_paper_board_under_an_arm_found_by_its_twins():
    """A printed paper board, an arm across it from a free corner: read at plausibility 0.32
    (27 % of its cells under the arm), its ink matched the layout clearly (0.64, 0.64 ahead of
    the next turn), but its four free corners, three different emblems and one under the arm,
    did not look alike, and no board was reported. Its 24 pairs of empty twin cards look alike
    (0.995): the grid lies on the cards, no cell off, and the board is reported; no visible
    cell is read wrong, and every cell under the arm is `?` or right."""
    reading = analyze_image(cv2.imread(str(DATA / "hands6_frame_0043.jpg")))
    truth = json.loads((DATA / "hands6_frame_0043.json").read_text())
    assert reading.board_found and reading.orientation == truth["orientation"]
    assert _wrong(reading, truth) == []


def test_rust_red_chips_read_as_red():
    """A 640x480 frame whose red chips lean to rust (hues 4-9 of 180, saturation 0.55-0.9 with
    the light divided out): half of each chip's pixels fell between red's band and the
    saturated orange-red one, its red kept too little through the erosion, and 8 red chips
    were read empty. Pale orange pixels among red ones now count as red; two chips left are
    read empty (on cards printing red, as printing), none is invented."""
    reading, truth = _read("jax7_frame_0077")
    wrong = _wrong(reading, truth)
    assert all(reading.cells[r][c] == "." and truth["cells"][r][c] == "R" for r, c in wrong)
    assert len(wrong) <= 2


def test_a_board_with_an_arm_along_its_edge_found_by_its_twins():
    """A paper board, an arm across it from one side: every cell of that edge line is under
    the arm or beside it (`?`), which a grid a cell off shows too (its edge line on the table),
    so the board was not reported, though its ink matched the layout clearly (0.70, 0.57
    ahead of the next turn). Its 11 pairs of empty twin cards look alike (0.99): the grid lies
    on the cards, and the board is reported with every cell `?` or right."""
    reading = analyze_image(cv2.imread(str(DATA / "hands7_frame_0039.jpg")))
    truth = json.loads((DATA / "hands7_frame_0039.json").read_text())
    assert reading.board_found and reading.orientation == truth["orientation"]
    assert _wrong(reading, truth) == []


def test_a_board_under_an_arm_up_its_middle_found_by_its_twins():
    """A jax-like board, an arm reaching up its middle: a quarter of the cells unknown, a
    whole edge line unreadable, the ink 0.52 like the layout and only 0.19 ahead of the next
    turn, so the grid read 0.08 plausibly and the board was not reported. Its 10 pairs of empty
    twin cards look alike (0.94): the grid lies on the cards, in this orientation, and the
    board is reported with every cell `?` or right."""
    reading = analyze_image(cv2.imread(str(DATA / "hands10_frame_0035.jpg")))
    truth = json.loads((DATA / "hands10_frame_0035.json").read_text())
    assert reading.board_found and reading.orientation == truth["orientation"]
    assert _wrong(reading, truth) == []
    assert sum(row.count("?") for row in reading.cells) >= len(truth["hidden"])


def test_a_board_under_an_arm_showing_few_empty_twins_found_by_them():
    """An arm over a jax-like board and along one edge: a whole edge line unreadable, and only
    5 pairs of empty twin cards in view, though alike (0.99). Each pair alike is a card beside
    its own twin, which no grid turned or a cell off shows: the board is reported with every
    cell `?` or right."""
    reading = analyze_image(cv2.imread(str(DATA / "hands3_frame_0013.jpg")))
    truth = json.loads((DATA / "hands3_frame_0013.json").read_text())
    assert reading.board_found and reading.orientation == truth["orientation"]
    assert _wrong(reading, truth) == []


def test_a_grid_moved_back_onto_a_board_whose_edge_an_arm_hides_is_found_by_its_twins():
    """A paper board, an arm over its last column: the fit took in the margin and missed that
    column, a cell off both ways. Moved back, the grid leaves that column unreadable, which a
    grid moved onto the table shows too, so it was refused; its 33 pairs of empty twin cards
    look alike (0.99): it lies on the cards, and the board is reported with every cell `?`
    or right."""
    reading = analyze_image(cv2.imread(str(DATA / "hands11_frame_0027.jpg")))
    truth = json.loads((DATA / "hands11_frame_0027.json").read_text())
    assert reading.board_found and reading.orientation == truth["orientation"]
    assert _wrong(reading, truth) == []


@pytest.mark.parametrize(
    ("name", "cell"),
    [
        ("jax7_frame_0057", (4, 6)),  # a green chip, 135 grey levels of glare taken off
        ("jax6_frame_0080", (7, 5)),  # a red chip, 112 levels
        # a green chip on a board lit so close to clipping that the glare could not be taken
        # off (a red chip below it, clipped in part, read empty too)
        ("jax7_frame_0048", (6, 3)),
        # a red chip washed pink: with 170 levels of glare taken off and the light divided out
        # by the cream cards' white, its hue leans to crimson (162-171), below red's band, and
        # too pale for a crimson chip's
        ("jax8_frame_0067", (8, 7)),
    ],
)
def test_a_chip_washed_out_by_strong_glare_is_unknown(name, cell):
    """Strong glare taken off a chip, or glare too close to clipping to take off, leaves little
    of its colour (saturation 0.1-0.2 of full, below every chip and tint class): the chip read
    empty with full confidence. Its faint hue still fills a round disc as wide as the board's
    chips, which no printing does: the cell is `?`, and nothing on the board is read wrong."""
    reading, truth = _read(name)
    r, c = cell
    assert truth["cells"][r][c] in "BGR"
    assert reading.cells[r][c] in ("?", truth["cells"][r][c])
    assert _wrong(reading, truth) == []


def test_bold_hearts_under_glare_are_no_washed_chips():
    """The crimson hues a washed red chip leans to are looked at only where they outnumber red:
    a bold heart's blurred pink rim reaches them too, and joined to the heart's red it made a
    round disc (two empty cells of a sample frame, under glare, were `?`)."""
    frame = Path(__file__).parent.parent / "sample_images" / "frames" / "frame_0022.jpg"
    reading = analyze_image(cv2.imread(str(frame)))
    assert reading.board_found
    for cell in ("F5", "I8"):
        assert cell not in reading.unknown_reasons


def test_a_board_on_a_striped_cloth():
    """A board on a cloth of stripes about half a cell wide: the stripes outside the board fit a
    10x10 grid better than the board's own faint gaps, in several variants that run out of the
    frame (the stripes go on past its edges), and they crowded the board's own outline out of
    the closer look. Grids that run out of the frame are now tried after those inside it: the
    board is found and read with no cell wrong."""
    reading, truth = _read("jax8_frame_0020")
    assert _wrong(reading, truth) == []


def test_a_plausible_grid_with_unlike_twins_is_not_taken_at_once():
    """A board's outline read plausibly (1.13) with its empty twin cards unlike (0.30 over 10
    pairs) and 7 chips across its boundaries: a grid a part of a cell off, which read a red
    chip empty. Such a reading is no longer taken without trying its alternatives: the grid
    moved by the chips' offset reads 1.55 (twins 0.92) and every cell right."""
    reading, truth = _read("jax7_frame_0067")
    assert _wrong(reading, truth) == []


def test_a_rust_red_chip_on_a_card_printed_red_is_unknown():
    """A rust-red chip (hues 4-9) on a card printed red: its paler orange half is neither red
    nor skin, so its red class was no chip's disc and the cell read empty as printing (0.6).
    Red's hues at the chip colours' least saturation, with the orange-red ones, make a disc
    both round and as wide as a chip: the cell is `?` (`rust_disc`)."""
    reading, truth = _read("jax8_frame_0090")
    assert truth["cells"][1][7] == "R"
    assert reading.cells[1][7] in ("?", "R")
    assert _wrong(reading, truth) == []


@pytest.mark.parametrize(
    ("name", "cell"), [("mixed8_frame_0030", (6, 7)), ("mixed8_frame_0050", (4, 4))]
)
def test_a_red_chip_holed_by_its_highlight_on_a_red_card_is_read(name, cell):
    """A red chip on a card printed red, holed by its highlight, small in the frame (20-21 px
    cells): too little of its red survived the erosion for a chip, too much for printing, and
    the cell was left `?` (undecided). Its red is a disc as wide as the board's chips, as a
    chip read as ink shows: it is read red."""
    reading, truth = _read(name)
    r, c = cell
    assert truth["cells"][r][c] == "R"
    assert reading.cells[r][c] == "R"
    assert _wrong(reading, truth) == []


def test_gaps_between_cards_are_not_lost_between_the_warps_samples():
    """A sheet of cards printed edge to edge, 800x600, the board ~510 px wide for a 280 px grid
    image (1.8 frame pixels per grid pixel): the warp sampled one point per grid pixel, and the
    1-px gaps fell between the samples on every other boundary, which read as boundaries gone
    under a cover (21 cells `?`). From 1.5 frame pixels per grid pixel the missing boundaries
    are now looked for in an area-averaged view too: at most 8 cells are `?`."""
    reading, truth = _read("mixed6_frame_0022")
    assert _wrong(reading, truth) == []
    assert sum(row.count("?") for row in reading.cells) <= 8


def test_solid_chips_in_plain_sight_are_not_covered_for_faint_lines():
    """A sheet of cards printed edge to edge, 800x600, lit unevenly: its 1-px gaps fade out in
    places, and cells there read as boundaries gone under a cover, solid chips among them. A
    solid chip in plain sight (no skin on it, no foreign border beside it) lies on top of the
    board: nothing covers it, and it is read (22 cells `?` before, 12 now, none wrong)."""
    reading, truth = _read("mixed7_frame_0086")
    assert _wrong(reading, truth) == []
    assert sum(row.count("?") for row in reading.cells) <= 13


def test_chips_beside_a_chip_washed_out_by_glare_are_read():
    """Four green chips holed by their highlights around a red chip washed out by glare (67
    grey levels taken off): each green one left `?` as a pattern, and the small-chip look,
    which reads such discs, was blocked by the washed-out cell beside them as if a card lay
    there. Glare pales a chip but never hides one beside it: the four are read green (their
    discs are as wide as the board's chips), and only the washed-out chip stays `?`."""
    reading, truth = _read("jax4_frame_0069")
    assert _wrong(reading, truth) == []
    for r, c in ((3, 3), (4, 2), (5, 1), (6, 3)):
        assert reading.cells[r][c] == truth["cells"][r][c] == "G"
    assert sum(row.count("?") for row in reading.cells) <= 1


def test_a_red_chip_on_a_red_ace_unlike_its_empty_twin_is_read():
    """A dark red chip on the ace of diamonds: a red disc about as wide as the ace's one big
    pip, which its shape cannot tell from it, left `?` (undecided). Its twin ace reads empty,
    and the cell's picture is unlike the twin's (likeness 0.38; empty aces whose twin is empty
    measure 0.96 and more as a rule, chips on them 0.63 at most): it is read red."""
    reading, truth = _read("jax6_frame_0044")
    assert truth["cells"][7][6] == "R"
    assert reading.cells[7][6] == "R"
    assert reading.cells == truth["cells"]


def test_a_board_seen_at_a_tilt_is_read_with_round_chips():
    """A jax-like board turned a quarter and seen at a tilt: foreshortened, its quad's
    apparent ratio made the grid image's cells half as wide as tall (the cards are 2/3), and
    its chips ellipses 0.73 as wide as tall. No blob was round: the board's chip width went
    unmeasured and six green chips small against their cells were `?` as a pattern. Warped
    again to cells that keep the chips round, the board reads exactly."""
    frame = cv2.imread(str(DATA / "jax9_frame_0027.jpg"))
    truth = json.loads((DATA / "jax9_frame_0027.json").read_text())
    reader = BoardReader()
    reading = reader.read(frame)
    assert reading.board_found and reading.orientation == truth["orientation"]
    assert reading.cells == truth["cells"]
    assert reader.shape is not None
    assert reader.shape.w / reader.shape.h == pytest.approx(2 / 3, abs=0.07)
    assert reader.read(frame).cells == truth["cells"]  # and so on the next frame


def test_a_calibrated_camera_at_a_tilt_reads_with_round_chips_once_chips_show():
    """A calibration taken on the empty board stores the quad but cannot say how it stretches
    chips: the first frame with enough blue and green chips says it, and is read round."""
    frame = cv2.imread(str(DATA / "jax9_frame_0027.jpg"))
    truth = json.loads((DATA / "jax9_frame_0027.json").read_text())
    located = BoardReader()
    located.read(frame)
    calibration = Calibration(
        corners=canonical_corners(located.quad, located.orientation),
        orientation=located.orientation,
        image_size=(frame.shape[1], frame.shape[0]),
        lens=located.lens,
    )
    reader = BoardReader(calibration)
    assert reader.shape is None
    assert reader.read(frame).cells == truth["cells"]
    assert reader.shape == located.shape


def test_a_felt_board_s_faint_lines_leave_no_cover_behind():
    """A felt board printing its cards edge to edge in sheets: between two cards of a sheet
    the line hardly shows, so two empty cards looked covered (lines gone) and 11 cells
    beside them, chips and empty cards, were `?` for lying beside a cover. Their twins held
    chips; each looks like another empty card of its rank or suit (the cells doubted only
    beside them not counted among the cards to compare), and once they read empty, the cells
    beside them had no cover behind their doubt."""
    reading, truth = _read("mixed6_frame_0079")
    assert reading.cells == truth["cells"]


def test_five_empty_cards_with_faint_lines_are_compared_with_their_cousins():
    """A felt board late in a game: five empty cards between sheets' faint lines looked
    covered, and their twins held chips; with more than four unknown cells no cousin was
    looked at and 14 cells stayed `?`. Each looks like another empty card of its rank or suit,
    and the chips beside them read what they show."""
    reading, truth = _read("mixed6_frame_0004")
    assert reading.cells == truth["cells"]


def test_the_cards_outline_is_tried_when_a_plausible_grid_s_twins_are_unlike():
    """A small felt board at a slant on a wood table: the first grid fitted ran along a
    sheet's edge inside the board, and moved by a cell it read plausibly (0.53) with its empty
    twins only 0.49 alike; the cards' outline, tried only when nothing read as a board, was
    never looked at, and 14 cells were read wrong. Read, it is the board (twins 0.96 alike)."""
    reading, truth = _read("mixed10_frame_0100")
    assert reading.cells == truth["cells"]


@pytest.mark.parametrize(
    ("name", "cell"),
    [
        # a red chip pushed off the ace of hearts' pip, merged with a heart pip beside it
        ("jax11_frame_0070", (1, 5)),
        # a red chip on a mixed board's heart card, small in the frame and holed by its
        # highlight
        ("mixed4_frame_0052", (1, 6)),
    ],
)
def test_a_red_chip_read_as_printing_unlike_its_empty_twin_is_red(name, cell):
    """A red chip on a card printed red that keeps no more of its red through the erosions
    than printing does, merged with the pips into no disc, was read as printed ink (empty).
    Its twin card reads empty with less red, and the two show different pictures on a board
    whose empty twins look alike: something red lies there."""
    reading, truth = _read(name)
    r, c = cell
    assert truth["cells"][r][c] == "R"
    assert reading.cells[r][c] == "R"
    wrong = [
        (r, c)
        for r in range(10)
        for c in range(10)
        if reading.cells[r][c] not in ("?", truth["cells"][r][c])
    ]
    # (jax11: a red chip on the ace of diamonds, its twin holding a chip and the red ace of
    # hearts a little alike, still reads empty)
    assert len(wrong) <= (1 if name.startswith("jax11") else 0)


def test_a_red_chip_read_as_printing_unlike_its_red_cousins_is_red():
    """A big brownish red chip on the six of hearts, its red class holed and bitten by its
    shading: no disc, read as printed ink. Its twin holds a green chip; the six of diamonds,
    read empty with much less red, shows another picture (0.27 alike, empty cards >= 0.57)."""
    reading, truth = _read("mixed11_frame_0009")
    assert truth["cells"][5][8] == "R"
    assert reading.cells == truth["cells"]


@pytest.mark.parametrize(
    ("name", "cell", "twin"),
    [
        # a green chip washed almost white by a glare spot (119 grey levels taken off)
        ("jax11_frame_0062", (9, 4), (5, 7)),
        # (a crimson chip, hue 169, just below red's band, was the other such cell: red takes
        # saturated crimson now, see test_crimson_chips_are_red_chips)
    ],
)
def test_a_chip_no_colour_class_takes_is_unknown_where_it_looks_unlike_its_empty_twin(
    name, cell, twin
):
    """A chip no colour class takes read empty, confidently: its twin card reads empty too,
    and the two look unlike (0.27) on a board whose empty twins look alike (0.96).
    Something lies on one of them; the twin shows what another empty card of its rank or suit
    shows, so the cell is the odd one: `?`, the twin empty."""
    reading, truth = _read(name)
    (r, c), (tr, tc) = cell, twin
    assert truth["cells"][r][c] in "BGR" and truth["cells"][tr][tc] == "."
    assert reading.cells[r][c] == "?"
    assert reading.unknown_reasons[f"{'ABCDEFGHIJ'[c]}{r + 1}"][0] == "unlike_twin"
    assert reading.cells[tr][tc] == "."
    assert _wrong(reading, truth) == []


def test_red_chips_on_an_over_exposed_board_read_as_red_by_their_round_discs():
    """An over-exposed mixed board: the white cards clip, and each red chip's highlight clips
    white and bites into its disc, so the chip keeps too little red through the erosion and
    its cell says glare: five red chips were `?`. Each one's red is a round disc as wide as the
    board's blue and green chips, which no printed symbol is: read red (one less round chip
    stays `?`), nothing read wrong."""
    reading, truth = _read("mixed8_frame_0068")
    assert _wrong(reading, truth) == []
    unknown = [(r, c) for r in range(10) for c in range(10) if reading.cells[r][c] == "?"]
    assert len(unknown) <= 1
    for r, c in ((2, 2), (2, 7), (3, 8), (4, 7)):
        assert truth["cells"][r][c] == "R" and reading.cells[r][c] == "R"


def test_dark_fingers_across_a_red_card_are_no_red_chip():
    """An unseen frame: dark fingers in shadow across the corner of a card printed red, no skin
    class showing and the card's border its own. The card looks unlike its empty twin (0.65,
    0.60 loosely), but it shows 0.14 of the dark class where its twin shows none: something
    dark lies there, not a red chip (red chips read empty showed none). It is not read red."""
    reading, truth = _read("hands12_frame_0012")
    assert truth["cells"][6][3] == "." and reading.cells[6][3] != "R"
    assert _wrong(reading, truth) == []


@pytest.mark.parametrize(
    ("name", "cells"),
    [
        # mint-green chips on a jax-like board small in the frame, blurred: 0.31-0.34 of the
        # cell green, only 0.13-0.14 left through the erosion (a chip needs 0.16)
        ("jax11_frame_0075", ((4, 6), (5, 6))),
        # a pale green chip on a mixed board's king of hearts, no glare anywhere near it
        ("mixed9_frame_0085", ((6, 6),)),
    ],
)
def test_pale_chips_without_glare_read_as_their_colour(name, cells):
    """Pale green chips too pale for the green class were left `?` as a card back's pattern:
    the pale-chip look wanted glare on the cell to explain the paleness. Blue and green are
    never printed, and a pale disc of one hue as broad as a chip, with a clean border, is a
    chip: read green, the whole board right."""
    reading, truth = _read(name)
    for r, c in cells:
        assert truth["cells"][r][c] == "G" and reading.cells[r][c] == "G"
    assert reading.cells == truth["cells"]


@pytest.mark.parametrize(
    ("name", "cells"),
    [
        # an empty three of diamonds beside cells once doubted (twin holding a chip)
        ("jax5_frame_0104", ((2, 3),)),
        # three empty cards of a mixed board around a cell once doubted
        ("mixed9_frame_0105", ((0, 2), (1, 3), (2, 2))),
    ],
)
def test_empty_cards_doubted_beside_a_cover_that_was_none_read_empty_by_their_cousins(name, cells):
    """Empty cards read empty, then doubted only for lying beside a cell that looked covered
    and was read later (no cover was there): their twins hold chips, and their best empty
    cousin looked 0.78-0.79 alike, just short of the 0.8 an unknown cell needs. Doubted only
    for their neighbour, 0.75 is enough (chips doubted so measured at most 0.7): the whole
    board reads right."""
    reading, truth = _read(name)
    for r, c in cells:
        assert truth["cells"][r][c] == "." and reading.cells[r][c] == "."
    assert reading.cells == truth["cells"]


def test_red_chips_whose_highlight_holes_their_rim_are_read():
    """Two red chips on red cards, small against their cells (0.85-0.92 of the board's chip
    width), were `?` (undecided): their red merged with the pips and the opening that cuts
    printing off a rim widened their highlights' holes until the discs fell apart. With the
    small holes filled before the opening they are round discs as wide as a chip."""
    reading, truth = _read("jax11_frame_0048")
    assert truth["cells"][4][8] == truth["cells"][9][7] == "R"
    assert reading.cells == truth["cells"]


def test_a_red_disc_doubted_beside_a_cover_that_was_lifted_is_read():
    """A red chip on the four of hearts (F5), undecided between chip and printing, was also
    doubted beside a cover that proved to be none: its red is a whole round disc as wide as the
    board's chips, which no cover leaves, so it is read as the chips read as printing are."""
    reading, truth = _read("mixed11_frame_0119")
    assert truth["cells"][4][5] == "R"
    assert reading.cells == truth["cells"]


def test_a_small_chip_beside_cells_its_twins_cleared_is_read_by_its_disc():
    """A green chip on A5, small against its cell (undecided), lay beside two empty cards read
    `?` as covered (no printing showing, faint lines) and was doubted beside them. The look at a
    small chip's disc skipped it: those cells blocked it as a cover would. Their twins then read
    them empty; the chip is looked at again and read by its round disc."""
    reading, truth = _read("jax12_frame_0073")
    assert truth["cells"][4][0] == "G"
    assert reading.cells == truth["cells"]


@pytest.mark.parametrize(
    ("name", "cell", "washed"),
    [("jax5_frame_0023", (9, 3), (8, 3)), ("jax6_frame_0039", (4, 2), (5, 2))],
)
def test_a_small_chip_beside_a_chip_washed_out_by_glare_is_read_by_its_disc(name, cell, washed):
    """A blue chip small against its cell (undecided) lay beside a chip glare washed out: that
    cell was doubted for the glare and for what a washed-out chip shows besides (part of its
    colour, or its printing gone). Glare hides no chip beside it, so that cell no longer blocks
    the look at the small chip's round disc; the washed-out chip itself is read by its faint
    hue's disc (see the next test)."""
    reading, truth = _read(name)
    (r, c), (wr, wc) = cell, washed
    assert truth["cells"][r][c] == "B" and truth["cells"][wr][wc] in "BG"
    assert reading.cells[r][c] == "B"
    assert reading.cells[wr][wc] == truth["cells"][wr][wc]
    assert _wrong(reading, truth) == []


@pytest.mark.parametrize(
    ("name", "cells", "colour"),
    [
        ("jax7_frame_0048", ((6, 3), (6, 4)), "G"),
        ("mixed8_frame_0050", ((1, 4), (3, 4), (3, 5)), "R"),
        ("jax11_frame_0033", ((7, 3),), "R"),  # on a picture card (a queen), its twin empty
        ("jax6_frame_0045", ((4, 8),), "R"),  # joined to a heart's pip, its twin empty
        ("mixed5_frame_0013", ((6, 3),), "G"),  # cut by clipped glare, its twin empty
    ],
)
def test_chips_washed_out_by_glare_are_read_by_their_faint_hues_disc(name, cells, colour):
    """Glare washed out these chips: too pale for their colour's class, showing a broad pale
    tint, part of their colour or no printing, they were left unknown. Their faint hue still
    makes a chip's round disc in their colour and in no other chip colour: chips of that
    colour (red only where glare was found). Against the card's twin read empty, which shows
    no such disc, also on a picture card, and also a disc as wide as a chip but not round."""
    reading, truth = _read(name)
    for r, c in cells:
        assert truth["cells"][r][c] == colour
        assert reading.cells[r][c] == colour
        assert reading.unknown_reasons.get(f"{'ABCDEFGHIJ'[c]}{r + 1}") is None
    assert _wrong(reading, truth) == []


def _cells(names: str) -> list[tuple[int, int]]:
    return [(int(name[1:]) - 1, "ABCDEFGHIJ".index(name[0])) for name in names.split()]


@pytest.mark.parametrize(
    ("name", "cells"),
    [
        # a small board in a 640x480 frame, blurred: blue and green chips left undecided, and
        # those beside them doubted as lying next to a cover
        ("mixed5_frame_0096", "F3 E4 C6 E6 B7 D7 B8 C8 B9 C9 B10 G10"),
        # an arm over the board: chips beside it doubted, and chips it shadows undecided
        ("hands_s63_frame_0014", "D2 E2 F3 H4 A5 B6 E6 F6 B7 H7 I7 J7 C8"),
        # a blue chip under glare, undecided, its border's colour strange to the board's
        ("jax6_frame_0107", "H3"),
        # a blurred green chip whose highlights left thin strokes of green: a pattern
        ("mixed8_frame_0073", "I3"),
    ],
)
def test_chips_left_undecided_or_beside_a_cover_are_read_by_their_faint_disc(name, cells):
    """Blue and green chips a person reads at a glance were left unknown: too little of their
    colour reached its class (blurred, paled, shadowed), or they lay beside such a doubt or an
    arm, or their border showed a colour strange to the board's. Their faint hue still makes a
    chip's disc in one chip colour alone: that chip."""
    reading, truth = _read(name)
    for r, c in _cells(cells):
        assert truth["cells"][r][c] in "BG"
        assert reading.cells[r][c] == truth["cells"][r][c]
    assert _wrong(reading, truth) == []


def test_a_red_chip_left_undecided_is_read_against_its_twin_read_empty():
    """A red chip (F2) left undecided: too little of its red reached its class. A hand's skin
    lies in red's faint hues, so a faint red disc is read as a chip only where glare was
    found, or as here on a cell doubted for nothing else, against its twin card read empty,
    which shows no such disc: the card as printed shows none."""
    reading, truth = _read("mixed11_frame_0072")
    assert truth["cells"][1][5] == "R"
    assert reading.cells[1][5] == "R"
    assert _wrong(reading, truth) == []


def test_solid_chips_beside_a_chip_washed_out_where_glare_was_taken_off_are_read():
    """A blue chip on G4 lay under glare that was taken off; it came back pale, part of its blue
    showing as fingers leave of a chip, and it stays unknown. Three solid chips beside it (H3,
    H4, H5) were doubted as lying beside a cover. With no skin on it, that cell is glare's,
    no cover: a solid chip beside glare alone shows what it holds."""
    reading, truth = _read("jax11_frame_0084")
    assert reading.cells[3][6] == "?" and truth["cells"][3][6] == "B"
    for r, c in ((2, 7), (3, 7), (4, 7)):
        assert reading.cells[r][c] == truth["cells"][r][c] != "."
    assert _wrong(reading, truth) == []


def test_a_board_whose_outline_an_arm_bent_is_read_on_the_cards():
    """An arm reaches over a felt board's corner: no fitted grid explained enough of its lines,
    and the board's outline, bent by the arm at that corner, took in the navy border along
    two edges. Refined, the outline moved over a quarter of a cell onto the cards and explained
    half its lines, and it was thrown away for moving that far. A refined outline that explains
    its lines as well as a located grid must is now tried before the outline as found."""
    reading, truth = _read("hands_s103_frame_0059")
    assert _wrong(reading, truth) == []


@pytest.mark.parametrize(
    ("name", "cell"),
    [
        # the only chip on the board, on the 4 of hearts: no blue or green chip to measure a
        # chip's width by, so its red disc could not be told from the pips by its shape
        ("jax6_frame_0051", "I8"),
        # a red chip under glare taken off, its rim over its border
        ("mixed16_frame_0107", "H9"),
    ],
)
def test_a_red_chip_left_undecided_on_a_red_card_is_read_against_its_empty_twin(name, cell):
    """A red chip on a card printed red, left undecided: its red, merged with the pips, kept
    too little through the erosion for a chip and too much for printing. Its twin card reads
    empty and shows another picture: something red lies on it, a chip."""
    reading, truth = _read(name)
    ((r, c),) = _cells(cell)
    assert truth["cells"][r][c] == "R"
    assert reading.cells[r][c] == "R"
    assert _wrong(reading, truth) == []


def test_an_empty_card_beside_a_doubt_read_late_is_compared_with_its_cousins_again():
    """Many cells were unknown when the empty cards were compared with their twins and
    cousins (too many to compare: none were); the looks at faint discs read most of them
    later. The empty card left beside them (H1) is compared again, and reads empty."""
    reading, truth = _read("jax11_frame_0026")
    assert truth["cells"][0][7] == "."
    assert reading.cells[0][7] == "."
    assert _wrong(reading, truth) == []


def test_a_pale_red_chip_hiding_its_cards_printing_is_read_against_its_empty_twin():
    """A red chip washed pale (F4, a black suit's 3) hid its card's few pips: the cell showed
    no printing and was left unknown as blank. Red's faint hues take in a hand's skin, so a
    faint red disc is read only against the twin card read empty, which shows none."""
    reading, truth = _read("jax8_frame_0001")
    assert truth["cells"][3][5] == "R"
    assert reading.cells[3][5] == "R"
    assert _wrong(reading, truth) == []


def test_red_over_a_card_that_prints_none_is_never_read_empty():
    """A red chip on the 9 of spades (I1), its disc holed by its highlight into a ring: too
    little of its red survived the erosion, and the cell read empty outright. A black suit's
    card prints no red: red over a third of it is something lying there, a chip when its blob
    is a chip's disc, else unknown (this one's ring is a little narrow for a chip's)."""
    reading, truth = _read("jax17_frame_0111")
    assert truth["cells"][0][8] == "R"
    assert reading.cells[0][8] in ("R", "?")
    assert _wrong(reading, truth) == []


def test_a_paper_boards_title_strip_is_not_taken_for_its_first_row():
    """A printable board with its title printed beside the grid ("SEQUENCE - print & play"),
    first read on a never-seen set: the grid located one row over the title strip read 0.71
    plausibly, its "corners" blank paper and so alike, with its first row `?` and 64 cells
    wrong. The grid a row over, on the cards, read its empty twins 0.99 alike over 12 pairs
    and the ink better, and wins whatever the two rank."""
    reading, truth = _read("mixed18_frame_0021")
    assert _wrong(reading, truth) == []
    assert "".join(reading.cells).count("?") <= 2


def test_a_green_chip_washed_out_by_glare_of_another_light_is_not_read_blue():
    """A never-seen frame: a green chip under glare whose light is not the board's (neutral in
    the picture over a warm board) turned bluish once the board's white was divided out (hue
    102, the board's blue chips 105-107) and was read as a blue chip from its pale remnant.
    In the picture as it is its hue is green's (58); where the two disagree it is `?`."""
    reading, truth = _read("jax18_frame_0082")
    assert truth["cells"][9][6] == "G"
    assert reading.cells[9][6] in ("G", "?")
    assert _wrong(reading, truth) == []


@pytest.mark.parametrize(
    ("bgr", "expected"),
    [
        ((150, 215, 170), "G"),  # a green chip washed out to mint
        ((215, 170, 120), "B"),  # a blue one washed out
        ((225, 240, 250), None),  # a cream card: no cool tint
    ],
)
def test_the_colour_a_pale_chip_leans_to_in_the_picture_as_it_is(bgr, expected):
    from companion.vision.colour import ColourProfile
    from companion.vision.pipeline import _raw_cool_colour

    cell = np.full((24, 36, 3), (225, 240, 250), np.uint8)
    cv2.circle(cell, (18, 12), 9, bgr, -1)
    assert _raw_cool_colour(cell, ColourProfile()) == expected


@pytest.mark.parametrize(
    ("name", "crimson"),
    [
        # a dark crimson chip set on a navy board under a cool light: four chips read empty
        # and one red chip invented beside them; 27 cells wrong or `?`
        ("wood19_frame_0116", [(2, 9), (4, 0), (6, 2), (6, 5)]),
        # a crimson set on a wood board, one chip read empty and three `?`
        ("wood19_frame_0021", [(3, 7), (1, 3), (2, 1), (2, 7)]),
        # a crimson chip (hue 169) on a black suit's card, `?` beside its empty twin
        ("jax7_frame_0029", [(0, 7)]),
    ],
)
def test_crimson_chips_are_red_chips(name, crimson):
    """The fifth independent art (``wood``), drawn before any of its frames was read: chips of
    a crimson set lie at hues 164-170 once the light is divided out, below red's band (from
    170), and read empty or `?`. Red takes crimson hues (162-169) as saturated as a chip's too
    now (``colour.CRIMSON_RED``): the boards read exactly."""
    reading, truth = _read(name)
    for r, c in crimson:
        assert truth["cells"][r][c] == "R"
    assert reading.cells == truth["cells"]


@pytest.mark.parametrize(
    ("hue", "saturation", "red"),
    [
        (162, 200, True),  # crimson chips
        (167, 160, True),
        (167, 120, False),  # red printing washed pink
        (178, 120, True),  # red's band
        (3, 200, True),
        (155, 200, False),  # purple
        (20, 200, False),  # skin's hues
    ],
)
def test_red_takes_saturated_crimson_but_not_pink_purple_or_skin(hue, saturation, red):
    from companion.vision.colour import ColourProfile, class_mask, colour_code

    hsv = np.full((4, 4, 3), (hue, saturation, 140), np.uint8)
    code = colour_code(hsv, ColourProfile(), dark_max=60)
    assert bool(class_mask(code, "R").all()) is red
