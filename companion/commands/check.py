"""``companion check RECORD.json``: rule on every move of a game record.

Prints one JSON object (``--text``: one line per ruling, then the final board). Exit codes:
0 the record was read and every move ruled on (illegal moves are rulings, not errors);
2 the record is unreadable or its setup is not allowed, printed as
``{"error": {"code": ..., "message": ...}}``; 1 an internal referee error (a bug), printed the
same way with code ``internal_error``. Never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.cells import cell_name
from companion.referee import RecordError, load_record
from companion.referee.game import Game

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_BAD_RECORD = 2


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "check",
        help="rule on every move of a game record (JSON out)",
        description="Rule on every move of a game record and print the rulings as JSON. "
        "Exit 0 when the record could be read, 2 (with an 'error' object) when it could not.",
    )
    parser.add_argument("record", help="game record JSON file ('-' reads standard input)")
    parser.add_argument(
        "--board", action="store_true", help="also print the final board as a 'board' field"
    )
    parser.add_argument("--indent", type=int, default=None, help="pretty-print with this indent")
    parser.add_argument(
        "--text",
        action="store_true",
        help="print the rulings and the final board for people instead of JSON",
    )
    parser.set_defaults(func=run)


def check_record(data: Any, board: bool = False) -> dict[str, Any]:
    """The check result for parsed record data; raises RecordError."""
    game, rulings = Game.from_record(data)
    return summary(game, [r.to_json() for r in rulings], board)


def summary(game: Game, rulings: list[dict], board: bool = False) -> dict[str, Any]:
    result: dict[str, Any] = {
        "rulings": rulings,
        "sequences": game.sequence_counts(),
        "sequence_cells": {
            color: [[cell_name(c) for c in line] for line in lines]
            for color, lines in game.sequences.items()
        },
        "needed": game.sequences_needed,
        "winner": game.winner,
        "game_over": game.is_over,
        "outcome": _outcome_json(game),
        "to_move": None if game.is_over else game.to_move.to_json(),
        "illegal_moves": sum(1 for r in rulings if not r["legal"]),
    }
    if board:
        result["board"] = game.board_strings()
    return result


def _outcome_json(game: Game) -> dict[str, Any] | None:
    outcome = game.outcome()
    if outcome is None:
        return None
    return {"termination": outcome.termination, "winner": outcome.winner}


def _read(path: str) -> Any:
    if path == "-":
        try:
            return json.loads(sys.stdin.read().lstrip("\ufeff"))
        except json.JSONDecodeError as exc:
            raise RecordError("bad_json", f"standard input is not valid JSON: {exc.msg}") from None
    return load_record(path)


def as_text(game: Game, rulings: list) -> str:
    """Rulings one per line, then the final board (``str(game)``)."""
    lines = [str(ruling) for ruling in rulings]
    return "\n".join([*lines, "", str(game)])


def _print_error(args: argparse.Namespace, error: dict[str, str]) -> None:
    if args.text:
        print(f"error [{error['code']}]: {error['message']}", file=sys.stderr)
    else:
        print(json.dumps({"error": error}, ensure_ascii=False, indent=args.indent))


def run(args: argparse.Namespace) -> int:
    try:
        data = _read(args.record)
        if args.text:
            game, rulings = Game.from_record(data)
            print(as_text(game, rulings))
            return EXIT_OK
        result = check_record(data, board=args.board)
    except RecordError as exc:
        _print_error(args, exc.to_json())
        return EXIT_BAD_RECORD
    except Exception as exc:  # a referee bug must still not end in a traceback for the user
        message = (
            f"the referee failed on this record ({type(exc).__name__}: {exc}); please report it"
        )
        _print_error(args, {"code": "internal_error", "message": message})
        return EXIT_INTERNAL
    print(json.dumps(result, ensure_ascii=False, indent=args.indent))
    return EXIT_OK
