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


def test_pale_rust_among_red_is_red_but_a_dark_hand_and_a_printed_edge_are_not():
    """Rust-red chips show paler orange pixels among their red ones; such a pixel counts as
    red inside a patch of red. The same hue and saturation darker (a dark hand's skin), or
    along the edge of red printing on a card (the blend of ink and card), does not."""
    hsv = np.zeros((24, 40, 3), np.uint8)
    hsv[:] = (20, 10, 230)  # a card's white
    disc = np.zeros((24, 40), np.uint8)
    cv2.circle(disc, (10, 12), 8, 255, -1)
    hsv[disc > 0] = (3, 220, 150)  # a red chip 17 px wide ...
    pale = np.zeros_like(disc)
    pale[::2, ::2] = 255
    pale &= cv2.erode(disc, np.ones((3, 3), np.uint8))
    hsv[pale > 0] = (9, 165, 130)  # ... a quarter of its pixels inside pale rust
    hsv[2:22, 24] = (9, 165, 130)  # a line of the same along printing's edge
    hsv[2:22, 25:30] = (178, 230, 160)  # (the printing)
    hsv[12, 36] = (9, 165, 80)  # and a dark hand's skin, as saturated
    code = colour_code(hsv, ColourProfile(), 100)
    red = class_mask(code, "R") > 0
    assert red[pale > 0].mean() >= 0.9
    assert not red[2:22, 24].any()
    assert not red[12, 36]


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
