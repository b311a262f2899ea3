"""The classic Jax board's printed cards (RULES.md §1.3): which card each of the 100 cells
shows, row 1 first, ``W`` for a free corner.

Shared by the renderer (it prints them) and vision (each card but the jacks is printed twice,
so an empty cell looks like its twin); both depend on nothing else of the project's. The
referee reads the same grid from ``companion/referee/data/classic_layout.json``; a test checks
that they agree.
"""

from __future__ import annotations

from companion.cells import SIZE

CLASSIC_GRID = """
W  2S 3S 4S 5S 6S 7S 8S 9S W
6C 5C 4C 3C 2C AH KH QH TH TS
7C AS 2D 3D 4D 5D 6D 7D 9H QS
8C KS 6C 5C 4C 3C 2C 8D 8H KS
9C QS 7C 6H 5H 4H AH 9D 7H AS
TC TS 8C 7H 2H 3H KH TD 6H 2D
QC 9S 9C 8H 9H TH QH QD 5H 3D
KC 8S TC QC KC AC AD KD 4H 4D
AC 7S 6S 5S 4S 3S 2S 2H 3H 5D
W  AD KD QD TD 9D 8D 7D 6D W
"""


def _parse(text: str) -> tuple[tuple[str, ...], ...]:
    rows = tuple(tuple(line.split()) for line in text.strip().splitlines())
    if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
        raise ValueError("a board layout needs 10 rows of 10 cards")
    return rows


CLASSIC_LAYOUT: tuple[tuple[str, ...], ...] = _parse(CLASSIC_GRID)
