"""Cell names shared by every layer: ``A1``..``J10`` and ``(row, col)``.

Canonical orientation is the classic Jax grid as printed in RULES.md §1.3: column letters A..J run
left to right, row numbers 1..10 run top to bottom, so ``A1`` is the top-left free corner and
``B1`` is the 2 of spades. Internally a cell is a ``(row, col)`` tuple of 0-based ints.
"""

from __future__ import annotations

from collections.abc import Sequence

SIZE = 10
COLUMNS = "ABCDEFGHIJ"
CORNERS: frozenset[tuple[int, int]] = frozenset({(0, 0), (0, 9), (9, 0), (9, 9)})

Cell = tuple[int, int]


class CellError(ValueError):
    """A cell name or index that is not on the 10x10 board."""


def cell_name(cell: Cell) -> str:
    """``(0, 1)`` -> ``"B1"``."""
    row, col = cell
    if not (0 <= row < SIZE and 0 <= col < SIZE):
        raise CellError(f"cell {cell!r} is off the board (rows and columns run 0..9)")
    return f"{COLUMNS[col]}{row + 1}"


def parse_cell(value: str | Sequence[int]) -> Cell:
    """Accept ``"B1"`` / ``"b1"`` or ``[row, col]`` (0-based) and return ``(row, col)``."""
    if isinstance(value, str):
        text = value.strip().upper()
        if len(text) < 2 or text[0] not in COLUMNS or not text[1:].isdigit():
            raise CellError(
                f"{value!r} is not a cell name; use A1..J10 (column letter, row number)"
            )
        row = int(text[1:]) - 1
        col = COLUMNS.index(text[0])
        if not 0 <= row < SIZE:
            raise CellError(f"{value!r} is off the board; rows run 1..10")
        return (row, col)
    if (
        isinstance(value, Sequence)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        row, col = int(value[0]), int(value[1])
        if not (0 <= row < SIZE and 0 <= col < SIZE):
            raise CellError(f"{list(value)!r} is off the board; [row, col] run 0..9")
        return (row, col)
    raise CellError(f"{value!r} is not a cell; use a name like 'B1' or [row, col]")


def all_cells() -> list[Cell]:
    return [(r, c) for r in range(SIZE) for c in range(SIZE)]
