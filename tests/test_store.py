"""The SQLite store: migrations, WAL, ordered history, atomic writes, evidence, reopening."""

from __future__ import annotations

import sqlite3

import pytest

from companion.store import SCHEMA_VERSION, Store, StoreError, Wait
from companion.store.schema import MIGRATIONS

SETUP = {
    "variant": "classic",
    "options": {"overlap": "crossing_only"},
    "players": [{"name": "Ann", "team": "blue"}, {"name": "Bo", "team": "green"}],
}


def _ruling(number: int, legal: bool = True, code: str = "ok") -> dict:
    return {"move_number": number, "legal": legal, "code": code, "message": code}


def test_new_file_gets_every_migration_and_wal(tmp_path):
    path = tmp_path / "games.db"
    store = Store(path)
    assert store.schema_version == SCHEMA_VERSION == len(MIGRATIONS)
    mode = sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_old_schema_is_migrated_and_keeps_its_data(tmp_path):
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.executescript(MIGRATIONS[0])
    db.execute("PRAGMA user_version = 1")
    db.execute(
        "INSERT INTO games (id, created_at, updated_at, variant) VALUES (7, 1.0, 1.0, 'set5')"
    )
    db.execute("INSERT INTO players VALUES (7, 0, 'Ann', 'blue')")
    db.commit()
    db.close()
    store = Store(path)
    assert store.schema_version == SCHEMA_VERSION
    assert store.load_game(7).variant == "set5"
    store.save_evidence(7, 1, "before", b"\xff\xd8jpeg")  # the table migration 2 added
    assert store.evidence(7, 1, "before") == b"\xff\xd8jpeg"


def test_a_newer_schema_is_refused_with_a_clear_error(tmp_path):
    path = tmp_path / "future.db"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(StoreError) as info:
        Store(path)
    assert info.value.code == "too_new"


def test_a_file_that_is_not_a_database_is_refused(tmp_path):
    path = tmp_path / "notes.db"
    path.write_text("shopping list: milk, eggs, chips " * 100)
    with pytest.raises(StoreError) as info:
        Store(path)
    assert info.value.code == "unreadable"
    with pytest.raises(StoreError):
        Store(tmp_path / "missing-folder" / "x.db")


def test_history_comes_back_in_order_after_reopening(tmp_path):
    path = tmp_path / "games.db"
    store = Store(path)
    game = store.create_game(SETUP)
    store.add_move(game, {"color": "blue", "place": "B2"}, _ruling(1))
    store.add_move(game, {"color": "green", "remove": "B2"}, _ruling(2))
    store.add_correction(game, "undo", {"move_number": 2})
    store.add_move(game, {"color": "blue", "place": "C3"}, _ruling(2, False, "out_of_turn"))
    store.add_ruling(game, {"code": "board_mismatch", "legal": False, "cells": ["D4"]})
    store.close()  # as if the process died here

    again = Store(path)
    assert again.active_game_id() == game
    stored = again.load_game(game)
    assert stored.setup() == SETUP
    assert [(a.seq, a.kind) for a in stored.actions] == [
        (1, "move"),
        (2, "move"),
        (3, "undo"),
        (4, "move"),
    ]
    assert stored.actions[3].legal is False
    assert stored.actions[1].payload == {"color": "green", "remove": "B2"}
    # the undo took back move 2 and its ruling; later rulings stay
    assert [r["code"] for r in stored.rulings] == ["ok", "out_of_turn", "board_mismatch"]


def test_a_failed_write_leaves_nothing_behind():
    store = Store()
    game = store.create_game(SETUP)
    with pytest.raises(StoreError):  # bad evidence kind fails after the move row was inserted
        store.add_move(game, {"color": "blue", "place": "B2"}, _ruling(1), {"sideways": b"x"})
    stored = store.load_game(game)
    assert stored.actions == [] and stored.rulings == []
    store.add_move(game, {"color": "blue", "place": "B2"}, _ruling(1))
    assert [a.seq for a in store.load_game(game).actions] == [1]  # seq was rolled back too


def test_evidence_is_kept_per_move_and_dropped_on_undo():
    store = Store()
    game = store.create_game(SETUP)
    store.add_move(
        game, {"color": "blue", "place": "B2"}, _ruling(1), {"before": b"b1", "after": b"a1"}
    )
    assert store.evidence(game, 1, "before") == b"b1"
    assert store.evidence(game, 1, "after") == b"a1"
    assert store.evidence(game, 2, "after") is None
    store.add_correction(game, "undo", {"move_number": 1})
    assert store.evidence(game, 1, "after") is None
    with pytest.raises(StoreError):
        store.evidence(game, 1, "during")


def test_refused_rulings_keep_their_pictures_by_ruling_id():
    store = Store()
    game, other = store.create_game(SETUP), store.create_game(SETUP)
    accepted = store.add_move(
        game, {"color": "blue", "place": "B2"}, _ruling(1), {"before": b"b1", "after": b"a1"}
    )
    illegal = store.add_move(
        game,
        {"color": "green", "place": "B2"},
        _ruling(2, False, "cell_taken"),
        {"before": b"b2", "after": b"x2"},
    )
    mismatch = store.add_ruling(
        game, {"move": None, "legal": False, "code": "board_mismatch"}, {"after": b"m"}
    )
    assert store.evidence(game, 2, "after") is None  # a refused move owns no move number
    assert store.ruling_evidence(game, illegal, "after") == b"x2"
    assert store.ruling_evidence(game, mismatch, "after") == b"m"
    assert store.ruling_evidence(game, mismatch, "before") is None
    assert store.ruling_evidence(game, accepted, "before") == b"b1"  # found by its move number
    assert store.ruling_evidence(other, illegal, "after") is None  # another game's ruling
    assert [r["id"] for r in store.load_game(game).rulings] == [accepted, illegal, mismatch]
    with pytest.raises(StoreError):
        store.ruling_evidence(game, illegal, "during")


def test_only_one_game_is_unfinished():
    store = Store()
    first = store.create_game(SETUP)
    second = store.create_game(SETUP)
    assert store.active_game_id() == second
    assert store.load_game(first).status == "abandoned"
    store.finish_game(second, "blue")
    assert store.active_game_id() is None
    assert store.load_game(second).winner == "blue"
    store.reopen_game(second)
    assert store.active_game_id() == second


def test_unknown_game_and_empty_setup_are_clear_errors():
    store = Store()
    with pytest.raises(StoreError) as info:
        store.load_game(42)
    assert info.value.code == "no_game"
    with pytest.raises(StoreError):
        store.create_game({"variant": "classic", "players": []})


def test_an_unreadable_record_is_refused_and_nothing_is_stored():
    from companion.referee import RecordError
    from companion.store.records import import_record

    store = Store()
    bad = {
        "players": [{"name": "Ann", "team": "blue"}, {"name": "Bo", "team": "green"}],
        "moves": [{"player": "Ann", "card": "ZZ", "place": "B1"}],
    }
    with pytest.raises(RecordError) as info:
        import_record(store, bad)
    assert "ZZ" in info.value.message or "move 1" in info.value.message
    assert store.game_ids() == []


@pytest.mark.parametrize("number", [10**23, 2**63, -1, -(10**23), 0])
def test_evidence_of_a_number_no_move_can_have_is_none(number):
    """A huge number (a web URL) used to raise OverflowError from sqlite3; negatives too."""
    store = Store()
    game = store.create_game(SETUP)
    store.add_move(game, {"color": "blue", "place": "B2"}, _ruling(1), {"before": b"b1"})
    assert store.evidence(game, number, "before") is None
    assert store.evidence(game, 1, "before") == b"b1"


def _wait(**fields) -> Wait:
    board = ("*........*",) + ("..........",) * 8 + ("*........*",)
    return Wait(
        **{"kind": "question", "cells": ("A6", "B6"), "message": "Cannot see A6, B6", "moves": 3,
           "board": board, "changed": ("D4",),
           "reads": {"D4": (("G", -2.5, -0.1),)}, **fields}
    )  # fmt: skip


def test_what_a_game_waits_for_is_kept_replaced_and_cleared(tmp_path):
    path = tmp_path / "games.db"
    store = Store(path)
    game = store.create_game(SETUP)
    assert store.load_game(game).wait is None
    store.set_wait(game, _wait())
    store.close()
    store = Store(path)  # a restart
    assert store.load_game(game).wait == _wait()
    illegal = _wait(kind="illegal", cells=("C3",), message="Illegal", reads={})
    store.set_wait(game, illegal)  # one wait per game: the newer one replaces it
    assert store.load_game(game).wait == illegal
    store.set_wait(game, None)
    assert store.load_game(game).wait is None


def test_a_database_of_schema_4_gains_waits_and_keeps_its_games(tmp_path):
    path = tmp_path / "v4.db"
    db = sqlite3.connect(path)
    for script in MIGRATIONS[:4]:
        db.executescript(script)
    db.execute("PRAGMA user_version = 4")
    db.execute(
        "INSERT INTO games (id, created_at, updated_at, variant) VALUES (3, 1.0, 1.0, 'classic')"
    )
    db.execute("INSERT INTO players VALUES (3, 0, 'Ann', 'blue')")
    db.commit()
    db.close()
    store = Store(path)
    assert store.schema_version == SCHEMA_VERSION == 5
    assert store.load_game(3).wait is None and store.active_game_id() == 3
    store.set_wait(3, _wait())
    assert store.load_game(3).wait == _wait()


@pytest.mark.parametrize(
    "payload",
    ["not json", '{"kind": "question"}', "[1, 2]",
     '{"kind": "nap", "cells": [], "message": "", "moves": 0, "board": []}',
     '{"kind": "illegal", "cells": ["Z9"], "message": "", "moves": 0, "board": []}'],
)  # fmt: skip
def test_a_stored_wait_that_cannot_be_read_is_left_out(tmp_path, payload):
    """A damaged or foreign wait must not stop the game from resuming: it is dropped."""
    path = tmp_path / "games.db"
    store = Store(path)
    game = store.create_game(SETUP)
    store.set_wait(game, _wait())
    with store.transaction() as db:
        db.execute("UPDATE waits SET payload = ? WHERE game_id = ?", (payload, game))
    assert store.load_game(game).wait is None
    assert store.load_game(game).players[0].name == "Ann"
