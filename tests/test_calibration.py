"""Calibration from rendered frames: the given orientation wins, chips on the board are fine."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from companion.calibration import CalibrationError, load, save
from companion.calibration.build import calibrate_image
from test_vision_support import close_board_spec, confidently_wrong, without_the_retoned_look

from companion.cli import main
from companion.render import random_spec, render_frame
from companion.vision import BoardReader

EMPTY = ["*........*"] + ["." * 10] * 8 + ["*........*"]
# a mid-game board: blue, green and red chips (red ones over red-printed cards too)
MID = [
    "*BB.....R*",
    ".....G....",
    "...R......",
    "..........",
    "....GGR...",
    "..........",
    ".B........",
    "..........",
    "R.........",
    "*......B.*",
]


def _spec(seed=4, art="text", orientation=90):
    return random_spec(
        np.random.default_rng(seed),
        art=art,
        hand=False,
        board_fraction=0.8,
        tilt_deg=10.0,
        size=(640, 480),
        glare=0.0,
        orientation=orientation,
        board_cards=0,
    )


def test_the_given_orientation_is_saved_even_against_the_ink_vote():
    image, truth = render_frame(_spec().with_frame(cells=tuple(EMPTY)))
    assert calibrate_image(image).orientation == truth.orientation == 90
    cal = calibrate_image(image, orientation=180)
    assert cal.orientation == 180
    # and the reader built on it keeps it
    assert BoardReader(cal).read(image).orientation == 180


def test_calibrating_mid_game_leaves_the_chip_cells_out_of_the_reference(tmp_path):
    spec = _spec(seed=6)
    mid_image, _ = render_frame(spec.with_frame(cells=tuple(MID)))
    cal = calibrate_image(mid_image)
    chip_cells = {
        f"{'ABCDEFGHIJ'[c]}{r + 1}"
        for r, row in enumerate(MID)
        for c, s in enumerate(row)
        if s in "BGR"
    }
    assert chip_cells <= set(cal.unreferenced)
    for sym in "BGR":
        for name in chip_cells:
            col, row = "ABCDEFGHIJ".index(name[0]), int(name[1:]) - 1
            assert cal.reference[sym][row, col] == 0.0
    # the chip colours learnt from the chips stay proper chip hues
    assert 90 <= cal.profile.chips["B"].lo < cal.profile.chips["B"].hi <= 135
    assert 35 <= cal.profile.chips["G"].lo < cal.profile.chips["G"].hi <= 90
    path = save(cal, tmp_path / "mid.json")
    again = load(path)
    assert again.unreferenced == cal.unreferenced
    # the same camera later: chips moved, removed and added are read right
    later = [
        "*.B......*",
        ".....G....",
        "..........",
        "..........",
        "....G.R...",
        "..........",
        ".B....B...",
        "..........",
        "..........",
        "*........*",
    ]
    image, truth = render_frame(spec.with_frame(cells=tuple(later), seed=spec.seed + 7))
    reading = BoardReader(again).read(image)
    assert confidently_wrong(reading, truth.cells) == []
    assert sum(row.count("?") for row in reading.cells) <= 2


def test_a_hand_over_most_of_the_board_is_refused_naming_the_cells(monkeypatch):
    image, _ = render_frame(_spec().with_frame(cells=tuple(EMPTY)))
    from companion.vision import pipeline

    real = pipeline.BoardReader._read_grid

    def covered(self, grid, notes, judge=False, frame=None):
        reading = real(self, grid, notes, judge, frame)
        if reading.board_found:
            reading.cells = [
                row[:1] + "?????" + row[6:] if 2 <= i <= 7 else row
                for i, row in enumerate(reading.cells)
            ]
        return reading

    monkeypatch.setattr(pipeline.BoardReader, "_read_grid", covered)
    with pytest.raises(CalibrationError, match="30 cells cannot be read.*B3 C3"):
        calibrate_image(image)


DEMO = Path(__file__).resolve().parent.parent / "sample_images" / "demo_game"
PROFILE = Path(__file__).resolve().parent.parent / "calibration" / "profiles" / "demo_game.json"


def _first_video_frame(path):
    cap = cv2.VideoCapture(str(path))
    ok, frame = cap.read()
    cap.release()
    assert ok
    return frame


def test_the_committed_demo_profile_is_the_demo_cameras_empty_board():
    cal = load(PROFILE)
    again = calibrate_image(_first_video_frame(DEMO / "game.mp4"))
    assert cal.orientation == again.orientation == 0
    assert np.max(np.abs(cal.corners - again.corners)) < 0.5
    assert cal.unreferenced == []


def test_the_demo_game_replays_to_its_record_with_the_committed_profile(tmp_path, capsys):
    out = tmp_path / "record.json"
    args = ["replay", str(DEMO / "game.mp4"), "--record", str(out), "--quiet"]
    assert main([*args, "--calibration", str(PROFILE)]) == 0
    capsys.readouterr()
    record = json.loads(out.read_text())
    expected = json.loads((DEMO / "expected_record.json").read_text())
    assert record == expected


def test_the_lens_is_stored_and_an_old_file_without_it_still_loads(tmp_path):
    from companion.calibration.model import Calibration

    corners = np.array([[10.0, 10.0], [300.0, 12.0], [305.0, 250.0], [8.0, 240.0]])
    cal = Calibration(corners=corners, orientation=0, image_size=(640, 480), lens=-0.12)
    path = save(cal, tmp_path / "c.json")
    assert load(path).lens == pytest.approx(-0.12)
    data = json.loads(path.read_text())
    del data["lens"]  # a file written before the lens was stored
    path.write_text(json.dumps(data))
    assert load(path).lens == 0.0
    data["lens"] = 3.0
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match="'lens'"):
        load(path)


def test_a_camera_with_a_strong_lens_is_calibrated_with_it():
    spec = close_board_spec("cards", 6, lens_k1=-0.15)
    empty, _ = render_frame(spec.with_frame(cells=tuple(EMPTY)))
    cal = calibrate_image(empty)
    assert cal.lens < -0.05
    image, truth = render_frame(spec.with_frame(cells=tuple(MID), seed=3))
    reader = BoardReader(cal)
    assert reader.lens == cal.lens
    assert reader.read(image).cells == truth.cells


GINGHAM = Path(__file__).parent / "data" / "independent" / "jax10_frame_0012"
# the outer corners of its 10x10 cards, marked by eye (off by up to a quarter of a cell)
GINGHAM_CORNERS = "140,40 540,170 455,445 55,315"


def test_a_board_not_found_is_calibrated_at_the_corners_the_user_gives(
    tmp_path, capsys, monkeypatch
):
    """A jax-like board on a blue gingham cloth: the cloth's checks touch the board's edge and
    look like its cards, and no grid located on the frame as it is reads as a board. Given its
    corners by eye, the calibration moves them onto the grid lines and every frame is read
    there."""
    without_the_retoned_look(monkeypatch)
    image, out = f"{GINGHAM}.jpg", tmp_path / "gingham.json"
    truth = json.loads(Path(f"{GINGHAM}.json").read_text())
    assert main(["calibrate", image, "--out", str(out)]) == 1
    assert "--corners" in capsys.readouterr().err  # the way out is named
    assert main(["calibrate", image, "--out", str(out), "--corners", GINGHAM_CORNERS]) == 0
    assert "given corners" in capsys.readouterr().out
    cal = load(out)
    assert cal.placed and cal.orientation == truth["orientation"]
    # moved onto the lines: the corner marked 6 px off sits on the grid now
    assert np.linalg.norm(cal.corners[0] - [146.2, 42.3]) < 2.0
    assert main(["analyze", "--json", "--calibration", str(out), image]) == 0
    reading = json.loads(capsys.readouterr().out)
    assert reading["board_found"] and reading["cells"] == truth["cells"]


@pytest.mark.parametrize(
    "corners",
    ["1,2,3,4", "0,0,10,0,20,0,30,0", "a,b,c,d,e,f,g,h", "0,0,1,0,1,1,0,nan"],
)
def test_corners_that_make_no_board_are_refused(tmp_path, capsys, corners):
    args = ["calibrate", f"{GINGHAM}.jpg", "--out", str(tmp_path / "c.json"), "--corners", corners]
    try:
        code = main(args)
    except SystemExit as exc:  # (argparse: a malformed argument)
        code = exc.code
    assert code in (1, 2)
    err = capsys.readouterr().err
    assert "corners" in err and "Traceback" not in err
    assert not (tmp_path / "c.json").exists()


def test_a_placed_calibration_is_saved_as_such_and_an_old_file_is_not_placed(tmp_path):
    from companion.calibration.model import Calibration

    corners = np.array([[10.0, 10.0], [300.0, 12.0], [305.0, 250.0], [8.0, 240.0]])
    path = save(Calibration(corners=corners, orientation=0, placed=True), tmp_path / "c.json")
    assert load(path).placed
    data = json.loads(path.read_text())
    del data["placed"]
    path.write_text(json.dumps(data))
    assert not load(path).placed
    assert "placed" not in save(load(path), tmp_path / "d.json").read_text()


def test_a_calibrated_reader_looks_at_its_place_again_after_a_frame_without_the_board():
    """A frame where nothing shows (the camera knocked, a sleeve over the lens) sends the
    reader looking for the board anew and finds none; the calibrated place is where it looks
    on the next frame, even for a board that locating from scratch never finds."""
    image = cv2.imread(f"{GINGHAM}.jpg")
    truth = json.loads(Path(f"{GINGHAM}.json").read_text())
    corners = [tuple(map(float, p.split(","))) for p in GINGHAM_CORNERS.split()]
    reader = BoardReader(calibrate_image(image, corners=np.array(corners)))
    assert reader.read(image).cells == truth["cells"]
    blank = np.full_like(image, 90)
    assert not reader.read(blank).board_found
    again = reader.read(image)
    assert again.board_found and again.cells == truth["cells"]
    assert reader.located_by == "calibration"
    # ... and so does a reader calibrated on a board it found by itself
    image, truth = render_frame(_spec().with_frame(cells=tuple(MID)))
    reader = BoardReader(calibrate_image(image))
    assert not reader.read(np.full_like(image, 90)).board_found
    assert reader.read(image).cells == truth.cells
    assert reader.located_by == "calibration"


def test_corners_given_to_a_reader_snap_to_the_grid_or_stay_as_given():
    image = cv2.imread(f"{GINGHAM}.jpg")
    corners = [tuple(map(float, p.split(","))) for p in GINGHAM_CORNERS.split()]
    reader = BoardReader()
    moved = reader.place(corners[::-1], image)  # (any order)
    assert 0.1 < moved < 0.35
    assert reader.read(image).board_found
    # ... and at another size of the same camera, the corners follow
    half = cv2.resize(image, (image.shape[1] // 2, image.shape[0] // 2))
    truth = json.loads(Path(f"{GINGHAM}.json").read_text())
    assert reader.read(half).cells == truth["cells"]
    # a quad far off the board's lines is kept as given, and reads no board there
    far = np.array(corners) + [120.0, 0.0]
    assert BoardReader().place(far, image) == 0.0
    with pytest.raises(ValueError, match="convex"):
        BoardReader().place([(0, 0), (10, 0), (20, 0), (30, 0)])
