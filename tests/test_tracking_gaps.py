"""Camera outages seen by the tracking layer: the tracker forgets half-seen changes across a
gap, and the first board after it may be several placements ahead (``interpret_catch_up``)."""

from __future__ import annotations

from companion.cells import parse_cell
from companion.tracking import (
    MISMATCH,
    PLACE,
    BoardChange,
    BoardTracker,
    TrackerConfig,
    interpret,
    interpret_catch_up,
)
from tests.test_tracking import EMPTY, board_with, feed, settled


def test_a_change_half_seen_before_a_gap_is_not_completed_by_one_read_after_it():
    tracker = BoardTracker(TrackerConfig(still_window=0.5), expected=EMPTY)
    chip = board_with(C3="B")
    feed(tracker, [(1.0, 0.0, EMPTY)])  # the board settles empty
    feed(tracker, [(0.3, 0.0, chip)], start=1.0)  # C3 read 3 times, 0.3 s: not yet settled
    tracker.interrupt()  # camera lost for 2 s
    after = feed(tracker, [(1.0, 0.0, chip)], start=3.3)
    # without the interrupt the first read after the gap completes the window (since 1.0 s)
    # and C3 settles at once; with it, the window starts again after the gap
    (when, board), = settled(after)  # fmt: skip
    assert board == chip
    assert when >= 3.3 + 0.5 - 1e-9


def test_without_an_interrupt_the_gap_would_count_as_stillness():
    """The reason for interrupt(): the same script without it settles on the first read."""
    tracker = BoardTracker(TrackerConfig(still_window=0.5), expected=EMPTY)
    chip = board_with(C3="B")
    feed(tracker, [(1.0, 0.0, EMPTY), (0.3, 0.0, chip)])
    after = feed(tracker, [(1.0, 0.0, chip)], start=3.3)
    assert settled(after)[0][0] == 3.3


def test_the_first_board_after_a_gap_is_announced_even_if_unchanged():
    tracker = BoardTracker(TrackerConfig(still_window=0.5), expected=EMPTY)
    assert len(settled(feed(tracker, [(1.0, 0.0, EMPTY)]))) == 1
    tracker.interrupt()
    again = settled(feed(tracker, [(1.0, 0.0, EMPTY)], start=5.0))
    assert [board for _, board in again] == [EMPTY]


def test_placements_in_turn_order_are_the_moves_played_while_away():
    change = BoardChange.between(EMPTY, board_with(D5="G", C1="B", E7="R"))
    assert interpret(change, "green").kind == MISMATCH  # as one move: impossible
    moves = interpret_catch_up(change, ["green", "red", "blue"])
    assert [(m.kind, m.color, m.cell) for m in moves] == [
        (PLACE, "green", parse_cell("D5")),
        (PLACE, "red", parse_cell("E7")),
        (PLACE, "blue", parse_cell("C1")),
    ]


def test_a_catch_up_must_leave_no_doubt():
    two_blue = BoardChange.between(EMPTY, board_with(D5="B", C1="B"))
    assert interpret_catch_up(two_blue, ["blue", "green"]) is None  # wrong colours
    assert interpret_catch_up(two_blue, ["blue", "green", "blue", "green"]) is None  # order?
    start = board_with(D5="G")
    removal_and_place = BoardChange.between(start, board_with(C1="B"))
    assert interpret_catch_up(removal_and_place, ["blue", "green"]) is None  # only placements
    one = BoardChange.between(EMPTY, board_with(C1="B"))
    assert interpret_catch_up(one, ["blue", "green"]) is None  # a single move is interpret's
    out_of_turn = BoardChange.between(EMPTY, board_with(D5="G", C1="B"))
    assert interpret_catch_up(out_of_turn, ["blue", "red", "green"]) is None  # red skipped
    back = BoardChange.between(EMPTY, board_with(D5="G", C1="B"))
    assert interpret_catch_up(back, ["blue", "green"], just_cleared=parse_cell("C1")) is None
    assert interpret_catch_up(back, ["blue", "green"]) is not None


def test_unreadable_reads_neither_confirm_nor_break_a_pending_change():
    """C3 is read blue 3 times in 0.3 s, then only '?': the change completes when its window
    has passed, without waiting for a fourth blue read that may never come."""
    tracker = BoardTracker(TrackerConfig(still_window=0.5), expected=EMPTY)
    feed(tracker, [(1.0, 0.0, EMPTY)])
    chip, unread = board_with(C3="B"), board_with(C3="?")
    updates = feed(tracker, [(0.3, 0.0, chip), (0.5, 0.0, unread)], start=1.0)
    (when, board), = settled(updates)  # fmt: skip
    assert board == chip and when == 1.5
    # too few reads before the '?': nothing changes, however long the wait
    tracker = BoardTracker(TrackerConfig(still_window=0.5), expected=EMPTY)
    feed(tracker, [(1.0, 0.0, EMPTY)])
    updates = feed(tracker, [(0.2, 0.0, chip), (2.0, 0.0, unread)], start=1.0)
    assert settled(updates) == []  # the board it had announced is unchanged
    assert tracker.stable_board == EMPTY
