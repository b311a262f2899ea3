"""GameSession end to end with a scripted vision reader: settle -> move -> ruling -> store."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest

from companion.capture.frame import Frame
from companion.capture.reconnect import CaptureEvent
from companion.referee import Game, SetupError
from companion.session import GameSession, SessionError, parse_players
from companion.store import Store
from companion.store.records import export_record, import_record
from companion.tracking import TrackerConfig
from companion.vision.reading import NO_COLOUR, BoardReading

FPS = 10
EMPTY = ["*........*"] + ["." * 10] * 8 + ["*........*"]
STILL_IMAGE = np.full((48, 64, 3), 100, np.uint8)


def board_with(**cells: str) -> list[str]:
    rows = [list(r) for r in EMPTY]
    for name, symbol in cells.items():
        rows[int(name[1:]) - 1]["ABCDEFGHIJ".index(name[0])] = symbol
    return ["".join(r) for r in rows]


class ScriptedReader:
    """Stands in for the vision: reads whatever board the test says is on the table."""

    def __init__(self) -> None:
        self.board = EMPTY
        self.reads = 0
        self.reasons: dict[str, tuple[str, ...]] = {}  # why the vision reads a cell '?'

    def read(self, image):
        self.reads += 1
        return BoardReading(
            True,
            0,
            list(self.board),
            np.ones((10, 10)),
            np.float32([[8, 4], [56, 4], [56, 44], [8, 44]]),
            unknown_reasons=dict(self.reasons),
        )

    def straighten(self, image):
        return image[:40, :40].copy()


class Table:
    """Drives a session frame by frame: hands over the board, then a still board."""

    def __init__(self, session: GameSession, reader: ScriptedReader) -> None:
        self.session, self.reader = session, reader
        self.t = 0.0
        self.index = 0
        self.rng = np.random.default_rng(0)

    def _frame(self, image):
        frame = Frame(image, self.t, self.index, "test")
        self.session.process_frame(frame)
        self.index += 1
        self.t = self.index / FPS

    def hand(self, seconds: float = 0.5) -> None:
        for _ in range(round(seconds * FPS)):
            self._frame(self.rng.integers(0, 255, STILL_IMAGE.shape, np.uint8))

    def still(self, board: list[str], seconds: float = 1.0) -> None:
        self.reader.board = board
        image = STILL_IMAGE.copy()
        image[:8, :8] = sum(row.count(".") for row in board)  # evidence differs per board
        for _ in range(round(seconds * FPS)):
            self._frame(image)

    def move(self, board: list[str]) -> None:
        self.hand()
        self.still(board)

    def play_blue_sequence(self) -> dict[str, str]:
        """Blue B2, C3, D4, E5 (with the free corner A1: a sequence), green J5-J7 between;
        returns the board's chips."""
        line = {}
        for cell, symbol in [("B2", "B"), ("J5", "G"), ("C3", "B"), ("J6", "G"), ("D4", "B"),
                             ("J7", "G"), ("E5", "B")]:  # fmt: skip
            line[cell] = symbol
            self.move(board_with(**line))
        return line


@pytest.fixture
def table():
    reader = ScriptedReader()
    session = GameSession(store=Store(), reader=reader, tracker_config=TrackerConfig(0.5))
    t = Table(session, reader)
    t.still(EMPTY)
    return t


def codes(session: GameSession) -> list[str]:
    return [r["code"] for r in session.state()["rulings"]]


def test_placements_become_moves_of_the_side_to_move(table):
    table.move(board_with(C3="B"))
    table.move(board_with(C3="B", D4="G"))
    state = table.session.state()
    assert state["moves"] == [{"color": "blue", "place": "C3"}, {"color": "green", "place": "D4"}]
    assert codes(table.session) == ["ok", "ok"]
    assert state["turn"] == 3 and state["to_move"] == {"name": "Blue", "team": "blue"}
    assert state["status"] == "still"


def test_hands_alone_never_make_a_move(table):
    table.hand(3.0)
    table.still(EMPTY)
    assert table.session.state()["moves"] == []
    assert table.session.state()["rulings"] == []


def test_two_chips_at_once_are_a_mismatch_until_fixed(table):
    q = table.session.subscribe()
    table.move(board_with(C3="B", D4="B"))
    state = table.session.state()
    assert state["status"] == "waiting_for_board"
    assert state["rulings"][-1]["code"] == "board_mismatch"
    assert state["rulings"][-1]["cells"] == ["C3", "D4"]
    assert state["mismatch"] == ["C3", "D4"]
    table.move(board_with(C3="B", D4="B"))  # a hand passes but nothing is fixed
    assert table.session.state()["status"] == "waiting_for_board"
    assert len(table.session.state()["rulings"]) == 1  # not ruled twice
    table.move(board_with(C3="B"))  # one taken back: now it is one legal move
    assert table.session.state()["moves"] == [{"color": "blue", "place": "C3"}]
    events = []
    while not q.empty():
        events.append(q.get_nowait()["type"])
    assert {"state", "status", "mismatch", "ruling", "frame"} <= set(events)


def test_removals_and_wrong_colours(table):
    table.move(board_with(C3="B"))
    table.move(board_with(C3="B", D4="G"))
    table.move(board_with(C3="B", D4="G", E5="B"))
    table.move(board_with(D4="G", E5="B"))  # green takes blue's C3 off (one-eyed jack)
    assert table.session.state()["moves"][-1] == {"color": "green", "remove": "C3"}
    table.move(board_with(E5="B"))  # blue takes green's D4 off
    assert codes(table.session) == ["ok"] * 5
    table.move(board_with(E5="G"))  # E5 suddenly reads green: a misread, ignored
    assert len(table.session.state()["rulings"]) == 5
    table.move(EMPTY)  # green takes blue's E5 off
    assert table.session.state()["moves"][-1] == {"color": "green", "remove": "E5"}
    table.move(board_with(F6="G"))  # a green chip, but blue is to move
    assert codes(table.session)[-1] == "board_mismatch"
    assert "blue is to move" in table.session.state()["status_message"]


def test_removing_a_locked_chip_is_illegal_and_must_be_put_back(table):
    line = {}
    moves = [
        ("B2", "B"),
        ("J5", "G"),
        ("C3", "B"),
        ("J6", "G"),
        ("D4", "B"),
        ("J7", "G"),
        ("E5", "B"),
    ]  # blue's B2..E5 diagonal with the A1 corner: a sequence
    for cell, symbol in moves:
        line[cell] = symbol
        table.move(board_with(**line))
    state = table.session.state()
    assert state["sequences"]["blue"] == 1
    assert state["sequence_cells"]["blue"] == [["A1", "B2", "C3", "D4", "E5"]]
    without = dict(line)
    del without["C3"]
    table.move(board_with(**without))
    assert codes(table.session)[-1] == "remove_locked"
    assert table.session.state()["status"] == "waiting_for_board"
    table.move(board_with(**line))  # put back
    assert table.session.state()["status"] == "still"
    assert table.session.state()["to_move"]["team"] == "green"
    assert len(table.session.state()["moves"]) == 7


def test_undo_waits_for_the_board_and_does_not_replay_the_move(table):
    table.move(board_with(C3="B"))
    table.session.undo()
    state = table.session.state()
    assert state["moves"] == [] and state["status"] == "waiting_for_board"
    assert state["rulings"] == []  # the undone move's ruling is taken back too
    assert state["mismatch"] == ["C3"]
    table.still(board_with(C3="B"), 1.0)  # the chip is still there: no new move
    assert table.session.state()["moves"] == []
    table.move(EMPTY)
    assert table.session.state()["status"] == "still"
    with pytest.raises(SessionError):
        table.session.undo()


def test_declared_card_is_checked_against_the_cell(table):
    table.session.declare_card("7S")  # 7S is printed on H1 and B9, not C3
    table.move(board_with(C3="B"))
    assert codes(table.session)[-1] == "cell_mismatch"
    table.move(EMPTY)
    table.session.declare_card("2S", "Blue")  # 2S is on B1
    table.move(board_with(B1="B"))
    assert table.session.state()["moves"][-1] == {"player": "Blue", "card": "2S", "place": "B1"}
    with pytest.raises(SessionError):
        table.session.declare_card("ZZ")


def test_a_misread_cell_can_be_corrected(table):
    table.move(board_with(C3="B"))
    table.move(board_with(C3="G"))  # the vision now misreads C3 as green: ignored
    table.session.correct_cell("C3", "B")
    table.move(board_with(C3="G", D4="G"))  # green plays D4; C3 still misread
    assert table.session.state()["moves"][-1] == {"color": "green", "place": "D4"}
    with pytest.raises(SessionError):
        table.session.correct_cell("C3", "X")
    with pytest.raises(SessionError):
        table.session.correct_cell("Z9", "B")


def test_check_card_and_dead_cards(table):
    info = table.session.check_card("2S")
    assert info == {"card": "2S", "dead": False, "cells": ["B1", "G9"], "kind": "plain"}
    assert table.session.check_card("JH")["kind"] == "one_eyed"
    ruling = table.session.declare_dead("2S")
    assert ruling["code"] == "not_dead" and not ruling["legal"]


def test_evidence_is_kept_for_each_move(table):
    table.move(board_with(C3="B"))
    before = table.session.evidence(1, "before")
    after = table.session.evidence(1, "after")
    assert before[:2] == b"\xff\xd8" and after[:2] == b"\xff\xd8" and before != after
    assert table.session.evidence(2, "after") is None
    assert table.session.latest_jpeg()[:2] == b"\xff\xd8"
    assert table.session.board_jpeg()[:2] == b"\xff\xd8"


def test_every_ruling_keeps_its_before_and_after_pictures(table):
    session = table.session
    table.move(board_with(C3="B"))
    table.move(board_with(C3="B", D4="B", E5="B"))  # two chips at once: refused
    table.move(board_with(C3="B", D4="G"))  # fixed: one legal green move
    accepted, refused, second = session.state()["rulings"]
    assert refused["code"] == "board_mismatch" and accepted["id"] < refused["id"] < second["id"]
    before = session.ruling_evidence(refused["id"], "before")
    after = session.ruling_evidence(refused["id"], "after")
    # before: the board of the last accepted move; after: the board that was refused
    assert before == session.evidence(1, "after")
    assert after[:2] == b"\xff\xd8" and after not in (before, session.evidence(2, "after"))
    # an accepted move's pictures are found by its ruling id as well as by its move number
    assert session.ruling_evidence(accepted["id"], "after") == session.evidence(1, "after")
    assert session.ruling_evidence(second["id"], "before") == session.evidence(2, "before")
    assert session.ruling_evidence(second["id"] + 1, "before") is None
    session.undo()  # move 2's number is free again: its old ruling no longer finds pictures
    assert session.ruling_evidence(second["id"], "after") is None
    assert session.ruling_evidence(refused["id"], "after") == after


def test_an_illegal_move_keeps_its_pictures_across_a_restart(tmp_path):
    path = tmp_path / "games.db"
    reader = ScriptedReader()
    t = Table(GameSession(store=Store(path), reader=reader), reader)
    t.still(EMPTY)
    line = t.play_blue_sequence()
    del line["C3"]
    t.move(board_with(**line))  # removing a chip of blue's sequence: illegal
    illegal = t.session.state()["rulings"][-1]
    assert illegal["code"] == "remove_locked"
    pictures = [t.session.ruling_evidence(illegal["id"], w) for w in ("before", "after")]
    assert pictures[0] == t.session.evidence(7, "after") and pictures[1][:2] == b"\xff\xd8"
    t.session.store.close()

    again = GameSession(store=Store(path), reader=ScriptedReader())
    assert again.state()["rulings"][-1]["id"] == illegal["id"]
    assert [again.ruling_evidence(illegal["id"], w) for w in ("before", "after")] == pictures


def test_a_restarted_session_resumes_exactly(tmp_path):
    path = tmp_path / "games.db"
    reader = ScriptedReader()
    session = GameSession(
        store=Store(path),
        reader=reader,
        setup={"players": [{"name": "Ann", "team": "blue"}, {"name": "Bo", "team": "green"}]},
    )
    t = Table(session, reader)
    t.still(EMPTY)
    t.move(board_with(C3="B"))
    t.move(board_with(C3="B", D4="B"))  # mismatch
    t.move(board_with(C3="B", D4="G"))
    session.undo()
    t.move(board_with(C3="B"))
    before = session.state()
    session.store.close()  # crash

    again = GameSession(store=Store(path), reader=ScriptedReader())
    assert again._just_cleared is None  # the last move was a placement
    after = again.state()
    for key in ("board", "turn", "to_move", "moves", "rulings", "players", "sequences"):
        assert after[key] == before[key], key
    assert again.export_record() == session.export_record()
    assert export_record(again.store, again.game_id) == session.export_record()


def test_records_round_trip_through_the_store():
    record = {
        "variant": "classic",
        "options": {},
        "players": [{"name": "Ann", "team": "blue"}, {"name": "Bo", "team": "green"}],
        "moves": [
            {"player": "Ann", "card": "2S", "place": "B1"},
            {"color": "green", "place": "C3"},
            {"player": "Ann", "card": "7S", "place": "C3"},
        ],
    }
    store = Store()
    game_id = import_record(store, record)
    assert export_record(store, game_id) == record
    assert [r["code"] for r in store.load_game(game_id).rulings] == ["ok", "ok", "cell_mismatch"]
    session = GameSession(store=store, reader=ScriptedReader())
    assert session.game_id == game_id and session.state()["turn"] == 3
    json.dumps(session.state())  # JSON-able


def test_new_game_validates_the_setup(table):
    with pytest.raises(SetupError):
        table.session.new_game({"players": [{"name": "Solo", "team": "blue"}]})
    table.session.new_game({"players": parse_players("Ann:green,Bo:blue")})
    state = table.session.state()
    assert state["to_move"] == {"name": "Ann", "team": "green"} and state["moves"] == []
    assert isinstance(Game.default(), Game)
    with pytest.raises(SessionError):
        parse_players("Ann-blue")


def test_the_background_thread_reads_the_source_until_it_ends(tmp_path):

    import cv2

    from companion.capture import FolderSource

    for i in range(12):
        cv2.imwrite(str(tmp_path / f"{i:02}.png"), STILL_IMAGE)
    reader = ScriptedReader()
    session = GameSession(store=Store(), source=FolderSource(tmp_path, fps=10), reader=reader)
    events = session.subscribe()
    play_to_its_end(session)
    state = session.state()
    assert state["status"] == "source_ended"  # the page words it "The recording has ended"
    assert state["status_message"] == f"{tmp_path.name}: 0 moves recorded, blue to move"
    assert reader.reads >= 2
    kinds = set()
    while not events.empty():
        kinds.add(events.get_nowait()["type"])
    assert {"state", "frame", "status"} <= kinds
    session.unsubscribe(events)


def test_a_recording_of_a_won_game_ends_on_the_result(tmp_path):
    import time

    import cv2

    from companion.capture import FolderSource

    for i in range(6):
        cv2.imwrite(str(tmp_path / f"{i:02}.png"), STILL_IMAGE)
    reader = ScriptedReader()
    session = GameSession(
        store=Store(),
        source=FolderSource(tmp_path, fps=10),
        reader=reader,
        setup={"options": {"sequences_needed": 1}},
    )
    table = Table(session, reader)
    table.still(EMPTY)
    table.play_blue_sequence()
    assert session.state()["winner"] == "blue"
    session.start()  # the rest of the recording: the won board, then its end
    deadline = time.monotonic() + 10
    while (
        "played to its end" not in session.state()["status_message"] and time.monotonic() < deadline
    ):
        time.sleep(0.02)
    session.stop()
    state = session.state()
    assert state["status"] == "game_over" and "blue wins" in state["status_message"]


def test_a_move_the_vision_missed_is_recovered_by_correcting_its_cell(table):
    table.move(EMPTY)  # blue put a chip on C3 but the vision reads nothing there
    table.move(board_with(D4="G"))  # green plays: a green chip, but blue is to move
    assert table.session.state()["status"] == "waiting_for_board"
    table.session.correct_cell("C3", "B")
    state = table.session.state()
    assert state["moves"] == [{"color": "blue", "place": "C3"}, {"color": "green", "place": "D4"}]
    assert state["status"] == "still" and state["mismatch"] == []
    table.move(board_with(D4="G", E5="B"))  # C3 still misread as empty: the correction holds
    assert state["to_move"]["team"] == "blue"
    assert table.session.state()["moves"][-1] == {"color": "blue", "place": "E5"}


def test_a_declared_card_survives_a_restart(tmp_path):
    path = tmp_path / "g.db"
    session = GameSession(store=Store(path), reader=ScriptedReader())
    session.declare_card("2S")
    session.store.close()
    again = GameSession(store=Store(path), reader=ScriptedReader())
    assert again.state()["declared_card"] == {"card": "2S", "player": None}


def test_a_lost_camera_is_reported_and_the_game_goes_on():
    import contextlib
    import queue
    import time

    from companion.capture import FrameSource

    class UnpluggedOnce(FrameSource):
        """A live camera: 5 frames, one drop (the reopen succeeds), then frames again."""

        live = True

        def __init__(self):
            super().__init__("test camera")
            self.script = ["f"] * 5 + ["drop"] + ["f"] * 5

        def _open(self):
            pass

        def _read(self):
            step = self.script.pop(0) if self.script else "end"
            if step == "end":
                time.sleep(0.01)
                return None
            return STILL_IMAGE if step == "f" else None

    session = GameSession(store=Store(), source=UnpluggedOnce(), reader=ScriptedReader())
    events = session.subscribe()
    session.start()
    seen = []
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and "back" not in [e.get("kind") for e in seen]:
        with contextlib.suppress(queue.Empty):
            seen.append(events.get(timeout=0.1))
    session.stop()
    camera = [e["kind"] for e in seen if e["type"] == "camera"]
    assert camera[:2] == ["lost", "back"]
    statuses = [e["status"] for e in seen if e["type"] == "status"]
    assert "camera_lost" in statuses
    assert session.state()["moves"] == []  # nothing of the game changed


def test_a_camera_gone_grey_is_named_as_the_reason_no_board_is_seen(table):
    class GreyReader(ScriptedReader):
        """The vision of a camera switched to its night mode: no board, and why."""

        def read(self, image):
            self.reads += 1
            return BoardReading(False, notes=[NO_COLOUR])

    table.session._reader = table.reader = GreyReader()
    table.still(EMPTY, seconds=2.0)
    state = table.session.state()
    assert state["status"] == "no_board"
    assert state["status_message"] == f"no board in view: {NO_COLOUR}"
    # a board merely out of view says only that
    table.session._reader = table.reader = NoBoardReader()
    table.still(EMPTY, seconds=2.0)
    assert table.session.state()["status_message"] == "no board in view"


class NoBoardReader(ScriptedReader):
    def read(self, image):
        self.reads += 1
        return BoardReading(False, notes=["no 10x10 grid with a readable board found"])


def test_cells_the_vision_cannot_read_are_named(table):
    table.move(board_with(C3="?"))  # a chip went on C3 but the vision cannot read it
    state = table.session.state()
    assert state["unreadable"] == ["C3"] and state["moves"] == []
    assert "cannot read C3" in state["status_message"]
    table.session.correct_cell("C3", "B")  # the table says what is there
    assert table.session.state()["moves"] == [{"color": "blue", "place": "C3"}]


def test_the_camera_picture_shows_the_grid_and_the_cells_to_fix(table):
    import cv2

    from companion.session import draw_grid

    plain = table.session.latest_jpeg(annotated=False)
    annotated = table.session.latest_jpeg(annotated=True)
    assert plain != annotated  # the grid was drawn
    image = np.zeros((200, 200, 3), np.uint8)
    corners = np.float32([[0, 0], [200, 0], [200, 200], [0, 200]])  # 20-pixel cells
    marked = draw_grid(image, corners, ["B1"])
    assert marked[10, 20].tolist() == [0, 0, 255]  # the left edge of B1, in red
    b, g, r = marked[10, 80].tolist()  # a grid line elsewhere, in (antialiased) yellow
    assert b == 0 and g == r > 150
    assert marked[10, 30].tolist() == [0, 0, 0]  # inside B1, untouched
    assert marked[110, 115].tolist() == [0, 0, 0]
    assert image.sum() == 0  # the original is not drawn on
    decoded = cv2.imdecode(np.frombuffer(annotated, np.uint8), cv2.IMREAD_COLOR)
    assert decoded.shape == STILL_IMAGE.shape


def test_the_grid_is_drawn_bent_as_the_cameras_lens_bends_it():
    from companion.session import draw_grid
    from companion.vision.lens import grid_to_frame

    image = np.zeros((480, 640, 3), np.uint8)
    corners = np.float64([[120, 40], [520, 40], [520, 440], [120, 440]])  # the seen corners
    barrel = -0.15  # a cheap webcam's barrel lens bows the board's edges outwards
    bent = draw_grid(image, corners, ["E1"], lens=barrel)
    straight = draw_grid(image, corners, ["E1"])
    # the middle of the top edge lies off the straight line between the corners
    x, y = grid_to_frame(corners, barrel, (640, 480), np.float64([[4.5, 0.0]]))[0].round()
    assert abs(y - 40) >= 4
    assert bent[int(y), int(x)].tolist() == [0, 0, 255]  # E1's top edge, bent, in red
    assert straight[int(y), int(x)].tolist() == [0, 0, 0]
    assert straight[40, int(x)].tolist() == [0, 0, 255]


def test_a_restart_right_after_a_removal_still_spots_the_chip_put_back(tmp_path):
    path = tmp_path / "g.db"
    reader = ScriptedReader()
    t = Table(GameSession(store=Store(path), reader=reader), reader)
    t.still(EMPTY)
    t.move(board_with(C3="B"))
    t.move(EMPTY)  # green removes C3
    t.session.store.close()
    reader = ScriptedReader()
    again = Table(GameSession(store=Store(path), reader=reader), reader)
    again.still(EMPTY)
    again.move(board_with(C3="B"))  # the removed chip is back on its cell
    assert again.session.state()["rulings"][-1]["code"] == "board_mismatch"


def test_a_frame_that_fails_to_process_does_not_end_the_live_loop(tmp_path):

    import cv2

    from companion.capture import FolderSource

    for i in range(8):
        cv2.imwrite(str(tmp_path / f"{i:02}.png"), STILL_IMAGE)

    class BrokenOnce(ScriptedReader):
        def read(self, image):
            if self.reads == 0:
                self.reads += 1
                raise RuntimeError("vision hiccup")
            return super().read(image)

    reader = BrokenOnce()
    session = GameSession(store=Store(), source=FolderSource(tmp_path, fps=10), reader=reader)
    play_to_its_end(session)
    assert session.frame_errors == 1 and reader.reads >= 2


@pytest.mark.parametrize("number", [10**23, -1, "x"])
def test_evidence_of_a_move_number_out_of_range_is_none(table, number):
    table.move(board_with(C3="B"))
    assert table.session.evidence(1, "after")[:2] == b"\xff\xd8"
    assert table.session.evidence(number, "after") is None


def test_players_with_an_unknown_team_colour_are_named():
    with pytest.raises(SessionError) as info:
        parse_players("Ann:purple,Bo:green")
    assert "'purple'" in info.value.message and "blue, green, red" in info.value.message
    assert parse_players("Ann:Blue,Bo:green")[0] == {"name": "Ann", "team": "blue"}


def test_a_cell_correction_survives_a_restart(tmp_path):
    """The vision keeps reading C3 empty under a real blue chip; the table corrected it. After
    a restart the correction must still hold, or the misread becomes a bogus removal."""
    path = tmp_path / "g.db"
    reader = ScriptedReader()
    t = Table(GameSession(store=Store(path), reader=reader), reader)
    t.still(EMPTY)
    t.move(EMPTY)  # blue put a chip on C3 but the vision reads nothing there
    t.session.correct_cell("C3", "B")
    t.move(board_with(D4="G"))  # green plays; C3 still misread as empty
    assert t.session.state()["moves"][-1] == {"color": "green", "place": "D4"}
    rulings = len(t.session.state()["rulings"])
    t.session.store.close()  # restart

    reader = ScriptedReader()
    again = Table(GameSession(store=Store(path), reader=reader), reader)
    again.still(board_with(D4="G"))  # the same misread as before the restart
    state = again.session.state()
    assert len(state["rulings"]) == rulings and state["status"] == "still"
    again.move(board_with(D4="G", E5="B"))
    assert again.session.state()["moves"][-1] == {"color": "blue", "place": "E5"}
    assert again.session.state()["rulings"][-1]["code"] == "ok"


def test_a_correction_a_later_move_overturned_is_not_restored(tmp_path):
    path = tmp_path / "g.db"
    reader = ScriptedReader()
    t = Table(GameSession(store=Store(path), reader=reader), reader)
    t.still(EMPTY)
    t.move(EMPTY)  # blue's C3 unseen
    t.session.correct_cell("C3", "B")
    t.move(board_with(C3="B", D4="G"))  # now the vision reads C3 right
    t.session.store.close()
    again = GameSession(store=Store(path), reader=ScriptedReader())
    assert again.tracker.current_read((2, 2)) == "B"
    from companion.session import _standing_corrections

    stored = again.store.load_game(again.game_id)
    assert _standing_corrections(stored.actions, again.game) == {(2, 2): (".", "B")}
    again.undo()  # D4 undone: C3 is still B in the game, so the correction stands
    again.undo()  # C3 undone: the game no longer shows B there
    stored = again.store.load_game(again.game_id)
    assert _standing_corrections(stored.actions, again.game) == {}


def test_calibrating_on_a_frame_without_a_board_is_refused_and_keeps_the_reader(table, tmp_path):
    table.session.calibration_path = tmp_path / "table.json"
    with pytest.raises(SessionError) as refused:
        table.session.calibrate(orientation=90)
    assert refused.value.code == "calibration_failed" and "no board" in refused.value.message
    assert table.session.reader is table.reader and not (tmp_path / "table.json").exists()
    with pytest.raises(SessionError, match="no camera frame yet"):
        GameSession(store=Store()).calibrate()


def make_table() -> Table:
    reader = ScriptedReader()
    return Table(GameSession(store=Store(), reader=reader), reader)


# Moves the camera could not see when they were made: after an outage, or on a cell the vision
# could not read for a whole still spell. Several placements in turn order are then ruled as the
# moves played meanwhile; anything less certain stays a board mismatch.


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


# Cells the vision cannot read (a glare spot) through whole still spells: a move there may go
# unseen. The session must never rule on such a board as if it had seen it all.


def glare(**cells: str) -> dict[str, str]:
    """A glare spot over A6..C8 (9 cells read '?'), plus the given cells."""
    spot = {f"{col}{row}": "?" for col in "ABC" for row in (6, 7, 8)}
    return {**spot, **cells}


def test_a_chip_glimpsed_before_the_glare_hid_it_is_ruled_before_the_next_move():
    """Blue's B7 is read twice as the hand leaves, then only '?'. Green's D4 next is seen:
    blue B7, then green D4, in that order, and B7 stays blue afterwards (no bogus removal)."""
    table = make_table()
    table.still(board_with(**glare()))
    table.hand()
    table.still(board_with(**glare(B7="B")), seconds=0.3)  # two reads (the first frame moved)
    table.still(board_with(**glare()), seconds=1.0)  # then the glare hides it again
    state = table.session.state()
    assert state["moves"] == []  # a glimpse alone is not ruled, but it is shown
    assert state["status_message"].endswith("(blue seen on B7 for a moment)")
    table.move(board_with(**glare(D4="G")))
    state = table.session.state()
    assert state["moves"] == [{"color": "blue", "place": "B7"}, {"color": "green", "place": "D4"}]
    assert codes(table.session) == ["ok", "ok"]
    table.move(board_with(**glare(D4="G", E5="B")))
    assert table.session.state()["moves"][-1] == {"color": "blue", "place": "E5"}
    assert codes(table.session) == ["ok", "ok", "ok"]


def test_a_board_the_glare_leaves_unexplained_is_a_question_not_a_ruling():
    """Blue played under the glare (never seen), green's D4 is seen: the table is asked about
    the hidden cells instead of being told the board is wrong; correcting the cell rules both
    moves in order."""
    table = make_table()
    table.still(board_with(**glare()))
    events = table.session.subscribe()
    table.move(board_with(**glare()))  # blue's A6 under the glare
    table.move(board_with(**glare(D4="G")))
    state = table.session.state()
    assert state["rulings"] == [] and state["moves"] == []
    assert state["status"] == "waiting_for_board"
    assert state["status_message"].startswith("Cannot see A6, B6, C6, A7")
    assert "blue's move may be there" in state["status_message"]
    assert "a green chip appeared on D4" in state["status_message"]
    assert state["mismatch"][:3] == ["A6", "B6", "C6"]
    asked = []
    while not events.empty():
        event = events.get_nowait()
        if event["type"] == "unseen":
            asked.append(event)
    assert len(asked) == 1 and asked[0]["cells"][0] == "A6"
    table.session.correct_cell("A6", "B")
    state = table.session.state()
    assert state["moves"] == [{"color": "blue", "place": "A6"}, {"color": "green", "place": "D4"}]
    assert codes(table.session) == ["ok", "ok"] and state["mismatch"] == []


def test_the_question_says_why_each_hidden_cell_cannot_be_read():
    """The vision says why it reads a cell '?' (glare, a hand): the question tells the table,
    so that it knows to move the lamp rather than look for a hand."""
    table = make_table()
    table.reader.reasons = {name: ("glare",) for name in glare()}
    table.reader.reasons["C8"] = ("boundaries_gone", "next_to_cover")
    table.still(board_with(**glare()))
    events = table.session.subscribe()
    table.move(board_with(**glare()))  # blue's A6 under the glare
    table.move(board_with(**glare(D4="G")))
    state = table.session.state()
    assert state["status_message"].startswith("Cannot see A6 (glare), B6 (glare), C6 (glare)")
    asked = []
    while not events.empty():
        event = events.get_nowait()
        if event["type"] == "unseen":
            asked.append(event)
    assert len(asked) == 1
    assert asked[0]["reasons"]["A6"] == "glare" and asked[0]["reasons"]["C8"] == "cover"


def test_a_missed_placement_followed_by_a_removal_is_ruled_when_the_chip_shows():
    """Green's C7 lies under the glare; blue then takes green's D4 off. When the glare moves
    away, C7 shows: green C7, then blue's removal of D4."""
    table = make_table()
    table.still(board_with(**glare()))
    for line in ({"E5": "B"}, {"E5": "B", "D4": "G"}, {"E5": "B", "D4": "G", "F6": "B"}):
        table.move(board_with(**glare(**line)))
    table.move(board_with(**glare(E5="B", D4="G", F6="B")))  # green's C7, unseen
    table.move(board_with(**glare(E5="B", F6="B")))  # blue removes D4: asked, not ruled
    assert len(table.session.state()["moves"]) == 3
    assert table.session.state()["status"] == "waiting_for_board"
    table.move(board_with(E5="B", F6="B", C7="G"))  # the lamp moved: all of it is readable
    state = table.session.state()
    assert state["moves"][3:] == [
        {"color": "green", "place": "C7"},
        {"color": "blue", "remove": "D4"},
    ]
    assert codes(table.session) == ["ok"] * 5 and state["status"] == "still"


def test_a_hidden_cell_seen_unchanged_after_a_later_change_was_not_played_first():
    """Green's move goes unseen under the glare, then blue takes green's I4: asked. Later B7
    (blue, on the glare's edge) is seen empty: 'green removed B7, then blue removed I4' would
    fit the turns, but B7 was read blue after I4 had gone, so that order is impossible: the
    table is asked again and nothing is ruled."""
    table = make_table()
    unseen_move_then_a_removal_beside_it(table)
    assert codes(table.session) == ["ok"] * 3
    assert table.session.state()["status"] == "waiting_for_board"
    table.move(board_with(**glare(E5="B")))  # a hand passes, B7 unreadable all along
    table.move(board_with(**glare(E5="B", B7=".")))  # green took B7 off
    assert codes(table.session) == ["ok"] * 3
    assert "green's move may be there" in table.session.state()["status_message"]


def test_an_own_chip_gone_while_cells_are_unreadable_is_a_question():
    """Green to move and green's I4 gone: with cells unreadable, that is green's unseen move
    and then blue's removal, so the table is asked; with the whole board readable it is the
    referee's 'remove_own' ruling as ever."""
    for spot in (glare, dict):
        table = make_table()
        table.still(board_with(**spot()))
        for line in ({"E5": "B"}, {"E5": "B", "I4": "G"}, {"E5": "B", "I4": "G", "D3": "B"}):
            table.move(board_with(**spot(**line)))
        table.move(board_with(**spot(E5="B", D3="B")))
        state = table.session.state()
        if spot is glare:
            assert codes(table.session) == ["ok"] * 3
            assert "green's move may be there" in state["status_message"]
        else:
            assert codes(table.session) == ["ok"] * 3 + ["remove_own"]


def play_to_its_end(session, seconds: float = 10) -> None:
    """Run the session's source (a short recording) until it has ended, then stop."""
    session.start()
    deadline = time.monotonic() + seconds
    while session.state()["status"] != "source_ended" and time.monotonic() < deadline:
        time.sleep(0.02)
    session.stop()


def two_unseen_rounds(table) -> None:
    """Blue E5, green D4, then two rounds in which blue's A6 and C6 go unseen under the glare
    while green's F6 and G7 are seen: the session asks twice."""
    table.still(board_with(**glare()))
    table.move(board_with(**glare(E5="B")))
    table.move(board_with(**glare(E5="B", D4="G")))
    table.move(board_with(**glare(E5="B", D4="G")))  # blue's A6, unseen
    table.move(board_with(**glare(E5="B", D4="G", F6="G")))  # asked
    table.move(board_with(**glare(E5="B", D4="G", F6="G")))  # blue's C6, unseen
    table.move(board_with(**glare(E5="B", D4="G", F6="G", G7="G")))  # asked again


def answer_the_two_unseen_rounds(table) -> None:
    """After :func:`two_unseen_rounds`: correcting A6 rules blue A6 (and asks again);
    correcting C6 then rules green F6, blue C6 and green G7 in the order the camera saw."""
    table.session.correct_cell("A6", "B")
    assert codes(table.session) == ["ok"] * 3
    assert table.session.state()["status"] == "waiting_for_board"
    table.session.correct_cell("C6", "B")
    state = table.session.state()
    assert [m.get("place") for m in state["moves"]] == ["E5", "D4", "A6", "F6", "C6", "G7"]
    assert codes(table.session) == ["ok"] * 6 and state["status"] == "still"


def unseen_move_then_a_removal_beside_it(table) -> None:
    """Blue B7, green I4, blue E5, green's A6 unseen under the glare, then blue takes I4 off
    while B7, on the glare's edge, still reads blue for a moment and then empty."""
    table.still(board_with(**glare()))
    for line in ({"B7": "B"}, {"B7": "B", "I4": "G"}, {"B7": "B", "I4": "G", "E5": "B"}):
        table.move(board_with(**glare(**line)))
    table.move(board_with(**glare(B7="B", I4="G", E5="B")))  # green's A6, unseen
    table.hand()  # blue takes I4 off; B7 is still read blue for a moment
    table.still(board_with(**glare(B7="B", E5="B")), seconds=0.3)
    table.still(board_with(**glare(E5="B")), seconds=1.0)


def test_answers_given_late_still_rule_every_move_in_order():
    """Nobody answers for two rounds: blue's A6 and C6 lie under the glare, green's F6 and G7
    are seen. Correcting A6 rules blue A6 (and asks again); correcting C6 then rules green F6,
    blue C6 and green G7, in the order the camera saw F6 and G7 appear."""
    table = make_table()
    two_unseen_rounds(table)
    assert codes(table.session) == ["ok", "ok"]
    answer_the_two_unseen_rounds(table)
