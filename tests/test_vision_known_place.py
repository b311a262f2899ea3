"""A fixed camera: once located, a board is read at its known place on the frames after, and
located again when it has moved. A Jax-like board's grey gaps show fainter boundaries than a
printed grid's lines; such a board is still read at its place (before, every frame of it was
located afresh, 35-290 ms instead of 3-6)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.vision import BoardReader
from companion.vision.pipeline import STILL_LIKE, STILL_THERE_MIN, grid_likeness

DATA = Path(__file__).parent / "data" / "independent"
FAINT = DATA / "jax15_frame_0014.jpg"  # boundary contrast 0.347 where it is located


def _counting_locates(reader: BoardReader) -> list[int]:
    calls = [0]
    locate = reader._locate_and_read

    def counted(*args):
        calls[0] += 1
        return locate(*args)

    reader._locate_and_read = counted
    return calls


def test_a_board_with_faint_boundaries_is_read_at_its_known_place():
    image = cv2.imread(str(FAINT))
    reader = BoardReader()
    calls = _counting_locates(reader)
    first = reader.read(image)
    assert first.board_found and reader._contrast0 < STILL_THERE_MIN
    again = [reader.read(image) for _ in range(3)]
    assert calls[0] == 1  # located once, then read where it lies
    for reading in again:
        assert reading.notes == []
        assert reading.cells == first.cells


def test_a_board_with_faint_boundaries_moved_is_located_again():
    image = cv2.imread(str(FAINT))
    h, w = image.shape[:2]
    shift = np.float32([[1, 0, -60], [0, 1, 45]])  # the board pushed across the table
    moved = cv2.warpAffine(image, shift, (w, h), borderMode=cv2.BORDER_REFLECT)
    reader = BoardReader()
    reader.read(image)
    reading = reader.read(moved)
    assert "board moved or hidden: located again" in reading.notes
    assert reading.board_found
    assert reading.cells == BoardReader().read(moved).cells


def test_grid_likeness_tells_a_few_new_chips_from_another_picture():
    rng = np.random.default_rng(5)
    grid = np.full((290, 200, 3), 230, np.uint8)
    for r in range(10):
        for c in range(10):  # each card's printing: a few dark strokes
            for _ in range(3):
                x, y = c * 20 + rng.integers(3, 17), r * 29 + rng.integers(4, 25)
                cv2.circle(grid, (int(x), int(y)), 2, (30, 30, 30), -1)
        grid[r * 29, :] = 150
    grid[:, ::20] = 150
    assert grid_likeness(grid, grid) > 0.99
    dimmer = (grid * 0.7).astype(np.uint8)  # the light changed
    assert grid_likeness(grid, dimmer) > 0.99
    played = grid.copy()
    for k in range(3):  # three chips more
        cv2.circle(played, (k * 60 + 30, k * 58 + 43), 8, (200, 60, 30), -1)
    assert grid_likeness(grid, played) >= STILL_LIKE
    other = np.ascontiguousarray(np.roll(grid, (87, 50), axis=(0, 1))[::-1])
    assert grid_likeness(grid, other) < STILL_LIKE
