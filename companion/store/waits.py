"""What a game is waiting for the table to do, kept so that a restart resumes it.

While the board does not add up, the session holds the game and tells the table what to do: a
*question* about cells it cannot read, an *illegal* move or a board *mismatch* to put right, the
chip of an *undone* move to take off. Only one wait is open at a time. Without storing it, a
restarted session would forget it: the illegal move would be ruled a second time, the undone
move's chip ruled again as a new move, and a question would vanish from the page until the next
still board (and be worked out again without what the camera saw before the restart).

A :class:`Wait` is plain data (cell names, the settled board, read times); the session decides
what it means. Times in ``reads`` are seconds relative to the moment the wait began (zero or
less), since a restarted source starts its clock again.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.cells import SIZE, parse_cell

QUESTION = "question"  # the session asked about cells it cannot read
ILLEGAL = "illegal"  # the referee refused a move: the board must be put back
MISMATCH = "mismatch"  # the board does not match the game
UNDO = "undo"  # a move was undone: its chip must come off the board
KINDS = (QUESTION, ILLEGAL, MISMATCH, UNDO)
SYMBOLS = set("*.BGR")


@dataclass(frozen=True, slots=True)
class Wait:
    kind: str
    cells: tuple[str, ...]  # the cells to fix or to look at (for a question: every cell
    # unreadable through a still spell since the last move, or in the reading that asked)
    message: str
    moves: int  # moves the game had when the wait began: later, it is stale
    board: tuple[str, ...]  # the settled board it is about (not ruled on again)
    # for a question, what the session knew when it asked:
    changed: tuple[str, ...] = ()  # cells that changed on a board settled since the last move
    reads: dict[str, tuple[tuple[str, float, float], ...]] = field(default_factory=dict)
    # cell -> runs (value, first, last) of what was read there, times relative to the wait

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "cells": list(self.cells),
            "message": self.message,
            "moves": self.moves,
            "board": list(self.board),
            "changed": list(self.changed),
            "reads": {cell: [list(run) for run in runs] for cell, runs in self.reads.items()},
        }

    @classmethod
    def from_json(cls, data: dict) -> Wait:
        """Raises ``ValueError`` when ``data`` is not a wait this version wrote."""
        try:
            wait = cls(
                kind=str(data["kind"]),
                cells=_names(data["cells"]),
                message=str(data["message"]),
                moves=int(data["moves"]),
                board=tuple(str(row) for row in data["board"]),
                changed=_names(data.get("changed", ())),
                reads={
                    _names([cell])[0]: tuple(
                        (str(value), float(first), float(last)) for value, first, last in runs
                    )
                    for cell, runs in dict(data.get("reads", {})).items()
                },
            )
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a stored wait: {exc}") from None
        if wait.kind not in KINDS:
            raise ValueError(f"not a stored wait: unknown kind {wait.kind!r}")
        if len(wait.board) != SIZE or any(
            len(row) != SIZE or not set(row) <= SYMBOLS for row in wait.board
        ):
            raise ValueError("not a stored wait: its board is not 10 rows of 10 symbols")
        return wait


def _names(cells) -> tuple[str, ...]:
    """Cell names, checked (``ValueError`` for anything that names no cell)."""
    if isinstance(cells, str):
        raise ValueError("cells are a list of names")
    names = tuple(str(name) for name in cells)
    for name in names:
        parse_cell(name)
    return names
