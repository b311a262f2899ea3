"""A stand-in for ``companion.session.GameSession`` for the HTTP API unit tests.

It implements the GameSession API of docs/ARCHITECTURE.md with a scripted board and no camera, so
the API tests exercise the web layer alone. The browser tests use the real session instead.
"""

from __future__ import annotations

import queue
import threading

import cv2
import numpy as np

from companion.cells import parse_cell

COLOR_SYMBOL = {"blue": "B", "green": "G", "red": "R"}


def tiny_jpeg(shade: int) -> bytes:
    image = np.full((24, 32, 3), shade, np.uint8)
    ok, data = cv2.imencode(".jpg", image)
    assert ok
    return data.tobytes()


class FakeSession:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.subscribers: list[queue.Queue] = []
        self.calls: list[tuple] = []
        self.frame_shade = 10
        self.setup = {
            "variant": "classic",
            "options": {},
            "players": [{"name": "Ann", "team": "blue"}, {"name": "Bo", "team": "green"}],
        }
        self.reset()

    # ----- helpers for tests
    def reset(self) -> None:
        self.board = [list(".........."[:10]) for _ in range(10)]
        for r, c in ((0, 0), (0, 9), (9, 0), (9, 9)):
            self.board[r][c] = "*"
        self.moves: list[dict] = []
        self.rulings: list[dict] = []
        self.winner = None
        self.sequence_cells: dict[str, list[list[str]]] = {"blue": [], "green": []}
        self.mismatch: list[str] = []
        self.declared: dict | None = None

    def play(self, cell: str, color: str | None = None, legal: bool = True, code: str = "ok"):
        """Emit a ruling as the real session would after the camera saw a move."""
        with self.lock:
            players = self.setup["players"]
            player = players[len(self.moves) % len(players)]
            color = color or player["team"]
            number = len(self.moves) + 1
            move = {"player": player["name"], "card": None, "place": cell, "color": color}
            ruling = {  # the referee's Ruling.to_json() shape
                "move": number,
                "legal": legal,
                "code": code,
                "message": "Legal move." if legal else f"{cell} already holds a chip.",
                "rule": "play.matching_cell" if legal else "play.open_cell",
                "new_sequences": [],
                "player": player["name"],
                "color": color,
                "id": len(self.rulings) + 1,  # the store's ruling id, added by the session
            }
            if legal:
                r, c = parse_cell(cell)
                self.board[r][c] = COLOR_SYMBOL[color]
                self.moves.append(move)
            self.rulings.append(ruling)
        self.emit({"type": "ruling", "ruling": ruling, "move": move})
        self.emit({"type": "state", "state": self.state()})
        return ruling

    def emit(self, event: dict) -> None:
        for q in list(self.subscribers):
            q.put(event)

    # ----- GameSession API
    def start(self) -> None: ...

    def stop(self) -> None: ...

    def state(self) -> dict:
        with self.lock:
            players = self.setup["players"]
            to_move = players[len(self.moves) % len(players)]
            return {
                "board": ["".join(row) for row in self.board],
                "turn": len(self.moves) + 1,
                "to_move": dict(to_move),
                "sequences": {k: len(v) for k, v in self.sequence_cells.items()},
                "sequence_cells": self.sequence_cells,
                "needed": 2,
                "moves": list(self.moves),
                "rulings": list(self.rulings),
                "winner": self.winner,
                "status": "game_over" if self.winner else "watching",
                "status_message": "",
                "dead_cards": ["9C"],
                "mismatch": list(self.mismatch),
                "declared_card": self.declared,
                "players": list(players),
                "variant": self.setup["variant"],
                "options": self.setup["options"],
            }

    def subscribe(self) -> queue.Queue:
        q: queue.Queue = queue.Queue()
        self.subscribers.append(q)
        return q

    def unsubscribe(self, q: queue.Queue) -> None:
        if q in self.subscribers:
            self.subscribers.remove(q)

    def new_game(self, setup: dict) -> None:
        if len(setup["players"]) == 5:
            from companion.referee import SetupError

            raise SetupError("bad_player_count", "5 players cannot be split into equal teams")
        self.calls.append(("new_game", setup))
        self.setup = setup
        self.reset()
        self.emit({"type": "state", "state": self.state()})

    def correct_cell(self, cell: str, value: str) -> None:
        self.calls.append(("correct_cell", cell, value))
        r, c = parse_cell(cell)
        if (r, c) in ((0, 0), (0, 9), (9, 0), (9, 9)):
            raise ValueError(f"{cell} is a corner; it cannot be corrected")
        self.board[r][c] = value
        self.emit({"type": "state", "state": self.state()})

    def undo(self) -> None:
        self.calls.append(("undo",))
        if not self.moves:
            raise RuntimeError("there is no move to undo")
        move = self.moves.pop()
        r, c = parse_cell(move["place"])
        self.board[r][c] = "."

    def declare_card(self, card: str, player: str | None) -> None:
        self.calls.append(("declare_card", card, player))

    def declare_dead(self, card: str, player: str | None) -> None:
        self.calls.append(("declare_dead", card, player))

    def choose_sequence(self, color: str, cells: list[str]) -> None:
        self.calls.append(("choose_sequence", color, cells))

    def check_card(self, card: str) -> dict:
        if card == "1S":
            raise ValueError("no such card")
        kind = {"JC": "two_eyed", "JD": "two_eyed", "JH": "one_eyed", "JS": "one_eyed"}
        return {
            "card": card,
            "dead": card == "9C",
            "cells": [] if card == "9C" else ["B2", "H7"],
            "kind": kind.get(card, "plain"),
        }

    def evidence(self, move_number: int, which: str) -> bytes | None:
        if not any(r["move"] == move_number and r["legal"] for r in self.rulings):
            return None
        return tiny_jpeg(100 if which == "before" else 200)

    def ruling_evidence(self, ruling_id: int, which: str) -> bytes | None:
        if not any(r.get("id") == ruling_id for r in self.rulings):
            return None
        return tiny_jpeg((110 if which == "before" else 210) + ruling_id)

    def latest_jpeg(self, annotated: bool = True) -> bytes | None:
        return tiny_jpeg(self.frame_shade)

    def board_jpeg(self) -> bytes | None:
        return tiny_jpeg(50)

    def export_record(self) -> dict:
        return {"setup": self.setup, "moves": list(self.moves)}
