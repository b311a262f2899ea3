"""The cards in play for full-information games: draw deck, hands and discard piles.

Used when a game is created with a ``deck`` (its order, top card first) or a ``seed`` (shuffle the
full deck with ``random.Random(seed)``): the referee then knows every hand and checks that each
card played is held. Dealing goes one card at a time around the table from the first player.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion.referee.cards import Card


@dataclass
class CardPiles:
    """Draw deck (``deck[-1]`` is the top card), each player's hand and own discard pile."""

    deck: list[Card]
    hands: dict[str, list[Card]]
    discards: dict[str, list[Card]]
    seed: int = 0
    reshuffles: int = 0

    @classmethod
    def deal(
        cls, cards_top_first: list[Card], names: list[str], hand_size: int, seed: int | None
    ) -> CardPiles:
        piles = cls(
            deck=list(reversed(cards_top_first)),
            hands={n: [] for n in names},
            discards={n: [] for n in names},
            seed=seed if seed is not None else 0,
        )
        for _ in range(hand_size):
            for name in names:
                if piles.deck:
                    piles.hands[name].append(piles.deck.pop())
        return piles

    def holds(self, name: str, card: Card) -> bool:
        return card in self.hands.get(name, ())

    def discard(self, name: str, card: Card) -> None:
        self.hands[name].remove(card)
        self.discards[name].append(card)

    def draw(self, name: str, reshuffle: bool = True) -> Card | None:
        """Top card to ``name``'s hand; an empty deck is rebuilt from all discard piles.

        Returns None when no card is left (or the deck ran out and reshuffling is off).
        """
        if not self.deck:
            if not reshuffle:
                return None
            self.reshuffle()
        if not self.deck:
            return None
        card = self.deck.pop()
        self.hands[name].append(card)
        return card

    def reshuffle(self) -> None:
        pool = [card for pile in self.discards.values() for card in pile]
        for pile in self.discards.values():
            pile.clear()
        # A fresh generator per reshuffle keeps replays (and undo) reproducible.
        random.Random(self.seed * 1_000_003 + self.reshuffles).shuffle(pool)
        self.deck = pool + self.deck
        self.reshuffles += 1

    def copy(self) -> CardPiles:
        return CardPiles(
            deck=list(self.deck),
            hands={k: list(v) for k, v in self.hands.items()},
            discards={k: list(v) for k, v in self.discards.items()},
            seed=self.seed,
            reshuffles=self.reshuffles,
        )

    def to_json(self) -> dict:
        return {
            "deck_size": len(self.deck),
            "hands": {k: [c.text for c in v] for k, v in self.hands.items()},
            "discards": {k: [c.text for c in v] for k, v in self.discards.items()},
            "reshuffles": self.reshuffles,
        }
