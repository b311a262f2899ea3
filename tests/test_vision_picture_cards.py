"""A chip washed out by glare over a picture card (king or queen) whose twin holds a chip, or a
pale chip hiding a picture card's picture: the card as printed is not in view, so the board's
other picture cards read empty tell whether its art shows round patches of the chip's colour."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from test_vision_support import independent_frame

from companion.vision.chips import CellShape
from companion.vision.colour import ColourProfile
from companion.vision.layout import face_cells
from companion.vision.small_chips import PLAIN_ART_MIN, plain_art_colours

W, H = 30, 20
SHAPE = CellShape(W, H)
WIDTH = 14.0  # the board's chips, pixels
HUES = {"B": 110, "G": 60, "R": 178}  # OpenCV hues inside the default profile's bands


def _hsv(discs: dict[tuple[int, int], str]) -> np.ndarray:
    """A grid image (HSV, the light divided out) of white cards with a faint disc as wide as a
    chip of the given colour over each of ``discs``' cells."""
    hsv = np.zeros((10 * H, 10 * W, 3), np.uint8)
    hsv[..., 2] = 230
    for (r, c), sym in discs.items():
        disc = np.zeros((10 * H, 10 * W), np.uint8)
        cv2.circle(disc, (round((c + 0.5) * W), round((r + 0.5) * H)), round(WIDTH / 2), 255, -1)
        hsv[disc > 0] = (HUES[sym], 40, 220)  # (saturation 40: washed out, yet above faint's 16)
    return hsv


def _faces(n: int) -> np.ndarray:
    """The first ``n`` picture cards of the classic layout, as a 10x10 mask."""
    out = np.zeros((10, 10), bool)
    for r, c in np.argwhere(face_cells(orientation=0))[:n]:
        out[r, c] = True
    return out


def test_plain_art_is_every_colour_no_empty_picture_card_shows_a_disc_in():
    faces = _faces(8)
    plain = plain_art_colours(faces, _hsv({}), ColourProfile(), WIDTH, SHAPE)
    assert plain == {"B", "G", "R"}
    # one empty picture card whose art shows a round blue patch: blue is not plain on this board
    first = tuple(np.argwhere(faces)[0])
    plain = plain_art_colours(faces, _hsv({first: "B"}), ColourProfile(), WIDTH, SHAPE)
    assert plain == {"G", "R"}


def test_too_few_empty_picture_cards_tell_nothing():
    faces = _faces(PLAIN_ART_MIN - 1)
    assert plain_art_colours(faces, _hsv({}), ColourProfile(), WIDTH, SHAPE) == frozenset()


@pytest.mark.parametrize(
    "name",
    [
        # a green chip washed out over a king of diamonds (its twin holds a blue chip): `?`
        "jax4_frame_0115",
        # a red chip washed pink over a king of hearts (its twin holds a red chip): `?`
        "jax15_frame_0043",
        # a pale mint chip over the queen of clubs, no glare, hiding its picture (`blank`),
        # its twin holding a red chip: `?`
        "mixed11_frame_0057",
    ],
)
def test_washed_chips_on_picture_cards_whose_twin_holds_a_chip_are_read(name):
    reading, truth = independent_frame(name)
    assert reading.cells == truth["cells"]
