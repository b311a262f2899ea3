"""Between the store and the referee: rebuild a stored game exactly, export and import records.

A stored game is its setup plus its history (moves sent to the referee and corrections, in order).
Replaying that history through a fresh :class:`companion.referee.Game` gives back the same board,
the same rulings and the same side to move, which is how an unfinished game resumes after a crash.
"""

from __future__ import annotations

from companion.referee import Game, Move, Player
from companion.store.store import Store, StoredGame

# Corrections that change the referee's game; the rest ("cell", "card") only concern the camera.
# (Dead cards and declared sequences are moves of the record, so they are stored as moves.)
GAME_CORRECTIONS = ("undo",)


def new_game(setup: dict) -> Game:
    """A referee game from ``{"variant", "options", "players": [{"name", "team"}]}``."""
    players = [Player(p["name"], p["team"]) for p in setup["players"]]
    return Game(
        players=players,
        variant=setup.get("variant", "classic"),
        options=dict(setup.get("options") or {}),
    )


def apply_correction(game: Game, kind: str, payload: dict) -> None:
    """Apply one stored correction that changes the referee's game."""
    if kind == "undo":
        game.pop()


def rebuild_game(stored: StoredGame) -> Game:
    """Replay a stored history into a fresh referee game (raises SetupError/RecordError)."""
    game = new_game(stored.setup())
    for action in stored.actions:
        if action.kind == "move":
            game.push(Move.from_json(action.payload))
        elif action.kind in GAME_CORRECTIONS:
            apply_correction(game, action.kind, action.payload)
    return game


def export_record(store: Store, game_id: int) -> dict:
    """The JSON game record (the format ``companion check`` reads) of a stored game."""
    return rebuild_game(store.load_game(game_id)).to_record()


def import_record(store: Store, record: dict) -> int:
    """Store a JSON game record as a new game; returns its id. Raises the referee's RecordError."""
    game, rulings = Game.from_record(record)
    setup = {
        "variant": record.get("variant", "classic"),
        "options": record.get("options") or {},
        "players": [p.to_json() for p in game.players],
    }
    game_id = store.create_game(setup)
    for move, ruling in zip(record.get("moves", []), rulings, strict=False):
        store.add_move(game_id, move, ruling.to_json())
    if game.is_over:
        store.finish_game(game_id, game.winner)
    return game_id
