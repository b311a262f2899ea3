"""``companion analyze`` and ``companion calibrate`` end to end through the CLI."""

import json

import cv2
import numpy as np
from companion.calibration import CalibrationError, load
from test_vision_support import SOME, make_frame

from companion.cli import main


def _write_frame(path, orientation=90, seed=3):
    frame, _ = make_frame(SOME, orientation=orientation, seed=seed)
    cv2.imwrite(str(path), frame)
    return path


def test_analyze_json_one_line_per_image_and_errors_do_not_stop(tmp_path, capsys):
    good = _write_frame(tmp_path / "board.png")
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not an image")
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((240, 320, 3), 90, np.uint8))
    missing = tmp_path / "missing.png"
    code = main(["analyze", "--json", str(good), str(broken), str(missing), str(blank)])
    assert code == 1  # at least one image could not be read
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 4
    first, second, third, fourth = (json.loads(line) for line in lines)
    assert first["image"] == str(good)
    assert first["board_found"] is True and first["orientation"] == 90
    assert first["cells"] == SOME
    assert len(first["confidence"]) == 10 and all(len(r) == 10 for r in first["confidence"])
    assert set(second) == {"image", "error"} and "not a readable image" in second["error"]
    assert set(third) == {"image", "error"} and "no such file" in third["error"]
    assert fourth == {
        "image": str(blank),
        "board_found": False,
        "orientation": None,
        "cells": None,
        "confidence": None,
    }


def test_analyze_readable_board(tmp_path, capsys):
    good = _write_frame(tmp_path / "board.png", orientation=0, seed=5)
    assert main(["analyze", str(good)]) == 0
    out = capsys.readouterr().out
    assert "orientation 0" in out
    assert "     A B C D E F G H I J" in out
    assert "   1 * B . . . . . . . *" in out


def test_calibrate_then_analyze_with_calibration(tmp_path, capsys):
    image = _write_frame(tmp_path / "cam.png", orientation=270, seed=8)
    out = tmp_path / "profiles" / "table.json"
    assert main(["calibrate", str(image), "--out", str(out)]) == 0
    cal = load(out)
    assert cal.orientation == 270
    assert cal.corners.shape == (4, 2)
    assert cal.image_size == (640, 480)
    capsys.readouterr()
    assert main(["analyze", "--json", "--calibration", str(out), str(image)]) == 0
    reading = json.loads(capsys.readouterr().out)
    assert reading["cells"] == SOME and reading["orientation"] == 270


def test_calibrate_without_board_fails_clearly(tmp_path, capsys):
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((240, 320, 3), 90, np.uint8))
    assert main(["calibrate", str(blank), "--out", str(tmp_path / "x.json")]) == 1
    assert "no board found" in capsys.readouterr().err
    assert not (tmp_path / "x.json").exists()


def test_bad_calibration_file_is_a_usage_error(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"version": 1, "corners": [[0, 0]], "orientation": 90}')
    image = _write_frame(tmp_path / "board.png")
    assert main(["analyze", "--calibration", str(bad), str(image)]) == 2
    assert "corners" in capsys.readouterr().err
    try:
        load(tmp_path / "nope.json")
    except CalibrationError as exc:
        assert "no such calibration file" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("missing calibration file must raise")
