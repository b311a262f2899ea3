"""The SQLite schema as an ordered list of migrations.

The database's ``PRAGMA user_version`` is the number of migrations already applied; opening a
store applies the rest, each in its own transaction. Never edit a migration that has shipped:
append a new one.

Every game-changing action gets a per-game sequence number ``seq`` (from ``games.next_seq``), shared
by ``moves`` and ``corrections``, so a game is rebuilt by replaying both tables in ``seq`` order.
"""

from __future__ import annotations

MIGRATIONS: list[str] = [
    # 1: games, seating, every move sent to the referee, every ruling, every correction.
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        variant TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished', 'abandoned')),
        winner TEXT,
        next_seq INTEGER NOT NULL DEFAULT 1
    );
    CREATE TABLE players (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        team TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE moves (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        move TEXT NOT NULL,
        legal INTEGER NOT NULL,
        created_at REAL NOT NULL,
        UNIQUE (game_id, seq)
    );
    CREATE TABLE rulings (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        move_id INTEGER REFERENCES moves(id) ON DELETE CASCADE,
        move_number INTEGER,
        legal INTEGER NOT NULL,
        code TEXT NOT NULL,
        ruling TEXT NOT NULL,
        created_at REAL NOT NULL
    );
    CREATE TABLE corrections (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL DEFAULT '{}',
        created_at REAL NOT NULL,
        UNIQUE (game_id, seq)
    );
    """,
    # 2: evidence images (straightened board before/after each move) and lookup indexes.
    """
    CREATE TABLE evidence (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        move_number INTEGER NOT NULL,
        which TEXT NOT NULL CHECK (which IN ('before', 'after')),
        jpeg BLOB NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, move_number, which)
    );
    CREATE INDEX rulings_by_game ON rulings (game_id, id);
    CREATE INDEX games_by_status ON games (status, updated_at);
    """,
    # 3: an undo takes back a move and every ruling given from it on; they stay for the audit
    # trail but are flagged, so a resumed game shows the same rulings as before the restart.
    """
    ALTER TABLE rulings ADD COLUMN undone INTEGER NOT NULL DEFAULT 0;
    """,
    # 4: every ruling keeps its pictures, refused ones too (an illegal move, a board that does not
    # match): keyed by the ruling's row id, which the session hands out as the ruling's ``id``.
    # Accepted moves keep theirs in ``evidence`` by move number (not copied, to keep the size).
    """
    CREATE TABLE ruling_evidence (
        ruling_id INTEGER NOT NULL REFERENCES rulings(id) ON DELETE CASCADE,
        which TEXT NOT NULL CHECK (which IN ('before', 'after')),
        jpeg BLOB NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (ruling_id, which)
    );
    """,
    # 5: what the game is waiting for the table to do (a question about unreadable cells, an
    # illegal move or a mismatch to put right, an undone move's chip to take off): at most one
    # per game, so a restart resumes it instead of ruling the same board again. The payload is
    # ``companion.store.waits.Wait`` as JSON.
    """
    CREATE TABLE waits (
        game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        created_at REAL NOT NULL
    );
    """,
]

SCHEMA_VERSION = len(MIGRATIONS)
