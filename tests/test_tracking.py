"""The tracker: motion gate, stillness window, per-cell hysteresis; board changes -> moves."""

from __future__ import annotations

import numpy as np
import pytest

from companion.cells import parse_cell
from companion.tracking import (
    MISMATCH,
    NO_BOARD,
    NONE,
    PLACE,
    REMOVE,
    SETTLING,
    STILL,
    WATCHING,
    BoardChange,
    BoardTracker,
    TrackerConfig,
    interpret,
    interpret_catch_up,
)
from companion.vision.reading import BoardReading

EMPTY = ["*........*"] + ["." * 10] * 8 + ["*........*"]
FPS = 10.0


def board_with(**cells: str) -> list[str]:
    """EMPTY with e.g. B2="B" set (cell names as keyword arguments)."""
    rows = [list(r) for r in EMPTY]
    for name, symbol in cells.items():
        col = "ABCDEFGHIJ".index(name[0])
        rows[int(name[1:]) - 1][col] = symbol
    return ["".join(r) for r in rows]


def reading(cells: list[str]) -> BoardReading:
    return BoardReading(board_found=True, orientation=0, cells=cells, confidence=np.ones((10, 10)))


def feed(tracker: BoardTracker, script, start: float = 0.0):
    """script: list of (seconds, motion, cells-or-None). Returns every update with its time."""
    out = []
    t = start
    for seconds, motion, cells in script:
        for _ in range(round(seconds * FPS)):
            rd = (
                None
                if cells is None
                else (cells if isinstance(cells, BoardReading) else reading(cells))
            )
            out.append((round(t, 3), tracker.update(t, motion, rd)))
            t += 1 / FPS
    return out


def settled(updates):
    return [(t, u.settled) for t, u in updates if u.settled is not None]


def test_a_new_chip_settles_after_the_window_and_once():
    tracker = BoardTracker(TrackerConfig(still_window=0.5), EMPTY)
    after = board_with(B2="B")
    updates = feed(tracker, [(0.6, 0.0, EMPTY), (0.5, 0.2, after), (1.5, 0.0, after)])
    events = settled(updates)
    assert events[0] == (0.5, EMPTY)
    assert [board for _, board in events] == [EMPTY, after]
    hand_left = 1.1
    assert events[-1][0] == pytest.approx(hand_left + 0.5)  # exactly the window after stillness


def test_readings_while_moving_are_ignored():
    tracker = BoardTracker(TrackerConfig(still_window=0.5), EMPTY)
    hand = board_with(C3="R", D4="G")  # what a hand over the board might look like
    updates = feed(tracker, [(2.0, 0.5, hand)])
    assert all(u.status == WATCHING and u.settled is None for _, u in updates)
    assert tracker.stable_board == EMPTY


def test_a_short_misread_never_reaches_the_settled_board():
    tracker = BoardTracker(TrackerConfig(still_window=0.5), board_with(B2="B"))
    good = board_with(B2="B")
    misread = board_with(B2="B", E5="R")
    updates = feed(tracker, [(1.0, 0.0, good), (0.3, 0.0, misread), (1.0, 0.0, good)])
    assert all(s == good for _, s in settled(updates))
    assert tracker.stable_board == good


def test_a_hidden_cell_restarts_the_stillness_clock():
    tracker = BoardTracker(TrackerConfig(still_window=0.5, max_hidden=0), EMPTY)
    after = board_with(B2="G")
    covered = board_with(B2="?")
    updates = feed(tracker, [(0.4, 0.0, after), (0.3, 0.0, covered), (0.6, 0.0, after)])
    assert updates[5][1].status == WATCHING and updates[5][1].hidden == ((1, 1),)
    times = [t for t, s in settled(updates) if s == after]
    assert times and times[0] >= 0.7 + 0.5 - 1e-6


def test_low_confidence_counts_as_hidden():
    tracker = BoardTracker(TrackerConfig(still_window=0.0, min_confidence=0.6, max_hidden=0), EMPTY)
    rd = reading(board_with(C3="B"))
    rd.confidence[2][2] = 0.3
    update = tracker.update(0.0, 0.0, rd)
    assert update.hidden == ((2, 2),) and update.settled is None


def test_no_board_and_skipped_frames():
    tracker = BoardTracker(TrackerConfig(still_window=0.2), EMPTY)
    assert tracker.update(0.0, 0.0, BoardReading(board_found=False)).status == NO_BOARD
    assert tracker.update(0.1, 0.0, None).status == NO_BOARD  # no reading: nothing changes
    assert tracker.update(0.2, 0.0, reading(EMPTY)).status == SETTLING
    assert tracker.update(0.4, 0.0, reading(EMPTY)).settled == EMPTY
    assert tracker.update(0.5, 0.0, reading(EMPTY)).status == STILL


def test_corners_always_hold_their_printed_chip():
    tracker = BoardTracker(TrackerConfig(still_window=0.0), EMPTY)
    odd = ["B........G"] + EMPTY[1:]
    assert tracker.update(0.0, 0.0, reading(odd)).settled == EMPTY


def test_wants_reading_skips_motion_and_throttles():
    tracker = BoardTracker(TrackerConfig(read_interval=0.1), EMPTY)
    assert not tracker.wants_reading(0.0, 0.9)
    assert tracker.wants_reading(0.0, 0.0)
    tracker.update(0.0, 0.0, reading(EMPTY))
    assert not tracker.wants_reading(1 / 30, 0.0)
    assert tracker.wants_reading(0.1, 0.0)


def test_without_a_board_the_vision_is_asked_less_often():
    tracker = BoardTracker(TrackerConfig(read_interval=0.1, no_board_interval=0.5), EMPTY)
    tracker.update(0.0, 0.0, BoardReading(board_found=False))
    assert not tracker.wants_reading(0.2, 0.0)
    assert tracker.wants_reading(0.5, 0.0)
    tracker.update(0.5, 0.0, reading(EMPTY))
    assert tracker.wants_reading(0.6, 0.0)  # settling: every read_interval


def test_a_settled_board_is_rechecked_slowly_until_something_moves():
    config = TrackerConfig(still_window=0.2, read_interval=0.1, settled_interval=1.0)
    tracker = BoardTracker(config, EMPTY)
    feed(tracker, [(0.3, 0.0, EMPTY)])
    assert tracker.status == STILL
    assert not tracker.wants_reading(0.5, 0.0)
    assert tracker.wants_reading(1.2, 0.0)
    tracker.update(1.2, 0.5)  # a hand
    tracker.update(1.3, 0.0, reading(EMPTY))
    assert tracker.wants_reading(1.4, 0.0)
    feed(tracker, [(0.5, 0.0, EMPTY)], start=1.4)
    assert tracker.status == STILL and not tracker.wants_reading(2.0, 0.0)
    tracker.update(2.8, 0.0, reading(board_with(C3="B")))  # a change without motion
    assert tracker.wants_reading(2.9, 0.0)  # confirmed at the fast rate


def test_a_spot_is_looked_at_quickly_but_camera_noise_is_not():
    config = TrackerConfig(still_window=0.2, read_interval=0.1, settled_interval=1.0)
    tracker = BoardTracker(config, EMPTY)
    feed(tracker, [(0.3, 0.0, EMPTY)])
    assert tracker.status == STILL
    noise = config.motion_threshold / 2  # a few noisy pixels, all on the board
    assert not tracker.wants_reading(0.5, noise, spot=True)
    flicker = config.motion_threshold * 3  # one chip-sized change on the board
    assert tracker.wants_reading(0.5, flicker, spot=True)


def test_accept_and_rearm_control_announcements():
    tracker = BoardTracker(TrackerConfig(still_window=0.1, min_reads=1), EMPTY)
    after = board_with(D4="B")
    assert tracker.update(0.0, 0.0, reading(after)).settled is None
    assert tracker.update(0.1, 0.0, reading(after)).settled == after
    assert tracker.update(0.2, 0.0, reading(after)).settled is None
    tracker.rearm()
    assert tracker.update(0.3, 0.0, reading(after)).settled == after
    tracker.accept(EMPTY)
    tracker.reset(EMPTY, rearm=False)  # an undo: the game went back, the board must follow
    assert tracker.update(0.4, 0.0, reading(after)).settled is None  # D4 pending, EMPTY known
    assert tracker.update(0.5, 0.0, reading(after)).settled == after


def test_bad_config_and_boards_are_refused():
    with pytest.raises(ValueError):
        TrackerConfig(still_window=-1)
    with pytest.raises(ValueError):
        BoardTracker(expected=["." * 10] * 10)  # corners missing


# -- interpreting a change --------------------------------------------------------------------


def test_one_new_chip_of_the_side_to_move_is_a_placement():
    result = interpret(BoardChange.between(EMPTY, board_with(E5="B")), "blue")
    assert (result.kind, result.color, result.cell) == (PLACE, "blue", (4, 4))


def test_one_chip_gone_is_a_removal_by_the_side_to_move():
    before = board_with(E5="G")
    result = interpret(BoardChange.between(before, EMPTY), "blue")
    assert (result.kind, result.color, result.cell) == (REMOVE, "blue", (4, 4))


def test_a_chip_of_the_wrong_colour_is_a_mismatch():
    result = interpret(BoardChange.between(EMPTY, board_with(E5="G")), "blue")
    assert result.kind == MISMATCH and result.cells == ("E5",)
    assert "blue is to move" in result.reason


def test_two_changes_are_a_mismatch_naming_both_cells():
    result = interpret(BoardChange.between(EMPTY, board_with(E5="B", F6="B")), "blue")
    assert result.kind == MISMATCH and result.cells == ("E5", "F6")
    assert "2 cells changed" in result.reason


def test_a_chip_back_on_the_cell_just_cleared_is_a_mismatch():
    result = interpret(BoardChange.between(EMPTY, board_with(E5="G")), "green", (4, 4))
    assert result.kind == MISMATCH and "back on E5" in result.reason
    elsewhere = interpret(BoardChange.between(EMPTY, board_with(E6="G")), "green", (4, 4))
    assert elsewhere.kind == PLACE


def test_a_colour_change_is_ignored_as_a_misread():
    before = board_with(E5="B")
    result = interpret(BoardChange.between(before, board_with(E5="G")), "green")
    assert result.kind == NONE and result.ignored == ("E5",)
    both = interpret(BoardChange.between(before, board_with(E5="G", C3="G")), "green")
    assert both.kind == PLACE and both.cell == (2, 2) and both.ignored == ("E5",)


def test_a_chip_read_gone_and_back_in_another_colour_is_two_moves_not_a_misread():
    """C8's green chip was read gone, then a blue chip lay there: blue's removal and a later
    placement, which one move cannot explain nor a catch-up order (issue 4)."""
    before, after = board_with(C8="G"), board_with(C8="B", G2="G")
    c8 = parse_cell("C8")
    change = BoardChange.between(before, after, emptied={c8})
    assert [ch.is_replaced for ch in change.changes] == [False, True]  # G2 first (row 2)
    alone = interpret(BoardChange.between(before, board_with(C8="B"), emptied={c8}), "blue")
    assert alone.kind == MISMATCH and alone.cells == ("C8",)
    assert "green chip on C8 was taken off and a blue chip put there" in alone.reason
    both = interpret(change, "green")
    assert both.kind == MISMATCH and set(both.cells) == {"C8", "G2"}
    assert interpret_catch_up(change, ["green", "blue"]) is None
    # without the empty read in between it stays a misread colour, ignored
    assert interpret(BoardChange.between(before, after), "green").kind == PLACE


def test_a_cell_was_emptied_only_by_a_run_of_empty_reads_after_its_chip_and_the_last_ruling():
    from companion.tracking.catch_up import emptied_between

    game, now = board_with(C8="G", D4="B"), board_with(C8="B", D4="G")
    c8, d4 = parse_cell("C8"), parse_cell("D4")
    tracker = BoardTracker()
    tracker.restore_history(
        {
            c8: [("G", 1.0, 2.0), (".", 3.0, 4.0), ("B", 5.0, 6.0)],
            d4: [("B", 1.0, 4.0), ("G", 5.0, 6.0)],  # never read empty: a misread colour
        }
    )
    both = {c8, d4}
    assert emptied_between(game, now, both, tracker) == {c8}
    assert emptied_between(game, now, {d4}, tracker) == set()  # C8 not changed on a board
    # a ruling at 3.5 (an illegal removal of C8) already ruled on that empty run
    assert emptied_between(game, now, both, tracker, since=3.5) == set()
    assert emptied_between(game, now, both, tracker, since=2.5) == {c8}
    # a chip whose colour was never read keeps the benefit of the doubt
    unread = BoardTracker()
    unread.restore_history({c8: [(".", 3.0, 4.0), ("B", 5.0, 6.0)]})
    assert emptied_between(game, now, both, unread) == set()
    # an empty cell now, or the game's own colour, is no replaced chip
    assert emptied_between(game, board_with(C8=".", D4="B"), both, tracker) == set()


def test_no_change_means_nothing_to_do():
    assert interpret(BoardChange.between(EMPTY, EMPTY), "blue").kind == NONE
    assert not BoardChange.between(EMPTY, EMPTY)


def test_a_correction_holds_while_the_misread_persists():
    tracker = BoardTracker(TrackerConfig(still_window=0.1, min_reads=1), EMPTY)
    misread = board_with(C3="G")  # the table says C3 is really blue
    tracker.update(0.0, 0.0, reading(misread))
    tracker.correct((2, 2), "B")
    truth = board_with(C3="B")
    assert tracker.update(0.1, 0.0, reading(misread)).settled == truth
    assert tracker.update(0.5, 0.0, reading(misread)).settled is None  # still believed
    # the chip is taken away: the vision reads empty, the correction ends
    assert tracker.update(0.6, 0.0, reading(EMPTY)).settled is None
    assert tracker.update(0.7, 0.0, reading(EMPTY)).settled == EMPTY
    with pytest.raises(ValueError):
        tracker.correct((0, 0), "B")


def test_a_few_unreadable_cells_keep_their_value_and_do_not_block():
    tracker = BoardTracker(TrackerConfig(still_window=0.5, max_hidden=2), board_with(B2="B"))
    doubtful = board_with(B2="?", C3="?", D4="G")
    updates = feed(tracker, [(1.0, 0.0, doubtful)])
    assert settled(updates)[-1][1] == board_with(B2="B", D4="G")
    assert updates[-1][1].hidden == ((1, 1), (2, 2))
    hand = board_with(B2="?", C3="?", D4="?", E5="R")
    assert all(u.status == WATCHING for _, u in feed(tracker, [(1.0, 0.0, hand)], start=2.0))


def test_a_cell_that_keeps_flickering_does_not_hold_the_board_forever():
    tracker = BoardTracker(TrackerConfig(still_window=0.5, settle_patience=1.5), EMPTY)
    changing = [board_with(E5="B", C3="G"), board_with(E5="B", C3="R")]  # C3 never steady
    updates = feed(tracker, [(0.1, 0.0, changing[k % 2]) for k in range(30)])
    events = settled(updates)
    assert events and events[0][1] == board_with(E5="B")  # C3 kept its value
    assert 1.5 <= events[0][0] <= 1.7


def test_a_card_left_on_the_board_does_not_stop_the_game():
    tracker = BoardTracker(TrackerConfig(still_window=0.5), EMPTY)
    card = {f"{col}{row}": "?" for col in "BCD" for row in (7, 8)}  # six cells under a card
    updates = feed(
        tracker, [(1.0, 0.0, board_with(**card)), (1.0, 0.0, board_with(E5="B", **card))]
    )
    assert settled(updates)[-1][1] == board_with(E5="B")  # hidden cells keep their value
    # the card is moved away (motion), revealing a chip that was under it all along
    later = feed(tracker, [(0.3, 0.3, None), (1.0, 0.0, board_with(E5="B", C7="G"))], start=3.0)
    assert settled(later)[-1][1] == board_with(E5="B", C7="G")


def test_two_sparse_misreads_are_not_enough_to_change_a_cell():
    tracker = BoardTracker(TrackerConfig(still_window=0.5, min_reads=3), EMPTY)
    misread = board_with(E5="R")
    tracker.update(0.0, 0.0, reading(misread))
    assert tracker.update(1.0, 0.0, reading(misread)).settled is None  # 2 reads: E5 pending
    assert tracker.update(1.1, 0.0, reading(misread)).settled == misread  # 3rd read agrees


# -- camera outages and unreadable cells -----------------------------------------------------------


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
    own_chip_gone = BoardChange.between(start, board_with(C1="B"))
    assert interpret_catch_up(own_chip_gone, ["blue", "green"]) is None  # green took its own
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


def test_a_missed_placement_followed_by_a_removal_is_caught_up_in_turn_order():
    """Green put a chip on F2 unseen, then blue took the green chip off I4."""
    start = board_with(I4="G", H8="B")
    change = BoardChange.between(start, board_with(F2="G", H8="B"))
    assert interpret(change, "green").kind == MISMATCH
    moves = interpret_catch_up(change, ["green", "blue"])
    assert [(m.kind, m.color, m.cell) for m in moves] == [
        (PLACE, "green", parse_cell("F2")),
        (REMOVE, "blue", parse_cell("I4")),
    ]
    # a removal first, then a placement: blue took the green chip, green placed
    change = BoardChange.between(start, board_with(H8="B", C7="G"))
    moves = interpret_catch_up(change, ["blue", "green"])
    assert [(m.kind, m.color) for m in moves] == [(REMOVE, "blue"), (PLACE, "green")]


def test_a_removal_that_more_than_one_side_may_have_made_is_not_guessed():
    """Three teams: red's chip gone and a green chip added, blue to move. Blue removed the red
    chip and green placed, or... the only fitting order is unique here; a red chip gone with
    blue and green both able to remove it and no placement to pin the order is ambiguous."""
    start = board_with(E5="R")
    change = BoardChange.between(start, board_with(D4="G"))
    moves = interpret_catch_up(change, ["blue", "green", "red"])
    assert [(m.kind, m.color) for m in moves] == [(REMOVE, "blue"), (PLACE, "green")]
    start = board_with(E5="R", F6="R")
    two_gone = BoardChange.between(start, EMPTY)
    assert interpret_catch_up(two_gone, ["blue", "green", "red"]) is None  # which was first?
    more_than_a_round = BoardChange.between(EMPTY, board_with(A2="B", B3="G", C4="B"))
    assert interpret_catch_up(more_than_a_round, ["blue", "green"]) is None


def test_a_change_that_turned_unreadable_before_it_was_confirmed_does_not_hold_the_board():
    """C3 is read blue twice as the hand leaves, then only '?' (a glare spot): the board settles
    after the window as it was (C3 unconfirmed, not after the 1.5 s patience), and C3 is a
    glimpse the session may use later; it never becomes the cell's value by itself."""
    tracker = BoardTracker(TrackerConfig(still_window=0.5), expected=EMPTY)
    feed(tracker, [(1.0, 0.0, EMPTY)])
    chip, unread = board_with(C3="B"), board_with(C3="?")
    updates = feed(tracker, [(0.5, 1.0, None), (0.2, 0.0, chip), (2.0, 0.0, unread)], start=1.0)
    still_at = next(t for t, u in updates if u.status == STILL)
    assert still_at == pytest.approx(2.0)  # hand gone at 1.5, still for the 0.5 s window
    assert settled(updates) == []  # the board it had announced is unchanged
    assert tracker.glimpses() == {parse_cell("C3"): "B"}
    assert tracker.stable_board == EMPTY
    tracker.adopt(parse_cell("C3"), "B")  # the session ruled it: it is the cell's value now
    assert tracker.stable_board == chip and tracker.glimpses() == {}


def test_a_single_read_before_the_cell_turned_unreadable_is_no_glimpse():
    tracker = BoardTracker(TrackerConfig(still_window=0.5), expected=EMPTY)
    chip, unread = board_with(C3="B"), board_with(C3="?")
    feed(tracker, [(1.0, 0.0, EMPTY), (0.1, 0.0, chip), (1.0, 0.0, unread)])
    assert tracker.glimpses() == {}
    # a glimpse ends when the cell is read as it was
    tracker = BoardTracker(TrackerConfig(still_window=0.5), expected=EMPTY)
    feed(tracker, [(1.0, 0.0, EMPTY), (0.2, 0.0, chip), (0.5, 0.0, unread)])
    assert tracker.glimpses() == {parse_cell("C3"): "B"}
    feed(tracker, [(0.1, 0.0, EMPTY), (0.5, 0.0, unread)], start=1.7)
    assert tracker.glimpses() == {}


def test_the_tracker_remembers_when_each_value_was_read_on_a_cell():
    tracker = BoardTracker(TrackerConfig(still_window=0.5), expected=EMPTY)
    c3 = parse_cell("C3")
    feed(
        tracker, [(1.0, 0.0, EMPTY), (1.0, 0.0, board_with(C3="?")), (1.0, 0.0, board_with(C3="B"))]
    )
    assert tracker.last_read(c3, ".") == pytest.approx(0.9)  # '?' reads are not values
    assert tracker.first_read_since(c3, "B", 0.9) == pytest.approx(2.0)
    assert tracker.first_read_since(c3, "G", 0.0) is None
    assert tracker.last_read(c3, "G") is None
    tracker.reset(EMPTY)  # a new game forgets the history
    assert tracker.last_read(c3, "B") is None


def test_an_order_of_unseen_moves_must_agree_with_what_was_read_when():
    """Green's F2 (under glare, never read) then blue's removal of I4 (read at t=5): fine.
    Had F2 been read empty at t=6, after I4 was seen gone, F2 cannot have come first."""
    from companion.tracking.catch_up import seen_in_order

    start = board_with(I4="G")
    change = BoardChange.between(start, board_with(F2="G"))
    plan = interpret_catch_up(change, ["green", "blue"])
    f2, i4 = parse_cell("F2"), parse_cell("I4")

    class Reads:
        def __init__(self, reads):  # cell -> [(time, value)]
            self.reads = reads

        def last_read(self, cell, value):
            times = [t for t, v in self.reads.get(cell, []) if v == value]
            return max(times) if times else None

        def first_read_since(self, cell, value, since):
            times = [t for t, v in self.reads.get(cell, []) if v == value and t > since]
            return min(times) if times else None

    seen = {i4: [(1.0, "G"), (5.0, ".")], f2: [(1.0, ".")]}
    assert seen_in_order(plan, change, Reads(seen), unseeable={f2})
    assert not seen_in_order(plan, change, Reads(seen), unseeable=set())  # F2 was readable
    late = {i4: [(1.0, "G"), (5.0, ".")], f2: [(1.0, "."), (6.0, ".")]}
    assert not seen_in_order(plan, change, Reads(late), unseeable={f2})
    # while the table is asked, a change seen in an earlier spell may come first
    asked = {i4: [(1.0, "G"), (5.0, ".")], f2: [(1.0, "."), (3.0, "G")]}
    assert seen_in_order(plan, change, Reads(asked), unseeable=set(), asked=True)
    assert seen_in_order(plan, change, Reads(seen), unseeable=set(), after_gap=True)


# -- latency: unreadable reads as the hand leaves, and spots -------------------------------------


def test_a_chip_read_unreadable_as_the_hand_leaves_is_not_held_back_a_whole_window():
    """The hand leaves at 1.5 s; C3 reads '?' for 0.4 s (the vision's doubt near the hand),
    then blue steadily. Nothing moved since 1.5 s and nothing but blue was read on C3, so the
    window counts from 1.5 s: C3 settles at 2.2 s (three reads over 0.3 s), not at 2.4 s (a
    whole window after its first clear read)."""
    tracker = BoardTracker(TrackerConfig(still_window=0.5), EMPTY)
    feed(tracker, [(1.0, 0.0, EMPTY)])
    chip, doubt = board_with(C3="B"), board_with(C3="?")
    updates = feed(tracker, [(0.5, 0.3, None), (0.4, 0.0, doubt), (1.0, 0.0, chip)], start=1.0)
    (when, board), = settled(updates)  # fmt: skip
    assert board == chip and when == pytest.approx(2.2)


def test_a_misread_after_unreadable_reads_is_still_a_flicker():
    """Three reads of red over 0.2 s after 0.4 s of '?' (shown for less than half the window)
    are a flicker and never a chip; two reads are not, however long the cell stays '?' then."""
    doubt, misread = board_with(C3="?"), board_with(C3="R")
    for reads, after in ((3, EMPTY), (2, doubt)):
        tracker = BoardTracker(TrackerConfig(still_window=0.5, min_reads=3), EMPTY)
        feed(tracker, [(1.0, 0.0, EMPTY)])
        script = [(0.5, 0.3, None), (0.4, 0.0, doubt), (reads / FPS, 0.0, misread)]
        updates = feed(tracker, [*script, (2.0, 0.0, after)], start=1.0)
        assert settled(updates) == [] and tracker.stable_board == EMPTY


def test_a_value_read_after_another_in_one_still_spell_needs_the_whole_window():
    """Within one still spell nothing moved, so empty then blue on C3 means one of them is a
    misread: blue must be the only value read for a whole window from its first read."""
    tracker = BoardTracker(TrackerConfig(still_window=0.5), EMPTY)
    feed(tracker, [(1.0, 0.0, EMPTY)])
    chip = board_with(C3="B")
    updates = feed(tracker, [(0.3, 0.0, board_with(C3="?")), (1.0, 0.0, chip)], start=1.0)
    (when, board), = settled(updates)  # fmt: skip
    assert board == chip and when == pytest.approx(1.3 + 0.5)


def _frames(tracker: BoardTracker, frames, start: float):
    """frames: (motion, cells or None, spot) per frame at FPS. Returns (time, update) pairs."""
    out = []
    for k, (motion, cells, spot) in enumerate(frames):
        t = start + k / FPS
        rd = None if cells is None else reading(cells)
        out.append((round(t, 3), tracker.update(t, motion, rd, spot=spot)))
    return out


def _flicker_after_a_move(spot: bool):
    """Blue's hand places C3 (1.0-1.5 s); at 1.8 s red flickers on E5 for 0.2 s: a real change
    of pixels, one chip across, with no hand near (``spot``) or counted as any motion."""
    tracker = BoardTracker(TrackerConfig(still_window=0.5), EMPTY)
    feed(tracker, [(1.0, 0.0, EMPTY)])
    chip, flicker = board_with(C3="B"), board_with(C3="B", E5="R")
    frames = [(0.3, None, False)] * 5 + [(0.0, chip, False)] * 3
    frames += [(0.003, flicker, spot), (0.0, flicker, False), (0.003, chip, spot)]
    frames += [(0.0, chip, False)] * 12
    return tracker, _frames(tracker, frames, start=1.0)


def test_a_spot_flickering_on_a_still_board_does_not_restart_the_window():
    tracker, updates = _flicker_after_a_move(spot=True)
    (when, board), = settled(updates)  # fmt: skip
    assert board == board_with(C3="B")  # the flicker never reaches the board
    assert when == pytest.approx(2.0)  # still since 1.5 s: the window is not restarted
    # the same pixels counted as a hand: the window starts again after the flicker
    _, updates = _flicker_after_a_move(spot=False)
    (when, board), = settled(updates)  # fmt: skip
    assert board == board_with(C3="B") and when == pytest.approx(2.1 + 0.5)


def test_a_spot_next_to_a_hand_is_the_hand_and_a_spot_on_a_settled_board_is_looked_at():
    tracker = BoardTracker(TrackerConfig(still_window=0.5), EMPTY)
    assert tracker.update(0.0, 0.3, None).status == WATCHING  # a hand
    # the hand's fingertips alone move: no still board seen since the hand came
    assert not tracker.wants_reading(0.1, 0.003, spot=True)
    assert tracker.update(0.1, 0.003, reading(board_with(C3="B")), spot=True).status == WATCHING
    feed(tracker, [(1.0, 0.0, EMPTY)], start=0.2)
    assert tracker.status == STILL
    assert not tracker.wants_reading(1.3, 0.0)  # a settled board is re-checked every 1 s
    assert tracker.wants_reading(1.3, 0.003, spot=True)  # but a spot is looked at at once


def test_a_board_the_vision_misses_for_a_moment_does_not_restart_the_window():
    """The hand leaves at 1.5 s; one reading at 1.8 s finds no board although nothing moved:
    the vision missed it, the board did not go. C3 settles at 2.0 s as without the miss.
    A board missing for a whole window is gone: the window starts again when it is back."""
    lost = BoardReading(board_found=False)
    chip = board_with(C3="B")
    for lost_for, settles_at in ((0.1, 2.0), (0.6, 2.4 + 0.5)):
        tracker = BoardTracker(TrackerConfig(still_window=0.5), EMPTY)
        feed(tracker, [(1.0, 0.0, EMPTY)])
        script = [(0.5, 0.3, None), (0.3, 0.0, chip), (lost_for, 0.0, lost), (1.0, 0.0, chip)]
        updates = feed(tracker, script, start=1.0)
        (when, board), = settled(updates)  # fmt: skip
        assert board == chip and when == pytest.approx(settles_at)
        assert any(u.status == NO_BOARD for _, u in updates) is (lost_for > 0.5)


def test_half_of_a_change_is_not_announced_while_its_cell_reads_the_old_value_for_a_moment():
    """B1 and C1 both came with the hand; B1 reads empty again for 0.3 s just as C1 is
    confirmed. B1 was first read blue in this still spell, so it counts as changing for a
    window after: the board is announced once, with both chips (found by the property test)."""
    tracker = BoardTracker(TrackerConfig(still_window=0.5), EMPTY)
    feed(tracker, [(1.0, 0.0, EMPTY)])
    both, wavering = board_with(B1="B", C1="B"), board_with(C1="B")
    script = [(0.1, 0.3, None), (0.3, 0.0, both), (0.3, 0.0, wavering), (1.5, 0.0, both)]
    updates = feed(tracker, script, start=1.0)
    assert [board for _, board in settled(updates)] == [both]
