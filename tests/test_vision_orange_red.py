"""Red chips leaning to orange (hue past red's band, saturated as no skin is) read as red."""

from __future__ import annotations

import cv2
import numpy as np
from test_vision_support import confidently_wrong, spec_frame

from companion.render import scene
from companion.vision import analyze_image
from companion.vision.colour import ColourProfile, class_mask, colour_code

ORANGE_RED_CHIP = (30, 80, 225)  # BGR: hue 8 of 180, saturation 221 of 255


def test_saturated_orange_is_red_and_pale_orange_is_skin():
    # hue 9: an orange-red chip (saturation 220) and a hand (saturation 120, as skin is)
    hsv = np.array([[[9, 220, 200], [9, 120, 200], [179, 220, 200]]], np.uint8)
    code = colour_code(hsv, ColourProfile(), 100)
    assert class_mask(code, "R")[0].tolist() == [255, 0, 255]
    assert class_mask(code, "skin")[0].tolist() == [0, 255, 0]


def test_board_with_orange_red_chips_reads_them_red(monkeypatch):
    """A text board with 11 orange-red chips: before, all 11 read empty."""
    monkeypatch.setitem(scene.CHIP_COLORS, "R", ORANGE_RED_CHIP)
    image, truth = spec_frame("orange_red_chips_text_spec.json", written=True)
    hsv = cv2.cvtColor(np.uint8([[ORANGE_RED_CHIP]]), cv2.COLOR_BGR2HSV)[0, 0]
    assert 7 <= hsv[0] <= 12  # the chips really lean to orange, past red's band
    reading = analyze_image(image)
    assert reading.board_found and reading.orientation == truth.orientation
    assert confidently_wrong(reading, truth.cells) == []
    assert sum(row.count("?") for row in reading.cells) <= 3
    reds = sum(row.count("R") for row in truth.cells)
    assert reds == 11 and sum(row.count("R") for row in reading.cells) >= 9
