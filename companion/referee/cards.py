"""Cards: parsing card notation and what each card lets a player do.

Classic notation is rank + suit: ranks ``A 2..9 10 (or T) J Q K``, suits ``S H D C`` or
``♠ ♥ ♦ ♣``, case-insensitive (``"10h"``, ``"T♥"`` and ``"TH"`` are the same card). The canonical
text uses ``T`` for ten, as printed in the board layout data.

Sequence Numbers cards are equations (``"3+4"``, ``"12-5"``) whose answer is printed on the
board, a bare number (``"7"``), or the special ``PLUS`` (wild) and ``MINUS`` (remove) cards.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SYMBOL_TO_SUIT = {
    "♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C",
}  # fmt: skip

# Standard card art: the jacks of clubs and diamonds show two eyes, hearts and spades one eye
# (RULES.md section 1.1, "Which jacks are which"; Seed B names the suits).
TWO_EYED_JACKS = frozenset({"JC", "JD"})
ONE_EYED_JACKS = frozenset({"JH", "JS"})

PLAIN = "plain"
TWO_EYED = "two_eyed"
ONE_EYED = "one_eyed"


class CardError(ValueError):
    """Text that is not a card of the game being played."""


@dataclass(frozen=True, slots=True)
class Card:
    """One card. ``face`` is the board label it matches (None for wild/remove cards).

    ``kind`` is ``"plain"`` (place on a matching space), ``"two_eyed"`` (wild: place on any open
    space; also the Sequence Numbers PLUS card) or ``"one_eyed"`` (remove an opponent chip; also
    the MINUS card).
    """

    text: str
    face: str | None
    kind: str = PLAIN

    @property
    def is_wild(self) -> bool:
        return self.kind == TWO_EYED

    @property
    def is_remove(self) -> bool:
        return self.kind == ONE_EYED

    @property
    def is_plain(self) -> bool:
        return self.kind == PLAIN

    @property
    def symbol(self) -> str:
        """Human form: ``"10♥"``, ``"J♣"``, ``"3+4"``."""
        if len(self.text) == 2 and self.text[1] in SUIT_SYMBOLS:
            rank = "10" if self.text[0] == "T" else self.text[0]
            return rank + SUIT_SYMBOLS[self.text[1]]
        return self.text

    def describe(self) -> str:
        if self.kind == TWO_EYED:
            return (
                f"{self.symbol} (wild)" if self.text == "PLUS" else f"two-eyed jack {self.symbol}"
            )
        if self.kind == ONE_EYED:
            return (
                f"{self.symbol} (remove)"
                if self.text == "MINUS"
                else f"one-eyed jack {self.symbol}"
            )
        return self.symbol

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self.text!r})"


def parse_classic_card(text: str) -> Card:
    """``"7s"`` / ``"10♥"`` / ``"T♥"`` -> Card. Raises CardError naming what is wrong."""
    if not isinstance(text, str):
        raise CardError(f"{text!r} is not a card; write rank + suit such as '7S' or '10♥'")
    raw = text.strip()
    if len(raw) < 2:
        raise CardError(f"{text!r} is not a card; write rank + suit such as '7S' or '10♥'")
    suit = _SYMBOL_TO_SUIT.get(raw[-1], raw[-1].upper())
    rank = raw[:-1].upper()
    if rank == "10":
        rank = "T"
    if suit not in SUITS:
        raise CardError(f"{text!r} has no suit; the suit is one of S H D C (or ♠ ♥ ♦ ♣)")
    if rank not in RANKS:
        raise CardError(f"{text!r} has no rank; the rank is one of A 2-10 (or T) J Q K")
    canonical = rank + suit
    if canonical in TWO_EYED_JACKS:
        return Card(canonical, None, TWO_EYED)
    if canonical in ONE_EYED_JACKS:
        return Card(canonical, None, ONE_EYED)
    return Card(canonical, canonical, PLAIN)


_EQUATION = re.compile(r"^\s*(\d+)\s*([+\-−])\s*(\d+)\s*$")


def parse_numbers_card(text: str) -> Card:
    """Sequence Numbers: ``"3+4"`` / ``"12-5"`` / ``"7"`` / ``"PLUS"`` / ``"MINUS"`` -> Card."""
    if not isinstance(text, str) or not text.strip():
        raise CardError(f"{text!r} is not a Sequence Numbers card; write '3+4', 'PLUS' or 'MINUS'")
    raw = text.strip().upper()
    if raw in ("PLUS", "+"):
        return Card("PLUS", None, TWO_EYED)
    if raw in ("MINUS", "-", "−"):
        return Card("MINUS", None, ONE_EYED)
    if raw.isdigit():
        return Card(str(int(raw)), str(int(raw)), PLAIN)
    match = _EQUATION.match(raw)
    if not match:
        raise CardError(
            f"{text!r} is not a Sequence Numbers card; write an equation such as '3+4' or '12-5',"
            " or PLUS / MINUS"
        )
    left, op, right = int(match.group(1)), match.group(2), int(match.group(3))
    answer = left + right if op == "+" else left - right
    sign = "+" if op == "+" else "-"
    return Card(f"{left}{sign}{right}", str(answer), PLAIN)
