"""A crash or restart in the middle of a wait: the session resumes what the game was waiting
for (a question about hidden cells, an illegal move or an undone move to put right) instead of
forgetting it, ruling the same board again, or ruling an undone move's chip as a new move."""

from __future__ import annotations

from test_session import (
    EMPTY,
    ScriptedReader,
    Table,
    answer_the_two_unseen_rounds,
    board_with,
    codes,
    glare,
    play_to_its_end,
    two_unseen_rounds,
    unseen_move_then_a_removal_beside_it,
)

from companion.session import GameSession
from companion.store import Store, Wait


def start(path) -> Table:
    reader = ScriptedReader()
    table = Table(GameSession(store=Store(path), reader=reader), reader)
    return table


def restart(table: Table, path) -> Table:
    """The process dies (nothing is closed cleanly but the file) and starts again; the table
    and the camera carry on from the same clock."""
    table.session.store.close()
    again = start(path)
    again.t, again.index = table.t, table.index
    return again


def unseen_events(events) -> list[dict]:
    out = []
    while not events.empty():
        event = events.get_nowait()
        if event["type"] == "unseen":
            out.append(event)
    return out


def test_an_open_question_survives_a_crash_and_is_answered_after_it(tmp_path):
    path = tmp_path / "games.db"
    table = start(path)
    table.still(board_with(**glare()))
    table.move(board_with(**glare()))  # blue's A6 under the glare, unseen
    table.move(board_with(**glare(D4="G")))  # green's D4 seen: the table is asked
    asked = table.session.state()
    assert asked["status"] == "waiting_for_board" and asked["moves"] == []

    table = restart(table, path)
    resumed = table.session.state()  # the question is back at once, before any frame
    for key in ("status", "status_message", "mismatch", "moves", "rulings"):
        assert resumed[key] == asked[key], key
    events = table.session.subscribe()
    table.still(board_with(**glare(D4="G")), seconds=1.5)  # the same board: not asked again
    assert unseen_events(events) == []
    assert table.session.state()["status_message"] == asked["status_message"]

    table.session.correct_cell("A6", "B")  # the answer, after the restart
    state = table.session.state()
    assert state["moves"] == [{"color": "blue", "place": "A6"}, {"color": "green", "place": "D4"}]
    assert codes(table.session) == ["ok", "ok"] and state["mismatch"] == []
    assert table.session.store.load_game(table.session.game_id).wait is None  # answered


def test_late_answers_after_a_restart_still_rule_every_move_in_order(tmp_path):
    """Two rounds unanswered (blue's A6 and C6 under the glare), a restart, then the answers:
    the same rulings as without the restart, F6 before G7 as the camera saw them appear."""
    path = tmp_path / "games.db"
    table = start(path)
    two_unseen_rounds(table)

    table = restart(table, path)
    table.still(board_with(**glare(E5="B", D4="G", F6="G", G7="G")))
    answer_the_two_unseen_rounds(table)


def test_what_was_read_before_a_restart_still_rules_out_an_impossible_order(tmp_path):
    """Green's A6 goes unseen, blue takes I4 off while B7 still reads blue: asked. After a
    restart B7 is seen empty: 'green took B7, then blue took I4' fits the turns, but B7 was
    read blue after I4 had gone (before the restart), so nothing is ruled; the table is asked."""
    path = tmp_path / "games.db"
    table = start(path)
    unseen_move_then_a_removal_beside_it(table)
    assert table.session.state()["status"] == "waiting_for_board"

    table = restart(table, path)
    table.move(board_with(**glare(E5="B")))  # a hand passes, B7 unreadable all along
    table.move(board_with(**glare(E5="B", B7=".")))  # green took B7 off
    assert codes(table.session) == ["ok"] * 3
    assert "green's move may be there" in table.session.state()["status_message"]


def test_an_illegal_move_waiting_to_be_put_back_is_not_ruled_again_after_a_restart(tmp_path):
    path = tmp_path / "games.db"
    table = start(path)
    table.still(EMPTY)
    line = table.play_blue_sequence()
    without = {k: v for k, v in line.items() if k != "C3"}
    table.move(board_with(**without))  # a chip of blue's sequence taken off: illegal
    assert codes(table.session)[-1] == "remove_locked"

    table = restart(table, path)
    state = table.session.state()
    assert state["status"] == "waiting_for_board" and state["mismatch"] == ["C3"]
    assert state["status_message"].startswith("Illegal:")
    table.still(board_with(**without), seconds=1.5)  # still not put back: no second ruling
    assert codes(table.session).count("remove_locked") == 1
    table.move(board_with(**line))  # put back
    assert table.session.state()["status"] == "still"
    assert table.session.store.load_game(table.session.game_id).wait is None


def test_an_undone_moves_chip_is_not_ruled_again_after_a_restart(tmp_path):
    path = tmp_path / "games.db"
    table = start(path)
    table.still(EMPTY)
    table.move(board_with(C3="B"))
    table.session.undo()

    table = restart(table, path)
    table.still(board_with(C3="B"), seconds=1.5)  # the chip still lies there
    state = table.session.state()
    assert state["moves"] == [] and state["mismatch"] == ["C3"]
    assert state["status"] == "waiting_for_board"
    table.move(EMPTY)  # taken off: the game goes on
    table.move(board_with(D4="B"))
    assert table.session.state()["moves"] == [{"color": "blue", "place": "D4"}]


def test_moves_made_while_the_companion_was_down_are_ruled_in_turn_order(tmp_path):
    path = tmp_path / "games.db"
    table = start(path)
    table.still(EMPTY)
    table.move(board_with(C3="B"))
    table = restart(table, path)  # meanwhile green played D4 and blue E5
    table.still(board_with(C3="B", D4="G", E5="B"), seconds=1.5)
    assert [m.get("place") for m in table.session.state()["moves"]] == ["C3", "D4", "E5"]
    assert codes(table.session) == ["ok"] * 3


def test_a_wait_the_game_has_moved_on_from_is_dropped(tmp_path):
    """A crash between a move and the end of its wait: the stored wait names fewer moves than
    the game has; it is not resumed, and it is cleared."""
    path = tmp_path / "games.db"
    table = start(path)
    table.still(EMPTY)
    table.move(board_with(C3="B"))
    store = table.session.store
    stale = Wait("mismatch", ("D4",), "Fix D4", 0, tuple(EMPTY))
    store.set_wait(table.session.game_id, stale)
    table = restart(table, path)
    assert table.session.state()["status"] != "waiting_for_board"
    assert table.session.state()["mismatch"] == []
    assert table.session.store.load_game(table.session.game_id).wait is None


def test_serve_says_whether_it_resumed_a_game_and_what_it_waits_for(tmp_path):
    from companion.commands.serve import game_line

    path = tmp_path / "games.db"
    table = start(path)
    assert game_line(table.session) == "new game 1"
    table.still(board_with(**glare()))
    table.move(board_with(**glare()))
    table.move(board_with(**glare(D4="G")))  # asked
    table = restart(table, path)
    line = game_line(table.session)
    assert line.startswith("game 1 resumed at move 1; Cannot see A6")


def test_a_board_mismatch_is_not_ruled_again_after_a_restart(tmp_path):
    path = tmp_path / "games.db"
    table = start(path)
    table.still(EMPTY)
    two = board_with(C3="B", D4="B")
    table.move(two)  # two chips at once
    assert codes(table.session) == ["board_mismatch"]

    table = restart(table, path)
    assert table.session.state()["mismatch"] == ["C3", "D4"]
    table.still(two, seconds=1.5)
    assert codes(table.session) == ["board_mismatch"]  # the same board: not ruled twice
    table.move(board_with(C3="B"))  # one taken back: blue's C3
    assert table.session.state()["moves"] == [{"color": "blue", "place": "C3"}]


def test_a_recording_that_ends_with_a_question_open_still_says_so(tmp_path):
    """The page words source_ended as 'the recording has ended'; the open question must stay
    in the message, since the table can still answer it (the cells stay marked)."""

    import cv2
    from test_session import STILL_IMAGE

    from companion.capture import FolderSource

    table = start(tmp_path / "games.db")
    table.still(board_with(**glare()))
    table.move(board_with(**glare()))
    table.move(board_with(**glare(D4="G")))  # asked
    frames = tmp_path / "rest"
    frames.mkdir()
    for i in range(3):
        cv2.imwrite(str(frames / f"{i}.png"), STILL_IMAGE)
    session = table.session
    session.source = FolderSource(frames, fps=10)
    play_to_its_end(session)
    state = session.state()
    assert state["status"] == "source_ended"
    assert state["status_message"].startswith("rest: 0 moves recorded, blue to move. Still open:")
    assert "Cannot see A6" in state["status_message"] and state["mismatch"][0] == "A6"
    session.correct_cell("A6", "B")  # answered after the end: both moves ruled
    assert [m.get("place") for m in session.state()["moves"]] == ["A6", "D4"]
