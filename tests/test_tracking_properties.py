"""Property test of the tracker: whatever the hands, the cells the vision doubts as a hand leaves
and the flickering misreads (some of them real pixel changes, spots), it announces exactly the
boards that were really held still, in order, and never a flicker."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cells import CORNERS
from companion.tracking import BoardTracker, TrackerConfig
from companion.vision.reading import BoardReading

EMPTY = ["*........*"] + ["." * 10] * 8 + ["*........*"]
FPS = 10
NON_CORNER = [(r, c) for r in range(10) for c in range(10) if (r, c) not in CORNERS]


def with_cells(board: list[str], changes: dict) -> list[str]:
    rows = [list(r) for r in board]
    for (r, c), symbol in changes.items():
        rows[r][c] = symbol
    return ["".join(r) for r in rows]


cell = st.sampled_from(NON_CORNER)
symbol = st.sampled_from(".BGR")
hold = st.fixed_dictionaries(
    {
        "hand": st.integers(0, 10),  # frames of motion before the board is still
        "changes": st.dictionaries(cell, symbol, max_size=3),  # what the hand did
        "frames": st.integers(16, 30),  # frames held still (1.6 - 3 s)
        "doubt": st.integers(0, 6),  # first still frames in which the changed cells read '?'
        "spot": st.booleans(),  # the flicker changes pixels: a spot as it comes and goes
        "flicker": st.one_of(
            st.none(),
            # at, length, where (None: on the first cell the hand changed, which may read '?'
            # just before), wrong value
            st.tuples(st.integers(1, 12), st.integers(1, 3), st.one_of(cell, st.none()), symbol),
        ),
    }
)


@settings(max_examples=200, deadline=None)
@given(st.lists(hold, min_size=1, max_size=6))
def test_only_boards_held_still_are_announced(holds):
    tracker = BoardTracker(TrackerConfig(still_window=0.5, min_reads=3), EMPTY)
    board = EMPTY
    truth: list[list[str]] = []
    announced: list[list[str]] = []
    t = 0
    ones = np.ones((10, 10))

    def frame(cells, motion, spot=False):
        nonlocal t
        reading = None if motion and not spot else BoardReading(True, 0, cells, ones)
        update = tracker.update(t / FPS, motion, reading, spot=spot)
        if update.settled is not None:
            announced.append(update.settled)
        t += 1

    for h in holds:
        for _ in range(max(h["hand"], 1 if h["changes"] else 0)):  # no chip moves by itself
            frame(None, 0.5)
        board = with_cells(board, h["changes"])
        if not truth or truth[-1] != board:
            truth.append(board)
        doubted = with_cells(board, {where: "?" for where in h["changes"]})
        disturbed = max(h["doubt"], sum(h["flicker"][:2]) if h["flicker"] else 0)
        for k in range(max(h["frames"], disturbed + 10)):  # steady for 1 s at least after
            cells, spot = (doubted if k < h["doubt"] else board), False
            if h["flicker"] is not None:
                at, length, where, wrong = h["flicker"]
                where = where or next(iter(h["changes"]), NON_CORNER[0])
                if at <= k < at + length:
                    cells = with_cells(cells, {where: wrong})
                spot = h["spot"] and k in (at, at + length)
            frame(cells, 0.003 if spot else 0.0, spot)

    deduped = [b for i, b in enumerate(announced) if i == 0 or announced[i - 1] != b]
    if deduped and deduped[0] == EMPTY and (not truth or truth[0] != EMPTY):
        deduped = deduped[1:]  # the prior itself, announced before the first change settled
    assert deduped == truth
