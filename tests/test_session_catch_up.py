"""Moves the camera could not see when they were made: after an outage, or on a cell the vision
could not read for a whole still spell. Several placements in turn order are then ruled as the
moves played meanwhile; anything less certain stays a board mismatch."""

from __future__ import annotations

from companion.capture.reconnect import CaptureEvent
from companion.session import GameSession
from companion.store import Store
from tests.test_session import EMPTY, ScriptedReader, Table, board_with


def make_table() -> Table:
    reader = ScriptedReader()
    return Table(GameSession(store=Store(), reader=reader), reader)


def test_a_chip_unreadable_through_a_still_spell_is_ruled_when_it_shows_up():
    table = make_table()
    table.still(EMPTY)
    table.move(board_with(C3="B"))  # move 1, seen
    table.move(board_with(C3="B", E5="?"))  # green plays E5; the vision cannot read it
    table.move(board_with(C3="B", E5="G", F6="B"))  # blue plays F6; E5 is readable again
    state = table.session.state()
    assert state["moves"] == [
        {"color": "blue", "place": "C3"},
        {"color": "green", "place": "E5"},
        {"color": "blue", "place": "F6"},
    ]
    assert [r["code"] for r in state["rulings"]] == ["ok", "ok", "ok"]


def test_two_new_chips_on_cells_that_were_seen_empty_are_still_a_mismatch():
    table = make_table()
    table.still(EMPTY)
    table.move(board_with(C3="B"))
    table.move(board_with(C3="B", E5="G", F6="B"))  # both played within one hand visit
    state = table.session.state()
    assert len(state["moves"]) == 1
    assert state["rulings"][-1]["code"] == "board_mismatch"
    assert state["mismatch"] == ["E5", "F6"]


def test_after_an_outage_the_moves_played_meanwhile_are_ruled_in_turn_order():
    table = make_table()
    table.still(EMPTY)
    table.move(board_with(C3="B"))
    lost = CaptureEvent("lost", "cam", "cam lost")
    table.session.on_capture_event(lost)
    table.session.on_capture_event(CaptureEvent("back", "cam", "cam is back"))
    table.still(board_with(C3="B", E5="G", F6="B", A2="R"))  # red is not playing: no catch-up
    assert table.session.state()["rulings"][-1]["code"] == "board_mismatch"
    table.move(board_with(C3="B"))  # the table fixes the board
    table.session.on_capture_event(lost)
    table.still(board_with(C3="B", E5="G", F6="B"))
    state = table.session.state()
    assert [m.get("place") for m in state["moves"]] == ["C3", "E5", "F6"]
    assert [r["code"] for r in state["rulings"]][-2:] == ["ok", "ok"]
