"""SQLite storage for live games: stdlib ``sqlite3``, WAL journal, migrations, one transaction
per write.

The store knows no rules: moves, rulings and corrections are kept as the JSON the referee and the
session produce, in the order they happened, so :class:`StoredGame` holds everything needed to
rebuild a game exactly (see ``companion.store.records.rebuild_game``).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from companion.store.schema import MIGRATIONS, SCHEMA_VERSION
from companion.store.waits import Wait

EVIDENCE_KINDS = ("before", "after")
MAX_MOVE_NUMBER = 2**63 - 1  # SQLite's largest integer; a larger number names no move


class StoreError(Exception):
    """The database cannot be opened or used. ``code`` is stable, ``message`` for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class StoredPlayer:
    name: str
    team: str

    def to_json(self) -> dict:
        return {"name": self.name, "team": self.team}


@dataclass(frozen=True, slots=True)
class StoredAction:
    """One entry of a game's history in order: a move sent to the referee or a correction."""

    seq: int
    kind: str  # "move" or a correction kind: "undo", "sequence", "cell", "card", ...
    payload: dict
    legal: bool | None = None  # for moves: whether the referee applied it


@dataclass(slots=True)
class StoredGame:
    id: int
    variant: str
    options: dict
    players: list[StoredPlayer]
    status: str
    winner: str | None
    created_at: float
    actions: list[StoredAction] = field(default_factory=list)
    rulings: list[dict] = field(default_factory=list)
    wait: Wait | None = None  # what the game was waiting for the table to do, if anything

    def setup(self) -> dict:
        return {
            "variant": self.variant,
            "options": dict(self.options),
            "players": [p.to_json() for p in self.players],
        }


class Store:
    """One SQLite file (or ``":memory:"``). Safe to share between threads."""

    def __init__(self, path: str | Path = ":memory:") -> None:
        self.path = str(path)
        if self.path != ":memory:":
            parent = Path(self.path).parent
            if not parent.is_dir():
                raise StoreError("not_found", f"folder {parent} for the database does not exist")
        try:
            self._db = sqlite3.connect(
                self.path, check_same_thread=False, isolation_level=None, timeout=10.0
            )
            self._db.execute("PRAGMA foreign_keys = ON")
            if self.path != ":memory:":
                self._db.execute("PRAGMA journal_mode = WAL")
                self._db.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.DatabaseError as exc:
            raise StoreError("unreadable", f"{self.path} is not a usable database: {exc}") from exc
        self._lock = threading.RLock()
        self._migrate()

    # -- plumbing ------------------------------------------------------------------------------

    @property
    def schema_version(self) -> int:
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def _migrate(self) -> None:
        try:
            version = self.schema_version
        except sqlite3.DatabaseError as exc:
            raise StoreError("unreadable", f"{self.path} is not a usable database: {exc}") from exc
        if version > SCHEMA_VERSION:
            raise StoreError(
                "too_new",
                f"{self.path} has schema version {version}; this companion knows up to "
                f"{SCHEMA_VERSION}. Upgrade the companion or use another --db file.",
            )
        for number in range(version, SCHEMA_VERSION):
            with self.transaction() as db:
                db.executescript_in_tx(MIGRATIONS[number])
                db.execute(f"PRAGMA user_version = {number + 1}")

    @contextmanager
    def transaction(self) -> Iterator[_Tx]:
        """Everything inside commits together or not at all."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield _Tx(self._db)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            else:
                self._db.execute("COMMIT")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- games ---------------------------------------------------------------------------------

    def create_game(self, setup: dict) -> int:
        """Start a new game from ``{"variant", "options", "players": [{"name", "team"}]}``.

        Any game still active is marked abandoned, so at most one game is unfinished.
        """
        players = setup.get("players") or []
        if not players:
            raise StoreError("bad_setup", "a game needs players")
        now = time.time()
        with self.transaction() as db:
            db.execute(
                "UPDATE games SET status = 'abandoned', updated_at = ? WHERE status = 'active'",
                (now,),
            )
            cur = db.execute(
                "INSERT INTO games (created_at, updated_at, variant, options) VALUES (?, ?, ?, ?)",
                (now, now, setup.get("variant", "classic"), _dump(setup.get("options") or {})),
            )
            game_id = int(cur.lastrowid)
            for seat, player in enumerate(players):
                db.execute(
                    "INSERT INTO players (game_id, seat, name, team) VALUES (?, ?, ?, ?)",
                    (game_id, seat, str(player["name"]), str(player["team"])),
                )
        return game_id

    def active_game_id(self) -> int | None:
        """The unfinished game to resume, if any."""
        with self._lock:
            row = self._db.execute(
                "SELECT id FROM games WHERE status = 'active' ORDER BY updated_at DESC, id DESC"
            ).fetchone()
        return int(row[0]) if row else None

    def game_ids(self) -> list[int]:
        with self._lock:
            return [int(r[0]) for r in self._db.execute("SELECT id FROM games ORDER BY id")]

    def load_game(self, game_id: int) -> StoredGame:
        with self._lock:
            row = self._db.execute(
                "SELECT id, variant, options, status, winner, created_at FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
            if row is None:
                raise StoreError("no_game", f"there is no game {game_id} in {self.path}")
            players = [
                StoredPlayer(name, team)
                for name, team in self._db.execute(
                    "SELECT name, team FROM players WHERE game_id = ? ORDER BY seat", (game_id,)
                )
            ]
            actions = [
                StoredAction(seq, "move", json.loads(move), bool(legal))
                for seq, move, legal in self._db.execute(
                    "SELECT seq, move, legal FROM moves WHERE game_id = ?", (game_id,)
                )
            ]
            actions += [
                StoredAction(seq, kind, json.loads(payload))
                for seq, kind, payload in self._db.execute(
                    "SELECT seq, kind, payload FROM corrections WHERE game_id = ?", (game_id,)
                )
            ]
            rulings = [
                {**json.loads(text), "id": int(ruling_id)}
                for ruling_id, text in self._db.execute(
                    "SELECT id, ruling FROM rulings WHERE game_id = ? AND undone = 0 ORDER BY id",
                    (game_id,),
                )
            ]
            wait_row = self._db.execute(
                "SELECT payload FROM waits WHERE game_id = ?", (game_id,)
            ).fetchone()
        actions.sort(key=lambda a: a.seq)
        return StoredGame(
            id=int(row[0]),
            variant=row[1],
            options=json.loads(row[2]),
            players=players,
            status=row[3],
            winner=row[4],
            created_at=float(row[5]),
            actions=actions,
            rulings=rulings,
            wait=_load_wait(wait_row[0]) if wait_row else None,
        )

    def finish_game(self, game_id: int, winner: str | None, status: str = "finished") -> None:
        with self.transaction() as db:
            db.execute(
                "UPDATE games SET status = ?, winner = ?, updated_at = ? WHERE id = ?",
                (status, winner, time.time(), game_id),
            )

    def reopen_game(self, game_id: int) -> None:
        """Mark a game active again (an undo of the winning move)."""
        self.finish_game(game_id, None, status="active")

    # -- history -------------------------------------------------------------------------------

    def add_move(
        self,
        game_id: int,
        move: dict,
        ruling: dict,
        evidence: dict[str, bytes] | None = None,
    ) -> int:
        """Record a move sent to the referee, its ruling and its evidence, atomically.

        ``ruling`` is the referee's ruling JSON; ``evidence`` maps ``before``/``after`` to JPEG bytes
        (an accepted move's are also found by its move number). Returns the ruling's id (see
        :meth:`ruling_evidence`).
        """
        legal = bool(ruling.get("legal"))
        with self.transaction() as db:
            seq = db.next_seq(game_id)
            now = time.time()
            cur = db.execute(
                "INSERT INTO moves (game_id, seq, move, legal, created_at) VALUES (?, ?, ?, ?, ?)",
                (game_id, seq, _dump(move), int(legal), now),
            )
            ruling_id = db.insert_ruling(game_id, int(cur.lastrowid), ruling, now)
            if evidence and legal:
                db.put_evidence(game_id, _move_number(ruling), evidence, now)
            elif evidence:
                db.put_ruling_evidence(ruling_id, evidence, now)
        return ruling_id

    def add_ruling(
        self, game_id: int, ruling: dict, evidence: dict[str, bytes] | None = None
    ) -> int:
        """A ruling that is not about a referee move (e.g. the board does not match the game),
        with its ``before``/``after`` pictures if any. Returns the ruling's id."""
        with self.transaction() as db:
            now = time.time()
            ruling_id = db.insert_ruling(game_id, None, ruling, now)
            if evidence:
                db.put_ruling_evidence(ruling_id, evidence, now)
            db.touch(game_id)
        return ruling_id

    def add_correction(self, game_id: int, kind: str, payload: dict | None = None) -> int:
        """Record a correction (``undo``, ``sequence``, ``cell``, ``card`` ...) in game order."""
        with self.transaction() as db:
            seq = db.next_seq(game_id)
            db.execute(
                "INSERT INTO corrections (game_id, seq, kind, payload, created_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (game_id, seq, kind, _dump(payload or {}), time.time()),
            )
            number = (payload or {}).get("move_number")
            if kind == "undo" and number is not None:
                db.undo_rulings(game_id, int(number))
        return seq

    def set_wait(self, game_id: int, wait: Wait | None) -> None:
        """Keep what the game now waits for (replacing any earlier wait), or clear it."""
        with self.transaction() as db:
            if wait is None:
                db.execute("DELETE FROM waits WHERE game_id = ?", (game_id,))
                return
            db.execute(
                "INSERT OR REPLACE INTO waits (game_id, kind, payload, created_at) "
                "VALUES (?, ?, ?, ?)",
                (game_id, wait.kind, _dump(wait.to_json()), time.time()),
            )
            db.touch(game_id)

    # -- evidence ------------------------------------------------------------------------------

    def save_evidence(self, game_id: int, move_number: int, which: str, jpeg: bytes) -> None:
        with self.transaction() as db:
            db.put_evidence(game_id, move_number, {which: jpeg}, time.time())

    def evidence(self, game_id: int, move_number: int, which: str) -> bytes | None:
        """The JPEG kept for a move, or None (also for a number no move can have: below 1 or
        beyond SQLite's integers, which would otherwise raise OverflowError)."""
        if which not in EVIDENCE_KINDS:
            raise StoreError("bad_request", f"evidence is 'before' or 'after', not {which!r}")
        if not 1 <= move_number <= MAX_MOVE_NUMBER:
            return None
        with self._lock:
            row = self._db.execute(
                "SELECT jpeg FROM evidence WHERE game_id = ? AND move_number = ? AND which = ?",
                (game_id, move_number, which),
            ).fetchone()
        return bytes(row[0]) if row else None

    def ruling_evidence(self, game_id: int, ruling_id: int, which: str) -> bytes | None:
        """The JPEG kept for a ruling of this game (refused or accepted), or None.

        A refused ruling's pictures are kept under its id; an accepted move's under its move
        number, found here unless the move was undone (its number then belongs to a later move).
        """
        if which not in EVIDENCE_KINDS:
            raise StoreError("bad_request", f"evidence is 'before' or 'after', not {which!r}")
        if not 1 <= ruling_id <= MAX_MOVE_NUMBER:
            return None
        with self._lock:
            row = self._db.execute(
                "SELECT e.jpeg FROM ruling_evidence e JOIN rulings r ON r.id = e.ruling_id "
                "WHERE r.game_id = ? AND r.id = ? AND e.which = ?",
                (game_id, ruling_id, which),
            ).fetchone()
            if row is None:
                row = self._db.execute(
                    "SELECT e.jpeg FROM rulings r JOIN evidence e ON e.game_id = r.game_id "
                    "AND e.move_number = r.move_number WHERE r.game_id = ? AND r.id = ? "
                    "AND r.legal = 1 AND r.undone = 0 AND e.which = ?",
                    (game_id, ruling_id, which),
                ).fetchone()
        return bytes(row[0]) if row else None

    def size_bytes(self) -> int:
        """Pages in use (what a file copy would weigh after a checkpoint)."""
        with self._lock:
            pages = self._db.execute("PRAGMA page_count").fetchone()[0]
            size = self._db.execute("PRAGMA page_size").fetchone()[0]
        return int(pages) * int(size)


class _Tx:
    """The connection inside one transaction, with the few statements the store repeats."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def execute(self, sql: str, params: tuple = ()) -> sqlite3.Cursor:
        return self._db.execute(sql, params)

    def executescript_in_tx(self, script: str) -> None:
        # executescript() would COMMIT first; run statement by statement instead.
        for statement in script.split(";"):
            if statement.strip():
                self._db.execute(statement)

    def next_seq(self, game_id: int) -> int:
        row = self._db.execute(
            "SELECT next_seq, status FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise StoreError("no_game", f"there is no game {game_id}")
        self._db.execute(
            "UPDATE games SET next_seq = next_seq + 1, updated_at = ? WHERE id = ?",
            (time.time(), game_id),
        )
        return int(row[0])

    def undo_rulings(self, game_id: int, move_number: int) -> None:
        """Flag the undone move's ruling and every later one; drop its evidence (the move
        number will be reused by the next move)."""
        row = self._db.execute(
            "SELECT MIN(id) FROM rulings WHERE game_id = ? AND move_number = ? AND legal = 1 "
            "AND undone = 0",
            (game_id, move_number),
        ).fetchone()
        if row and row[0] is not None:
            self._db.execute(
                "UPDATE rulings SET undone = 1 WHERE game_id = ? AND id >= ?", (game_id, row[0])
            )
        self._db.execute(
            "DELETE FROM evidence WHERE game_id = ? AND move_number = ?", (game_id, move_number)
        )

    def touch(self, game_id: int) -> None:
        self._db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (time.time(), game_id))

    def insert_ruling(self, game_id: int, move_id: int | None, ruling: dict, now: float) -> int:
        cur = self._db.execute(
            "INSERT INTO rulings (game_id, move_id, move_number, legal, code, ruling, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                move_id,
                ruling.get("move_number", ruling.get("move")),
                int(bool(ruling.get("legal"))),
                str(ruling.get("code", "")),
                _dump({k: v for k, v in ruling.items() if k != "id"}),
                now,
            ),
        )
        return int(cur.lastrowid)

    def put_evidence(self, game_id: int, move_number: int, images: dict, now: float) -> None:
        for which, jpeg in _evidence_items(images):
            self._db.execute(
                "INSERT OR REPLACE INTO evidence (game_id, move_number, which, jpeg, created_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (game_id, move_number, which, sqlite3.Binary(jpeg), now),
            )

    def put_ruling_evidence(self, ruling_id: int, images: dict, now: float) -> None:
        for which, jpeg in _evidence_items(images):
            self._db.execute(
                "INSERT OR REPLACE INTO ruling_evidence (ruling_id, which, jpeg, created_at) "
                "VALUES (?, ?, ?, ?)",
                (ruling_id, which, sqlite3.Binary(jpeg), now),
            )


def _move_number(ruling: dict) -> int:
    number = ruling.get("move_number", ruling.get("move"))
    if number is None:
        raise StoreError("bad_request", "a ruling with evidence needs its move number")
    return int(number)


def _load_wait(payload: str) -> Wait | None:
    """A stored wait, or None if it cannot be read (the game then resumes without it)."""
    try:
        return Wait.from_json(json.loads(payload))
    except ValueError:  # json.JSONDecodeError is a ValueError
        return None


def _dump(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _evidence_items(images: dict) -> list[tuple[str, bytes]]:
    """The ``before``/``after`` JPEGs to store (None skipped); any other kind is a bad request."""
    items = []
    for which, jpeg in images.items():
        if which not in EVIDENCE_KINDS:
            raise StoreError("bad_request", f"evidence is 'before' or 'after', not {which!r}")
        if jpeg is not None:
            items.append((which, jpeg))
    return items
