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


def test_analyze_says_why_a_greyscale_photo_shows_no_board(tmp_path, capsys):
    frame = cv2.imread(str(_write_frame(tmp_path / "board.png")))
    grey = tmp_path / "grey.jpg"
    cv2.imwrite(str(grey), cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    assert main(["analyze", str(grey)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{grey}: no board found (the frame is greyscale")


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


def _with_exif_orientation(jpeg: bytes, orientation: int) -> bytes:
    """``jpeg`` with an APP1 Exif segment holding only the orientation tag (0x0112), as a
    phone writes for a photo taken held sideways: the pixels stay as the sensor saw them."""
    ifd = (
        b"MM\x00\x2a\x00\x00\x00\x08"  # big-endian TIFF header, first IFD at offset 8
        + b"\x00\x01"  # one entry
        + b"\x01\x12\x00\x03\x00\x00\x00\x01"  # orientation, SHORT, count 1
        + orientation.to_bytes(2, "big")
        + b"\x00\x00"
        + b"\x00\x00\x00\x00"  # no next IFD
    )
    body = b"Exif\x00\x00" + ifd
    app1 = b"\xff\xe1" + (len(body) + 2).to_bytes(2, "big") + body
    assert jpeg[:2] == b"\xff\xd8"
    return jpeg[:2] + app1 + jpeg[2:]


def test_a_phone_photo_s_exif_orientation_is_honoured(tmp_path, capsys):
    """A phone held sideways stores the picture as the sensor saw it and an Exif tag saying
    how to turn it (6: 90 degrees clockwise). The board is read as the photo shows it to the
    players, so `orientation` is the one they see on screen."""
    frame, _ = make_frame(SOME, orientation=0, seed=5)
    # the sensor's picture: the scene turned 90 degrees counter-clockwise
    sensor = cv2.rotate(frame, cv2.ROTATE_90_COUNTERCLOCKWISE)
    ok, jpeg = cv2.imencode(".jpg", sensor, [cv2.IMWRITE_JPEG_QUALITY, 95])
    assert ok
    photo = tmp_path / "phone.jpg"
    photo.write_bytes(_with_exif_orientation(jpeg.tobytes(), 6))
    assert main(["analyze", "--json", str(photo)]) == 0
    reading = json.loads(capsys.readouterr().out)
    assert reading["board_found"] is True
    assert reading["orientation"] == 0
    assert reading["cells"] == SOME
