"""When may several changes be moves the camera did not see one by one? Pure logic.

:func:`~companion.tracking.changes.interpret_catch_up` lists the orders in which a board's
changes fit the next turns; :func:`seen_in_order` judges one such order against what the
camera saw and when (the tracker's per-cell read history), so that only an order the camera
cannot contradict is ruled. :func:`emptied_between` tells a chip taken off and another put
there (two moves) from a misread colour.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import Protocol

from companion.cells import Cell
from companion.tracking.changes import BoardChange, Interpretation
from companion.vision.reading import COLOR_OF_SYMBOL, EMPTY


class ReadHistory(Protocol):
    """What was read on each cell and when (``BoardTracker`` provides it)."""

    def last_read(self, cell: Cell, value: str) -> float | None: ...

    def first_read_since(self, cell: Cell, value: str, since: float) -> float | None: ...


def seen_in_order(
    plan: list[Interpretation],
    change: BoardChange,
    reads: ReadHistory,
    unseeable: Collection[Cell],
    after_gap: bool = False,
    asked: bool = False,
) -> bool:
    """Whether the camera can have missed ``plan``'s moves one by one, in this order.

    Every move but the last must have been unseeable one by one: made while the camera was
    away (``after_gap``), on a cell in ``unseeable`` (unreadable through a still spell, or only
    glimpsed), or, while the table is being ``asked`` about unseen cells, seen in an earlier
    still spell than the next move. Two changes that appeared together on readable cells are
    not a catch-up. And no move's cell may have shown its old value after a later move's change
    was read. A change never read (a cell the table corrected) counts as appearing now.
    """
    old = {ch.cell: ch.before for ch in change.changes}
    new = {ch.cell: ch.after for ch in change.changes}

    def first_new(cell: Cell) -> float | None:
        since = reads.last_read(cell, old[cell])
        return reads.first_read_since(cell, new[cell], -math.inf if since is None else since)

    for i, earlier in enumerate(plan[:-1]):
        cell = earlier.cell
        assert cell is not None
        shown, following = first_new(cell), first_new(plan[i + 1].cell)
        seen_before = asked and shown is not None and (following is None or shown < following)
        if not (after_gap or cell in unseeable or seen_before):
            return False
        old_seen = reads.last_read(cell, old[cell])
        if old_seen is None:
            continue
        for later in plan[i + 1 :]:
            appeared = first_new(later.cell)
            if appeared is not None and old_seen >= appeared:
                return False
    return True


def emptied_between(
    expected: list[str],
    board: list[str],
    changed: Collection[Cell],
    reads: ReadHistory,
    since: float = -math.inf,
) -> set[Cell]:
    """Cells of ``changed`` (cells that differed from the game on a board settled since the
    last move) whose chip now reads another colour than the game's, and that were read empty
    in a run of reads that began after the game's colour was last read there and after
    ``since`` (the last ruling, which may have ruled on that empty cell: an illegal removal
    whose chip goes back): the chip was taken off and another put there, two moves, not a
    misread colour. A cell whose game colour was never read keeps the benefit of the doubt."""
    found = set()
    for cell in changed:
        r, c = cell
        before, after = expected[r][c], board[r][c]
        if before not in COLOR_OF_SYMBOL or after not in COLOR_OF_SYMBOL or before == after:
            continue
        shown = reads.last_read(cell, before)
        if shown is None:
            continue
        start = max(shown, since)
        gone = reads.first_read_since(cell, EMPTY, start)
        if gone is not None and gone > start:  # a run begun later, not one going on at start
            found.add(cell)
    return found
