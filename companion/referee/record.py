"""Game records: JSON in, (Game, rulings) out, with clear errors for unreadable records.

A record is ``{"variant", "options", "players": [{"name", "team"}], "moves": [...]}`` plus,
for full-information play, ``"deck"`` (card texts, top card first) or ``"seed"`` (an int that
shuffles the full deck). See :mod:`companion.referee.moves` for the move forms.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.referee.cards import CardError
from companion.referee.first_player import seat_by_cut
from companion.referee.game import Game
from companion.referee.moves import CHOOSE, DRAW, TABLE_TALK, Move, MoveError
from companion.referee.players import CodedError, SetupError
from companion.referee.rulings import Ruling

RECORD_KEYS = {
    "variant",
    "options",
    "players",
    "cut",
    "moves",
    "deck",
    "seed",
    "comment",
    "title",
}


class RecordError(CodedError):
    """A record that cannot be read or set up."""


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a record file; raises RecordError for a missing or non-JSON file."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")  # tolerate a BOM (Windows editors)
    except FileNotFoundError:
        raise RecordError("not_found", f"record file {str(path)!r} does not exist") from None
    except IsADirectoryError:
        raise RecordError("not_found", f"{str(path)!r} is a directory, not a record file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError("unreadable", f"cannot read {str(path)!r}: {exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(
            "bad_json", f"{str(path)!r} is not valid JSON: {exc.msg} at line {exc.lineno}"
        ) from None


def game_from_record(data: Any) -> tuple[Game, list[Ruling]]:
    """Set up the recorded game and push every move; return the game and one ruling per move."""
    game = setup_from_record(data)
    moves = read_moves(data.get("moves", []), game)
    rulings = [game.push(move) for move in moves]
    return game, rulings


def setup_from_record(data: Any) -> Game:
    if not isinstance(data, dict):
        raise RecordError("bad_record", "a game record is a JSON object with 'players' and 'moves'")
    unknown = sorted(set(data) - RECORD_KEYS)
    if unknown:
        raise RecordError(
            "bad_record",
            f"unknown record field(s) {unknown}; known: {', '.join(sorted(RECORD_KEYS))}",
        )
    variant = data.get("variant", "classic")
    if not isinstance(variant, str):
        raise RecordError("bad_record", f"'variant' must be text, not {variant!r}")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise RecordError("bad_record", "'options' must be a JSON object of option: value")
    players = data.get("players")
    if not isinstance(players, list) or not players:
        raise RecordError("bad_record", '\'players\' must list the players: [{"name", "team"}]')
    for i, p in enumerate(players):
        if not isinstance(p, dict) or "name" not in p or not ("team" in p or "color" in p):
            raise RecordError("bad_record", f'player {i + 1} must be {{"name": ..., "team": ...}}')
    deck = data.get("deck")
    seed = data.get("seed")
    if deck is not None and (
        not isinstance(deck, list) or not all(isinstance(c, str) for c in deck)
    ):
        raise RecordError("bad_record", "'deck' lists card texts, top card first")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise RecordError("bad_record", f"'seed' must be a whole number, not {seed!r}")
    cut = data.get("cut")
    if cut is not None and not isinstance(cut, dict | list):
        raise RecordError(
            "bad_record",
            "'cut' maps each player's name to the card they cut, or lists such rounds for ties",
        )
    try:
        game = Game(players, variant, options, deck=deck, seed=seed)
        if cut is None:
            return game
        seated = seat_by_cut(game.players, cut, game.rules.first_player_rule).players
        return Game(seated, variant, options, deck=deck, seed=seed)
    except SetupError as exc:
        raise RecordError(exc.code, f"bad setup: {exc.message}") from None


def read_moves(entries: Any, game: Game) -> list[Move]:
    """Parse the record's moves, checking names and cards against the game."""
    if not isinstance(entries, list):
        raise RecordError("bad_record", "'moves' must be a list of move objects")
    names = {p.name for p in game.players}
    moves = []
    for number, entry in enumerate(entries, start=1):
        try:
            move = Move.from_json(entry)
        except MoveError as exc:
            raise RecordError("bad_move", f"move {number}: {exc}") from None
        if move.player is not None and move.player not in names:
            raise RecordError(
                "unknown_player",
                f"move {number}: unknown player {move.player!r}; players are {', '.join(sorted(names))}",
            )
        cards = [move.card] if move.card is not None else []
        if move.kind == TABLE_TALK:
            cards = [text for _, text in move.discards]
        for text in cards:
            try:
                game.parse_card(text)
            except CardError as exc:
                raise RecordError(
                    "unknown_card", f"move {number}: unknown card {text!r}: {exc}"
                ) from None
        if (
            move.kind not in (CHOOSE, DRAW, TABLE_TALK)
            and move.color is not None
            and move.color not in game.sides
        ):
            raise RecordError(
                "unknown_color",
                f"move {number}: no side plays {move.color}; colours are {', '.join(game.sides)}",
            )
        moves.append(move)
    return moves
