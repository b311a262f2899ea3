"""A shadow cast across the board: someone beside the table stands between the lamp and the board.
Its edge is soft and straight; the cells under it are half lit and half shaded. The frames are
the independent renderer's, re-lit by ``tests/independent/relight.py SRC OUT shadow`` (a straight
edge blurred over 0.5-3 % of the frame, 0.4-0.7 of the light beyond it, tinted blue)."""

from __future__ import annotations

import numpy as np
import pytest
from test_vision_support import independent_frame

from companion.vision.chips import RING_DIFF, SHADE_WARMTH_MAX, shaded_borders
from companion.vision.colour import GREY_WEIGHTS

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
        # the light divided out cell by cell, the 5x5 median's white for two cells either
        # side of the edge: a green chip in the shade showed no card white around it
        # (``shade.shade_whites`` divides the light out pixel by pixel there)
        "shadow_jax18_frame_0048",
        # ... two empty cards darkened in part read as a washed-out chip's pale disc
        "shadow_wood20_frame_0038",
        # ... and one on a text board
        "shadow_mixed18_frame_0111",
    ],
)
def test_boards_under_a_cast_shadow_read_exactly(name):
    reading, truth = independent_frame(name)
    assert reading.cells == truth["cells"]


def test_a_board_under_a_cast_shadow_s_sharp_edge_reads_no_cell_wrong():
    # six cells `?` along the edge before the shaded borders were forgiven, none after; with
    # the light divided out pixel by pixel, one: at half size the closed white softens a sharp
    # edge, the penumbra's lit side comes out too bright and an ace's lines there fade
    # (``boundaries_gone``)
    reading, truth = independent_frame("shadow_mixed18_frame_0109")
    unknown = [
        (r, c) for r in range(10) for c in range(10) if reading.cells[r][c] != truth["cells"][r][c]
    ]
    assert all(reading.cells[r][c] == "?" for r, c in unknown)
    assert len(unknown) <= 1


# --- the light under a cast shadow, pixel by pixel (companion.vision.shade) ---

CELL_W, CELL_H = 28, 20  # a landscape cell, as a grid image is warped


def _board(chips_at=((2, 3, (200, 60, 30)), (6, 6, (40, 40, 200)), (5, 1, (60, 150, 40)))):
    """A grid image of 10x10 cards with a grey gap around each, a black pip in each card,
    and chips (row, column, BGR) over some."""
    import cv2

    grid = np.empty((10 * CELL_H, 10 * CELL_W, 3), np.float32)
    grid[:] = GAP
    for r in range(10):
        for c in range(10):
            y, x = r * CELL_H, c * CELL_W
            grid[y + 2 : y + CELL_H - 2, x + 2 : x + CELL_W - 2] = CARD
            grid[y + 5 : y + 9, x + 6 : x + 10] = (30, 30, 30)
    for r, c, colour in chips_at:
        centre = (int((c + 0.5) * CELL_W), int((r + 0.5) * CELL_H))
        cv2.circle(grid, centre, int(0.36 * CELL_H), colour, -1)
    return grid


def _shadow(grid, keep=0.55, soft=6.0):
    """``grid`` under a cast shadow: beyond a slanted straight edge (soft over ``soft`` px)
    ``keep`` of the light, a little bluer; the share of light at every pixel too."""
    h, w = grid.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    beyond = 1.0 / (1.0 + np.exp(-((0.8 * xx + 0.6 * yy) - 150.0) / soft))
    gains = 1.0 - beyond[..., None] * (1.0 - keep * np.float32([1.08, 1.0, 0.9]))
    return np.clip(grid * gains, 0, 255).astype(np.uint8), gains


def _card_white_spread(flat):
    """The spread (largest over smallest) of the cards' white over the board once the light
    is divided out: per cell without a chip, the median grey of a patch of its card."""
    grey = flat.astype(np.float32) @ GREY_WEIGHTS
    whites = [
        np.median(
            grey[r * CELL_H + 11 : (r + 1) * CELL_H - 3, c * CELL_W + 12 : (c + 1) * CELL_W - 3]
        )
        for r in range(10)
        for c in range(10)
        if (r, c) not in ((2, 3), (6, 6), (5, 1))
    ]
    return max(whites) / min(whites)


def test_the_light_under_a_cast_shadow_is_divided_out_pixel_by_pixel():
    from companion.vision.colour import WHITE_LEVEL, cell_white_colours, light_gains, local_whites
    from companion.vision.shade import shade_whites

    shaded, _ = _shadow(_board())
    near = local_whites(cell_white_colours(shaded))
    whites = shade_whites(shaded, near)
    assert whites is not None and whites.shape == shaded.shape
    flat = np.clip(shaded * (WHITE_LEVEL / whites), 0, 255).astype(np.uint8)
    assert _card_white_spread(flat) < 1.1
    # the median over 5x5 cells leaves the cards beside the edge far off
    by_cell = np.clip(shaded * light_gains(near, shaded.shape[1::-1]), 0, 255).astype(np.uint8)
    assert _card_white_spread(by_cell) > 1.3
    # the chips keep their colour: the blue chip in the shade as blue as in the light
    lit = _board()
    b, g, r = flat[int(2.5 * CELL_H), int(3.5 * CELL_W)].astype(float)
    assert b > 2 * r and abs(b - lit[int(2.5 * CELL_H), int(3.5 * CELL_W), 0]) < 0.2 * b


@pytest.mark.parametrize(
    ("make", "why"),
    [
        (lambda: _board().astype(np.uint8), "no shadow"),
        (lambda: _covered((90, 140, 205)), "a hand's skin over a corner: warmer than a shade"),
        (lambda: _covered((20, 20, 20)), "a black sleeve: darker than any shade keeps"),
        (lambda: _margin_strip(), "the table along one edge of the grid: a strip, not a shade"),
        (lambda: _pale_hand(), "a pale, see-through hand: a shade of the board, but round"),
    ],
)
def test_no_cast_shadow_is_taken_off_where_none_lies(make, why):
    from companion.vision.colour import cell_white_colours, local_whites
    from companion.vision.shade import shade_whites

    grid = make()
    assert shade_whites(grid, local_whites(cell_white_colours(grid))) is None, why


def _covered(colour):
    grid = _board()
    grid[: 4 * CELL_H, : 4 * CELL_W] = colour  # over 16 cells from the corner
    return grid.astype(np.uint8)


def _margin_strip():
    grid = _board()
    grid[:, : CELL_W // 2] = np.float32(CARD) * 0.6  # half a column: a grey margin
    return grid.astype(np.uint8)


def _pale_hand():
    """A see-through greyish hand reaching in over the board's edge (a palm and three
    fingers): it darkens what lies under it like a shade, but its outline is round."""
    import cv2

    grid = _board()
    hand = np.zeros(grid.shape[:2], np.uint8)
    cv2.circle(hand, (10 * CELL_W, 5 * CELL_H), int(3.2 * CELL_H), 1, -1)
    for i, y in enumerate((3, 5, 7)):
        cv2.line(
            hand,
            (10 * CELL_W, y * CELL_H),
            (int((5.5 - i % 2) * CELL_W), int((y + 0.5) * CELL_H)),
            1,
            int(0.8 * CELL_H),
        )
    gains = np.where(hand[..., None] > 0, np.float32(0.55), np.float32(1.0))
    return np.clip(grid * gains, 0, 255).astype(np.uint8)
