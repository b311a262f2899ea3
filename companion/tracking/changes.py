"""Compare a settled board with the game's board and say what happened. Pure functions.

``BoardChange.between(expected, seen)`` lists the cells that differ. ``interpret`` applies the
referee's state as a prior: a turn adds one chip of the side to move or removes one chip; chips
do not change colour (a colour change is a misread and is ignored, unless the cell was read
empty in between: then a chip was taken off and another put there, two moves that the
caller must not rule as one); corners never hold chips.
Anything else is a mismatch that names the cells, and the game waits for the table to fix it.
``interpret_catch_up`` is the one exception, for moves the camera could not see one by one:
several changes (placements and removals) that fit the next turns in exactly one order.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from itertools import permutations

from companion.cells import CORNERS, SIZE, Cell, cell_name
from companion.vision.reading import COLOR_OF_SYMBOL, EMPTY

NONE = "none"
PLACE = "place"
REMOVE = "remove"
MISMATCH = "mismatch"


@dataclass(frozen=True, slots=True)
class CellChange:
    cell: Cell
    before: str  # symbol the game expects: . B G R
    after: str  # symbol on the settled board
    # the cell was read empty in between: a chip taken off and one of another colour put
    # there (two moves), not a misread colour
    emptied: bool = False

    @property
    def name(self) -> str:
        return cell_name(self.cell)

    @property
    def is_added(self) -> bool:
        return self.before == EMPTY and self.after in COLOR_OF_SYMBOL

    @property
    def is_removed(self) -> bool:
        return self.before in COLOR_OF_SYMBOL and self.after == EMPTY

    @property
    def is_recolored(self) -> bool:
        """The chip seems to have changed colour: a misread (chips do not change colour)."""
        return self._both_chips and not self.emptied

    @property
    def is_replaced(self) -> bool:
        """The chip was read gone, and now one of another colour lies there: two changes."""
        return self._both_chips and self.emptied

    @property
    def _both_chips(self) -> bool:
        return self.before in COLOR_OF_SYMBOL and self.after in COLOR_OF_SYMBOL

    def describe(self) -> str:
        if self.is_added:
            return f"a {COLOR_OF_SYMBOL[self.after]} chip appeared on {self.name}"
        if self.is_removed:
            return f"the {COLOR_OF_SYMBOL[self.before]} chip on {self.name} is gone"
        if self.is_replaced:
            return (
                f"the {COLOR_OF_SYMBOL[self.before]} chip on {self.name} was taken off and a "
                f"{COLOR_OF_SYMBOL[self.after]} chip put there"
            )
        if self.is_recolored:
            return (
                f"{self.name} reads {COLOR_OF_SYMBOL[self.after]}, "
                f"the game has {COLOR_OF_SYMBOL[self.before]}"
            )
        return f"{self.name} changed from {self.before!r} to {self.after!r}"


@dataclass(frozen=True, slots=True)
class BoardChange:
    """The cells (corners excluded) where a settled board differs from the expected one."""

    changes: tuple[CellChange, ...]

    @classmethod
    def between(
        cls, expected: list[str], seen: list[str], emptied: Collection[Cell] = ()
    ) -> BoardChange:
        """The differing cells; a cell in ``emptied`` whose chip reads another colour was read
        empty in between (see :func:`~companion.tracking.catch_up.emptied_between`)."""
        found = []
        for r in range(SIZE):
            for c in range(SIZE):
                if (r, c) in CORNERS:
                    continue
                if expected[r][c] != seen[r][c]:
                    found.append(CellChange((r, c), expected[r][c], seen[r][c], (r, c) in emptied))
        return cls(tuple(found))

    def __bool__(self) -> bool:
        return bool(self.changes)

    @property
    def cells(self) -> list[str]:
        return [ch.name for ch in self.changes]

    @property
    def added(self) -> list[CellChange]:
        return [ch for ch in self.changes if ch.is_added]

    @property
    def removed(self) -> list[CellChange]:
        return [ch for ch in self.changes if ch.is_removed]

    @property
    def recolored(self) -> list[CellChange]:
        return [ch for ch in self.changes if ch.is_recolored]


@dataclass(frozen=True, slots=True)
class Interpretation:
    """What a board change means for the game.

    ``kind``: ``none`` (board matches), ``place`` (``color`` put a chip on ``cell``), ``remove``
    (``color``, the side to move, took the chip off ``cell``) or ``mismatch`` (``cells`` differ
    in a way no single move explains; ``reason`` says how, for people).
    ``ignored``: cells whose chip seems to have changed colour, ignored as misreads.
    """

    kind: str
    color: str | None = None
    cell: Cell | None = None
    cells: tuple[str, ...] = ()
    reason: str = ""
    ignored: tuple[str, ...] = field(default=())

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "color": self.color,
            "cell": cell_name(self.cell) if self.cell else None,
            "cells": list(self.cells),
            "reason": self.reason,
            "ignored": list(self.ignored),
        }


def interpret(
    change: BoardChange, color_to_move: str, just_cleared: Cell | None = None
) -> Interpretation:
    """Explain ``change`` as at most one move by ``color_to_move``.

    ``just_cleared`` is the cell the previous move emptied (a one-eyed jack): a chip showing up
    there again right away is the removed chip put back, not a move.
    """
    ignored = tuple(ch.name for ch in change.recolored)
    real = [ch for ch in change.changes if not ch.is_recolored]
    if not real:
        return Interpretation(NONE, ignored=ignored)
    if len(real) > 1:
        details = "; ".join(ch.describe() for ch in real)
        return Interpretation(
            MISMATCH,
            cells=tuple(ch.name for ch in real),
            reason=f"{len(real)} cells changed at once ({details}); one move changes one cell",
            ignored=ignored,
        )
    only = real[0]
    if only.is_added:
        color = COLOR_OF_SYMBOL[only.after]
        if color != color_to_move:
            return Interpretation(
                MISMATCH,
                cells=(only.name,),
                reason=f"{only.describe()}, but {color_to_move} is to move",
                ignored=ignored,
            )
        if just_cleared is not None and only.cell == just_cleared:
            return Interpretation(
                MISMATCH,
                cells=(only.name,),
                reason=f"a chip is back on {only.name}, which the last move cleared",
                ignored=ignored,
            )
        return Interpretation(PLACE, color=color, cell=only.cell, ignored=ignored)
    if only.is_removed:
        return Interpretation(REMOVE, color=color_to_move, cell=only.cell, ignored=ignored)
    return Interpretation(  # a replaced chip: symbols outside .BGR are filtered upstream
        MISMATCH,
        cells=(only.name,),
        reason=f"{only.describe()}: two moves, and one move changes one cell",
        ignored=ignored,
    )


MAX_CATCH_UP = 4  # moves one catch-up may rule (every order of them is tried)


def interpret_catch_up(
    change: BoardChange,
    turn_colors: Sequence[str],
    just_cleared: Cell | None = None,
    acceptable: Callable[[list[Interpretation]], bool] | None = None,
) -> list[Interpretation] | None:
    """Explain ``change`` as several moves in a row that the camera did not see one by one.

    After an outage, or when a chip lay on a cell the vision could not read, a settled board
    may be several turns ahead. ``turn_colors`` are the sides of one round of the table, the
    side to move first. Each turn made one change: a placement by the chip's colour, or a
    removal of another side's chip. The changes (2 to ``MAX_CATCH_UP``) are accepted only when
    exactly one order of them fits the turns and ``acceptable`` (the caller's check of each
    candidate order against what it saw when), so the order of the moves is known. A colour
    change is ignored as a misread, as in :func:`interpret`; a replaced chip (read empty in
    between) is never caught up. Returns the moves in turn order,
    or ``None`` (the usual mismatch). A chip on ``just_cleared`` (the cell a one-eyed jack just
    emptied) is never accepted.
    """
    real = [ch for ch in change.changes if not ch.is_recolored]
    if len(real) < 2 or len(real) > MAX_CATCH_UP or not turn_colors:
        return None
    if not all(ch.is_added or ch.is_removed for ch in real):
        return None  # a replaced chip: when its two moves came is not known
    if just_cleared is not None and any(ch.cell == just_cleared for ch in real):
        return None
    colors = [turn_colors[k % len(turn_colors)] for k in range(len(real))]
    found = None
    for order in permutations(real):
        if not all(_fits(ch, color) for ch, color in zip(order, colors, strict=True)):
            continue
        plan = [
            Interpretation(PLACE if ch.is_added else REMOVE, color=color, cell=ch.cell)
            for ch, color in zip(order, colors, strict=True)
        ]
        if acceptable is not None and not acceptable(plan):
            continue
        if found is not None:
            return None  # two orders fit: which moves came first is not known
        found = plan
    return found


def _fits(change: CellChange, color: str) -> bool:
    """Whether ``color``'s turn can have made ``change``: placed its own chip, or removed
    another side's chip."""
    if change.is_added:
        return COLOR_OF_SYMBOL[change.after] == color
    return COLOR_OF_SYMBOL[change.before] != color
