"""Sequence detection against a brute-force oracle (hypothesis), plus counts on single lines.

The oracle scans every window of the whole board from scratch after each move; the referee
walks only around the chip just placed. They must agree exactly, and the result must obey the
overlap rules and miss no sequence that the rules would allow.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cells import CORNERS
from companion.referee import Game, Move

STEPS = ((0, 1), (1, 0), (1, 1), (-1, 1))  # reading order of directions


def oracle_windows() -> list[tuple]:
    """Every 5-window, brute force: (direction, cells in reading order)."""
    out = []
    for step in STEPS:
        for r in range(10):
            for c in range(10):
                cells = tuple((r + k * step[0], c + k * step[1]) for k in range(5))
                if all(0 <= a < 10 and 0 <= b < 10 for a, b in cells):
                    out.append((step, cells))
    return out


WINDOWS = oracle_windows()


def owned(board: list[str], cell, color) -> bool:
    return cell in CORNERS or board[cell[0]][cell[1]] == color[0].upper()


def allowed(window, step, others, overlap) -> bool:
    for other_step, other in others:
        shared = (set(window) & set(other)) - CORNERS
        if not shared:
            continue
        if overlap == "none" or len(shared) > 1:
            return False
        if overlap == "crossing_only" and other_step == step:
            return False
    return True


def oracle_new(board, color, placed, existing, overlap):
    """Brute force: every complete window through ``placed``, direction by direction, earliest
    first (by column, or row for vertical lines), taken when compatible."""
    chosen: list = []
    for step in STEPS:
        through = [
            cells
            for s, cells in WINDOWS
            if s == step and placed in cells and all(owned(board, x, color) for x in cells)
        ]
        through.sort(key=lambda cells: (cells[0][1], cells[0][0]) if step != (1, 0) else cells[0])
        for cells in through:
            if allowed(cells, step, existing + chosen, overlap):
                chosen.append((step, cells))
    return chosen


def step_of(line):
    return (line[1][0] - line[0][0], line[1][1] - line[0][1])


# Blue plays in a region, green mostly in the region mirrored through the centre: dense enough
# for many sequences, crossings and long runs, and the regions touch or overlap, so the sides
# also block and remove each other. The square gives crossings and diagonals, the bands give
# runs of up to ten in rows or columns.
SQUARE = [(r, c) for r in range(6) for c in range(6) if (r, c) not in CORNERS]
ROWS = [(r, c) for r in range(4) for c in range(10) if (r, c) not in CORNERS]
COLUMNS = [(r, c) for r in range(10) for c in range(4) if (r, c) not in CORNERS]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    steps=st.sampled_from([SQUARE, ROWS, COLUMNS]).flatmap(
        lambda region: st.lists(
            st.tuples(st.sampled_from(region), st.integers(0, 3)), min_size=40, max_size=90
        )
    ),
    overlap=st.sampled_from(["one_shared", "crossing_only", "none"]),
)
def test_incremental_detection_matches_brute_force(steps, overlap):
    game = Game(
        [("A", "blue"), ("B", "green")], options={"overlap": overlap, "sequences_needed": 12}
    )
    expected = {"blue": [], "green": []}
    for cell, contest in steps:
        color = game.color_to_move
        if color == "green" and contest:  # 1 in 4 green moves contest blue's region
            cell = (9 - cell[0], 9 - cell[1])
        chip = game.chip_at(cell)
        if chip is None:
            move = Move.board_place(color, cell)
        elif chip != color and chip != "corner" and cell not in game.locked_cells:
            move = Move.board_remove(color, cell)
        else:
            continue
        ruling = game.push(move)
        assert ruling.legal, ruling
        if move.kind == "place":
            new = oracle_new(game.board_strings(), color, cell, expected[color], overlap)
            expected[color] += new
            got = [tuple(tuple(map(int, x)) for x in line) for line in game.sequences[color]]
            assert got == [cells for _, cells in expected[color]]
    board = game.board_strings()
    for color, lines in game.sequences.items():
        pairs = [(step_of(line), line) for line in lines]
        for i, (step, line) in enumerate(pairs):
            assert all(owned(board, x, color) for x in line)  # every sequence is real
            assert allowed(line, step, pairs[:i], overlap)  # and obeys the overlap rule
        for step, window in WINDOWS:  # and none the rules would allow is missing
            if all(owned(board, x, color) for x in window) and window not in lines:
                assert not allowed(window, step, pairs, overlap), (color, window)
        locked = {x for line in lines for x in line} - CORNERS
        assert locked <= game.locked_cells


LINES = [
    [(4, c) for c in range(10)],  # a row
    [(r, 3) for r in range(10)],  # a column
    [(k, k) for k in range(10)],  # the main diagonal, corner to corner
    [(9 - k, k) for k in range(10)],  # the other diagonal
]


@settings(max_examples=150, deadline=None)
@given(
    line=st.sampled_from(LINES),
    order=st.permutations(range(10)),
    keep=st.integers(5, 10),
    overlap=st.sampled_from(["one_shared", "crossing_only", "none"]),
)
def test_filling_a_whole_line_in_any_order_matches_brute_force(line, order, keep, overlap):
    """Long runs: 6 to 10 chips of one line in any order (green plays on row 8 / column 8)."""
    game = Game(options={"overlap": overlap, "sequences_needed": 12})
    expected: list = []
    green = [(8, c) for c in range(1, 9)] + [(r, 8) for r in range(1, 8)]
    green = [cell for cell in green if cell not in line]
    for k in order[:keep]:
        cell = line[k]
        if cell in CORNERS:
            continue
        assert game.push(Move.board_place("blue", cell)).legal
        expected += oracle_new(game.board_strings(), "blue", cell, expected, overlap)
        assert game.sequences["blue"] == [cells for _, cells in expected]
        game.push(Move.board_place("green", green.pop()))
    owned_run = sum(1 for cell in line if owned(game.board_strings(), cell, "blue"))
    count = game.sequence_counts()["blue"]
    assert (count >= 1) == (owned_run >= 5 and _longest_run(game.board_strings(), line) >= 5)
    assert count <= 2
    if count == 2:  # two in one line need nine chips with a shared one, else ten
        assert owned_run >= (9 if overlap == "one_shared" else 10)


def _longest_run(board, line) -> int:
    best = run = 0
    for cell in line:
        run = run + 1 if owned(board, cell, "blue") else 0
        best = max(best, run)
    return best


@pytest.mark.parametrize(
    ("overlap", "count", "expected"),
    [
        ("one_shared", 4, 0),
        ("one_shared", 5, 1),
        ("one_shared", 8, 1),
        ("one_shared", 9, 2),
        ("crossing_only", 9, 1),
        ("crossing_only", 10, 2),
        ("none", 9, 1),
        ("none", 10, 2),
    ],
)
def test_chips_laid_along_a_line_in_reading_order(overlap, count, expected):
    game = Game(options={"overlap": overlap, "sequences_needed": 5})
    for col in range(count):
        assert game.push(Move.board_place("blue", (4, col))).legal
        game.push(Move.board_place("green", (8, col)))
    assert game.sequence_counts()["blue"] == expected


@given(start=st.integers(0, 5), order=st.permutations(range(5)))
def test_any_fill_order_of_five_gives_the_same_sequence(start, order):
    game = Game()
    line = [(6, start + k) for k in range(5)]
    for k in order:
        game.push(Move.board_place("blue", line[k]))
        game.push(Move.board_place("green", (8, start + k)))
    assert game.sequences["blue"] == [tuple(line)]
