"""The vision pipeline end to end on small hand-drawn boards (tests/test_vision_support.py)."""

from pathlib import Path

import cv2
import numpy as np
import pytest
from test_vision_support import EMPTY, SOME, make_frame

from companion.vision import BoardReader, analyze_image
from companion.vision.colour import colourless
from companion.vision.geometry import corner_error
from companion.vision.reading import NO_COLOUR


@pytest.mark.parametrize("orientation", [0, 90, 180, 270])
def test_reads_every_cell_in_every_orientation(orientation):
    frame, corners = make_frame(SOME, orientation=orientation, seed=orientation + 1, tilt=0.2)
    reading = analyze_image(frame)
    assert reading.board_found
    assert reading.orientation == orientation
    assert reading.cells == SOME
    assert corner_error(reading.corners, corners) < 6
    assert reading.confidence.shape == (10, 10)
    assert reading.confidence.min() > 0.5


def test_empty_board_reads_empty():
    frame, _ = make_frame(EMPTY, orientation=180, seed=5, fraction=0.45)
    reading = analyze_image(frame)
    assert reading.cells == EMPTY
    assert reading.orientation == 180


def test_no_board_on_a_plain_table_or_noise():
    rng = np.random.default_rng(1)
    table = np.full((360, 480, 3), (40, 80, 130), np.uint8)
    noise = rng.integers(0, 255, (360, 480, 3), dtype=np.uint8)
    for image in (table, noise):
        reading = analyze_image(image)
        assert not reading.board_found
        assert reading.cells is None and reading.to_json()["cells"] is None


def test_hand_over_cells_gives_unknown_not_a_guess():
    frame, corners = make_frame(SOME, orientation=0, seed=7)
    # a skin-coloured "arm" from the bottom edge up to the middle of column E (row 5)
    centre = corners.mean(axis=0)
    pts = np.array(
        [
            [centre[0] - 20, centre[1]],
            [centre[0] + 25, centre[1]],
            [centre[0] + 45, frame.shape[0]],
            [centre[0] - 5, frame.shape[0]],
        ],
        np.int32,
    )
    hand = frame.copy()
    cv2.fillPoly(hand, [pts], (120, 160, 215))
    reading = analyze_image(hand)
    assert reading.board_found and reading.orientation == 0
    wrong = [
        (r, c) for r in range(10) for c in range(10) if reading.cells[r][c] not in ("?", SOME[r][c])
    ]
    assert wrong == []
    assert sum(row.count("?") for row in reading.cells) >= 4
    assert reading.cells[0] == SOME[0]  # far from the arm, still read


def test_reader_fast_path_and_relocation():
    frame, _ = make_frame(SOME, orientation=90, seed=2)
    reader = BoardReader()
    first = reader.read(frame)
    second = reader.read(frame)
    assert first.cells == second.cells == SOME
    assert second.notes == []  # fast path: no re-locating
    moved, _ = make_frame(SOME, orientation=270, seed=9, fraction=0.4)
    third = reader.read(moved)
    assert third.orientation == 270 and third.cells == SOME


def _grey(frame: np.ndarray) -> np.ndarray:
    """``frame`` as a camera in its night mode sends it: grey, in three equal channels, as a
    JPEG (whose rounding leaves the channels a level or two apart)."""
    grey = cv2.cvtColor(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    return cv2.imdecode(cv2.imencode(".jpg", grey)[1], cv2.IMREAD_COLOR)


def test_a_frame_without_colour_is_no_board_and_says_why():
    frame, _ = make_frame(SOME, orientation=90, seed=2)
    assert not colourless(frame) and colourless(_grey(frame))
    reading = analyze_image(_grey(frame))
    assert not reading.board_found and reading.notes == [NO_COLOUR]
    # a located board whose camera turns grey reads no board (not a board emptied of its
    # chips), and reads on at the same place once the colour is back
    reader = BoardReader()
    assert reader.read(frame).cells == SOME
    grey = reader.read(_grey(frame))
    assert not grey.board_found and grey.notes == [NO_COLOUR]
    back = reader.read(frame)
    assert back.cells == SOME and back.notes == []


def test_an_empty_board_in_colour_is_no_grey_frame():
    # no chip to show colour: the cards' red printing and the light on the white do
    frame, _ = make_frame(EMPTY, orientation=0, seed=7)
    assert not colourless(frame)
    assert analyze_image(frame).cells == EMPTY


def test_straighten_returns_canonical_top_down_image():
    frame, _ = make_frame(SOME, orientation=180, seed=4)
    img = BoardReader().straighten(frame, width=300)
    assert img.shape[1] == 300 and img.shape[2] == 3
    # row 1 (black suits) is now at the top and row 10 (red suits) at the bottom
    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
    red = ((hsv[..., 0] < 8) | (hsv[..., 0] > 170)) & (hsv[..., 1] > 100)
    h = img.shape[0]
    assert red[int(h * 0.9) :, 40:260].mean() > red[: int(h * 0.1), 40:260].mean()


def test_bad_input_is_a_clear_error():
    with pytest.raises(ValueError, match="BGR image"):
        analyze_image(np.zeros((100, 100), np.uint8))
    with pytest.raises(ValueError, match="uint8"):
        analyze_image(np.zeros((100, 100, 3), np.float32))


def test_an_edge_line_showing_no_card_is_margin():
    from companion.vision.pipeline import margin_lines

    no_card = np.zeros((10, 10), bool)
    assert not margin_lines(no_card).any()
    no_card[0, :] = True  # a grid one cell off takes in a row of margin
    no_card[5, 3:7] = True  # a hand inside the board is not margin
    no_card[1:9, 9] = True  # the whole right-hand column too (its 8 inner cells)
    got = margin_lines(no_card)
    assert got[0, 1:9].all() and got[1:9, 9].all()
    assert not got[5, 3:7].any()
    no_card[4, 0] = True  # a single cell on an edge line is not a line
    assert not margin_lines(no_card)[1:9, 0].any()


def test_a_coloured_margin_running_through_an_edge_row_is_margin():
    from companion.vision.pipeline import margin_lines

    no_card = np.zeros((10, 10), bool)
    chip = np.zeros((10, 10), bool)
    chip[0, :] = True  # a red table edge read as ten "chips", free corners included
    assert margin_lines(no_card, chip)[0].all()
    chip[9, 1:9] = True  # a sequence along the last row: its free corners hold no chip
    assert not margin_lines(no_card, chip)[9].any()
    chip[0, 4] = False  # one card of the top row read empty: a real row of chips, not margin
    assert not margin_lines(no_card, chip)[0].any()


def _thin_lined_board(cell: int = 125, line: int = 2) -> np.ndarray:
    """A flat board photographed very close (a 4K camera): white cards, a small black print
    in each, and thin grey lines on the cell boundaries."""
    img = np.full((10 * cell + 8, 10 * cell + 8, 3), 232, np.uint8)
    for k in range(11):
        img[:, k * cell : k * cell + line] = 90
        img[k * cell : k * cell + line, :] = 90
    for r in range(10):
        for c in range(10):
            cv2.circle(
                img, (c * cell + cell // 2, r * cell + cell // 2), cell // 8, (30, 30, 30), -1
            )
    return img


def test_thin_lines_of_a_big_board_in_a_fine_frame_stay_boundaries():
    from companion.vision import chips
    from companion.vision.colour import ColourProfile
    from companion.vision.pipeline import warp_grid, warp_grid_smooth

    img = _thin_lined_board()
    # the located grid turned by a third of a degree: up to 6 frame pixels (a grid-image pixel)
    # off the thin lines at its far side
    quad = np.array([[0, 0], [1250, 6], [1244, 1256], [-6, 1250]], np.float64)
    grid = warp_grid(img, quad)
    plain = chips.measure(grid, ColourProfile())
    assert (plain.edges_missing >= 2).sum() >= 30  # the plain warp stepped over many lines
    seen = chips.measure(grid, ColourProfile(), smooth=lambda: warp_grid_smooth(img, quad))
    assert seen.edges_missing[:9, :9].max() == 0  # (the outer lines run off this drawing)
    symbols, _ = chips.classify(seen)
    assert (symbols == ".").all()


def test_a_smooth_view_is_only_made_for_a_frame_much_finer_than_the_grid_image():
    from companion.vision.pipeline import warp_grid_smooth

    img = _thin_lined_board(cell=34)  # 1.4 frame pixels per grid pixel: sampled densely
    quad = np.array([[0, 0], [340, 0], [340, 340], [0, 340]], np.float64)
    assert warp_grid_smooth(img, quad) is None
    img = _thin_lined_board(cell=40)  # 1.7: a 1-px line may fall between two samples
    quad = np.array([[0, 0], [400, 0], [400, 400], [0, 400]], np.float64)
    assert warp_grid_smooth(img, quad) is not None
    big = _thin_lined_board(cell=125)
    quad = np.array([[0, 0], [1250, 0], [1250, 1250], [0, 1250]], np.float64)
    smooth = warp_grid_smooth(big, quad)
    assert smooth.shape == (240, 240, 3)
    # each thin line is still there, averaged into a fainter one at its place
    assert smooth[:, 120:125].min() < 215 and smooth[:, 120:125].max() > 225


# a rendered frame (dev seed, in-range set) where a glare spot veils F5-H6: the grid lines and
# the borders fade there, yet the chips and the printing still show
GLARE_VEIL_SPEC = {
    "cells": ["*RB.RGRRB*", "..GR..G.GG", "B.B..GB..G", "RGR...G.BG", "GB.RB.BBBB",
              "R.GRBGB.RB", "RG.R..RB.B", "GGBG.GGBBG", "BGGBGRB.RR", "*.BGB...B*"],
    "seed": 2048215639,
    "exposure": 1.0,
    "board": True,
    "art": "text",
    "palette": 2,
    "cell_aspect": 1.15,
    "size": [1280, 720],
    "orientation": 0,
    "rotation_jitter": -9.55545558717919,
    "tilt_deg": 30.106838751557376,
    "tilt_azimuth_deg": 272.0605760108122,
    "camera_distance": 2.4622517603281358,
    "board_fraction": 1.0,
    "board_offset": [-0.3668667375786683, -0.24722392163276252],
    "table": "felt",
    "clutter": 3,
    "chip_jitter": 0.0993594568962678,
    "light_angle_deg": 247.7356406607084,
    "brightness": 0.9113222676222573,
    "color_temp": 5096.5966588222545,
    "gradient": 0.13392153138709204,
    "gradient_angle_deg": 3.349478679834328,
    "vignette": 0.496985980104312,
    "glare": 0.8998976720524514,
    "glare_spots": 1,
    "shadow": 0.45934678757370995,
    "wrinkles": 0.8527494253197085,
    "noise": 1.0793761284402072,
    "blur": 0.08328481030196744,
    "jpeg": 75,
    "lens_k1": -0.04366578604786099,
    "lens_k2": -0.010810324462551126,
    "camera_seed": 1795682063,
}  # fmt: skip


def test_chips_and_cards_under_a_veil_of_glare_are_read_not_unknown():
    from companion.render import RenderSpec, render_frame

    image, truth = render_frame(RenderSpec.from_json(GLARE_VEIL_SPEC))
    reading = analyze_image(image)
    assert reading.board_found and reading.orientation == truth.orientation
    got, want = np.array([list(r) for r in reading.cells]), np.array([list(r) for r in truth.cells])
    assert not ((got != want) & (got != "?")).any()  # never a confident error
    # the blue chips on G5 and G6 under the veil: faded boundaries and borders, not a cover
    # (their neighbours, whose own look does not explain the faded lines, may stay unknown)
    for name in ("G5", "G6"):
        col, row = "ABCDEFGHIJ".index(name[0]), int(name[1:]) - 1
        assert got[row, col] == want[row, col], name


DATA = Path(__file__).resolve().parent / "data"
# bench game seed 18, frame 139 as the video decodes it (blurred, warm light; blue's D1 just
# placed). Its truth: five chips, no hand
BLURRED_TRUTH = [
    "*..B.....*",
    "....B.....",
    ".........G",
    "..........",
    "......G...",
    "..........",
    "..........",
    "..........",
    ".....B....",
    "*........*",
]


def test_a_grid_running_past_the_board_is_not_made_plausible_by_taking_glare_off():
    # a candidate spanning the board plus a strip of the dark red table read "plausibly" once
    # glare was taken off its cells (the table strip read as `?` and a red chip), and a live
    # game then kept that grid: chips one row off, two false rulings. Grids are judged on the
    # picture as it is; the one judged right is read through the glare.
    frame = cv2.imread(str(DATA / "blurred_text_board_video_frame.png"))
    reading = BoardReader().read(frame)
    if reading.board_found:
        for got, want in zip(reading.cells, BLURRED_TRUTH, strict=True):
            assert all(g in (w, "?") for g, w in zip(got, want, strict=True)), reading.cells
