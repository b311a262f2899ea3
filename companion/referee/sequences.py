"""Sequence detection: pure functions on a flat board of 100 entries (``None`` or a colour).

Detection is incremental: only windows through the chip just placed can be new, so a placement
walks at most ``length - 1`` spaces each way in the four directions. Lines are stored in reading
order: from the A-column end, or from the top for vertical lines.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from companion.cells import CORNERS, SIZE, Cell

# Horizontal, vertical, diagonal down-right, diagonal up-right: each steps towards higher
# columns (or lower rows for vertical), so walking forward is reading order.
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (1, 1), (-1, 1))

Line = tuple[Cell, ...]
Board = Sequence[str | None]


def index(cell: Cell) -> int:
    return cell[0] * SIZE + cell[1]


def owns(board: Board, cell: Cell, color: str, corners_free: bool = True) -> bool:
    """True if ``cell`` counts for ``color``: its chip, or a free corner (which counts for all)."""
    if cell in CORNERS:
        return corners_free
    return board[index(cell)] == color


def direction_of(line: Line) -> tuple[int, int]:
    (r0, c0), (r1, c1) = line[0], line[1]
    return (r1 - r0, c1 - c0)


def shared_chips(a: Iterable[Cell], b: Iterable[Cell]) -> set[Cell]:
    """Cells two lines share, not counting corners (a corner never counts as the shared chip)."""
    return (set(a) & set(b)) - CORNERS


def compatible(window: Line, others: Iterable[Line], overlap: str) -> bool:
    """May ``window`` be a new sequence beside the side's ``others``?

    ``one_shared``: it may share one chip with each earlier sequence (nine in a line make two).
    ``crossing_only``: the shared chip is allowed only where two lines cross (a line needs ten).
    ``none``: no shared chip at all.
    """
    direction = direction_of(window)
    for other in others:
        shared = shared_chips(window, other)
        if not shared:
            continue
        if overlap == "none" or len(shared) > 1:
            return False
        if overlap == "crossing_only" and direction_of(other) == direction:
            return False
    return True


def _rays() -> dict[tuple[Cell, tuple[int, int], int], tuple[Cell, ...]]:
    """For every cell, direction and side (-1 back, +1 forward): the cells in that direction."""
    rays = {}
    for r in range(SIZE):
        for c in range(SIZE):
            for dr, dc in DIRECTIONS:
                for sign in (-1, 1):
                    cells = []
                    rr, cc = r + sign * dr, c + sign * dc
                    while 0 <= rr < SIZE and 0 <= cc < SIZE:
                        cells.append((rr, cc))
                        rr, cc = rr + sign * dr, cc + sign * dc
                    rays[((r, c), (dr, dc), sign)] = tuple(cells)
    return rays


_RAYS = _rays()


def run_through(
    board: Board, cell: Cell, direction: tuple[int, int], color: str, reach: int,
    corners_free: bool = True,
) -> list[Cell]:  # fmt: skip
    """The cells owned by ``color`` in line with ``cell``, at most ``reach`` steps each way."""
    sides: list[list[Cell]] = []
    for sign in (-1, 1):
        found: list[Cell] = []
        for rc in _RAYS[(cell, direction, sign)][:reach]:
            if rc in CORNERS:
                if not corners_free:
                    break
            elif board[rc[0] * SIZE + rc[1]] != color:
                break
            found.append(rc)
        sides.append(found)
    return sides[0][::-1] + [cell] + sides[1]


def new_sequences(
    board: Board,
    color: str,
    placed: Cell,
    existing: Sequence[Line],
    *,
    length: int = 5,
    overlap: str = "one_shared",
    corners_free: bool = True,
) -> list[Line]:
    """Sequences that a chip of ``color`` just placed on ``placed`` completes.

    For each direction, the windows of ``length`` through ``placed`` are tried in reading order
    and every one compatible with the side's existing and already chosen sequences is taken: the
    earliest allowed window of a long run is locked, the middle chip of nine makes two under
    ``one_shared``, and a cross through the new chip makes two.
    """
    chosen: list[Line] = []
    for direction in DIRECTIONS:
        run = run_through(board, placed, direction, color, length - 1, corners_free)
        if len(run) < length:
            continue
        for start in range(len(run) - length + 1):
            window = tuple(run[start : start + length])
            if compatible(window, [*existing, *chosen], overlap):
                chosen.append(window)
    return chosen


def all_windows(length: int = 5) -> list[Line]:
    """Every straight window of ``length`` cells on the board, in reading order (for oracles)."""
    windows: list[Line] = []
    for direction in DIRECTIONS:
        dr, dc = direction
        for r in range(SIZE):
            for c in range(SIZE):
                cells = [(r + k * dr, c + k * dc) for k in range(length)]
                if all(0 <= rr < SIZE and 0 <= cc < SIZE for rr, cc in cells):
                    windows.append(tuple(cells))
    return windows


def is_line(cells: Sequence[Cell], length: int = 5) -> bool:
    """True if ``cells`` are ``length`` consecutive cells of one straight line, in reading order."""
    if len(cells) != length or len(set(cells)) != length:
        return False
    direction = direction_of(tuple(cells))
    if direction not in DIRECTIONS:
        return False
    return all(
        (cells[k][0] - cells[k - 1][0], cells[k][1] - cells[k - 1][1]) == direction
        for k in range(1, length)
    )


def reading_order(cells: Sequence[Cell]) -> Line:
    """Sort collinear cells into reading order (A-column end first; top first if vertical)."""
    if len({c for _, c in cells}) == 1:
        return tuple(sorted(cells))
    return tuple(sorted(cells, key=lambda rc: (rc[1], rc[0])))
