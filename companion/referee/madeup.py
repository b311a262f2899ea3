"""A made-up Sequence Numbers layout for tests and examples: NOT the real board.

The real Sequence Numbers layout is not public (RULES.md section 3). This one only has the
right shape: 4 free corners and the numbers 1..48 printed twice each; its cards are equations
whose answer is on the board, plus 2 PLUS and 2 MINUS cards.
"""

from __future__ import annotations

from companion.cells import CORNERS, SIZE


def made_up_numbers_layout() -> dict:
    """Inline layout data (pass as ``options={"layout": ...}``) for the ``numbers`` preset."""
    labels = []
    k = 0
    for r in range(SIZE):
        row = []
        for c in range(SIZE):
            if (r, c) in CORNERS:
                row.append("W")
            else:
                # spread the two copies of a number far apart, like the printed boards do
                row.append(str((k * 7) % 48 + 1))
                k += 1
        labels.append(" ".join(f"{x:>2}" for x in row))
    deck = []
    for n in range(1, 49):
        deck.append(f"{n - 1}+1" if n > 1 else "0+1")
        deck.append(f"{n + 2}-2")
    return {
        "name": "made-up numbers layout (tests only, NOT the real Sequence Numbers board)",
        "verified": False,
        "rows": labels,
        "deck": deck,
        "special_cards": {"PLUS": 2, "MINUS": 2},
    }
