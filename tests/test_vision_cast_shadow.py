"""A shadow cast across the board: someone beside the table stands between the lamp and the board.
Its edge is soft and straight; the cells under it are half lit and half shaded. The frames are
the independent renderer's, re-lit by ``tests/independent/relight.py SRC OUT shadow`` (a straight
edge blurred over 0.5-3 % of the frame, 0.4-0.7 of the light beyond it, tinted blue)."""

from __future__ import annotations

import numpy as np
import pytest
from test_vision_support import independent_frame

from companion.vision.chips import RING_DIFF, SHADE_WARMTH_MAX, shaded_borders

GAP, CARD = (150.0, 155.0, 160.0), (235.0, 240.0, 242.0)  # a board's border colours (BGR)


def _rings(*colours: tuple[float, float, float]) -> np.ndarray:
    """100 cells' border rings of 40 pixels each: every cell's ring the ``colours`` in turn."""
    ring = np.array([colours[i % len(colours)] for i in range(40)], np.float32)
    return np.repeat(ring[None], 100, axis=0)


def test_a_shade_of_the_board_s_own_colours_is_the_board_s():
    palette = np.array([GAP, CARD], np.float32)
    none_of_chips = np.zeros((100, 40), bool)
    cells = np.zeros((10, 10), bool)
    cells[4, 5] = cells[2, 2] = True
    # half the ring in a shade keeping 0.55 of the light, a little bluer
    shade = np.array([1.08, 1.0, 0.9], np.float32) * 0.55
    half = _rings(GAP, CARD, tuple(np.array(GAP) * shade), tuple(np.array(CARD) * shade))
    share = shaded_borders(half, palette, none_of_chips, cells)
    assert share[4, 5] == pytest.approx(0.0) and share[2, 2] == pytest.approx(0.0)
    assert share[0, 0] == 1.0  # (not measured)
    # (a shade that deep is far from every palette colour as it is)
    assert np.abs(np.array(GAP) * shade - np.array(GAP)).max() > RING_DIFF
    # a neutral shade too, as warm as the light
    neutral = _rings(GAP, CARD, tuple(np.array(GAP) * 0.6), tuple(np.array(CARD) * 0.6))
    assert shaded_borders(neutral, palette, none_of_chips, cells)[4, 5] == pytest.approx(0.0)
    assert SHADE_WARMTH_MAX >= 1.0


@pytest.mark.parametrize(
    ("colour", "why"),
    [
        ((90.0, 140.0, 205.0), "a hand's skin: warm, unlike any border colour in any light"),
        ((40.0, 45.0, 50.0), "a black sleeve: darker than the deepest shade"),
        ((200.0, 60.0, 30.0), "a blue chip's rim"),
        # fingers greyish in a cool light, as dark as a shade of the gap but warmer than it
        (tuple(np.array(GAP) * 0.75 * np.array([0.95, 1.0, 1.1])), "pale fingers"),
    ],
)
def test_a_cover_is_no_shade(colour, why):
    palette = np.array([GAP, CARD], np.float32)
    cells = np.zeros((10, 10), bool)
    cells[3, 3] = True
    covered = _rings(GAP, colour)  # half the ring under the cover
    share = shaded_borders(covered, palette, np.zeros((100, 40), bool), cells)
    assert share[3, 3] == pytest.approx(0.5), why


@pytest.mark.parametrize(
    "name",
    [
        # the edge across the middle of a jax board: 9 cells `?` (a foreign border, and beside
        # one), and with the borders taken as shaded but the twins still compared, the nine of
        # hearts in the light was read red: its twin in the shade looked unlike it
        "shadow_jax18_frame_0076",
        # the edge across a nine of hearts: read red against its lit twin in the same way
        "shadow_jax18_frame_0088",
        # a wood board, three cells `?` along the edge
        "shadow_wood20_frame_0068",
        # six cells `?` along the edge
        "shadow_mixed18_frame_0109",
    ],
)
def test_boards_under_a_cast_shadow_read_exactly(name):
    reading, truth = independent_frame(name)
    assert reading.cells == truth["cells"]
