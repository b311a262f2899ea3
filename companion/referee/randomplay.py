"""Random legal games, seeded and reproducible: for the benchmark and for example records."""

from __future__ import annotations

import random
from typing import Any

from companion.referee.game import Game
from companion.referee.moves import PLACE, REMOVE, Move

DEFAULT_PLAYERS = {
    2: [("Ann", "blue"), ("Bo", "green")],
    3: [("Ann", "blue"), ("Bo", "green"), ("Cy", "red")],
    4: [("Ann", "blue"), ("Bo", "green"), ("Cy", "blue"), ("Di", "green")],
}


def random_move(game: Game, rng: random.Random) -> Move | None:
    """A random legal move for the player to move (hands must be modelled), or None if stuck.

    Dead cards in hand are exchanged when allowed; otherwise a random card with a target is
    played on a random target; a player with no move follows the option ``no_move_policy``.
    """
    player = game.to_move
    hand = game.piles.hands[player.name]  # type: ignore[union-attr]
    limit = game.rules.dead_card_limit
    may_exchange = limit is None or game._dead_this_turn < limit
    order = list(range(len(hand)))
    rng.shuffle(order)
    for i in order:
        card = hand[i]
        if card.is_plain and game.is_dead(card):
            if may_exchange:
                return Move.dead_card(player.name, card.text)
            continue
        cells = game.card_cells(card)
        if cells:
            kind = REMOVE if card.is_remove else PLACE
            return Move(kind, player=player.name, card=card.text, cell=rng.choice(cells))
    stuck = game.legal_moves()  # the no-move policy: discard any card (or pass)
    return rng.choice(stuck) if stuck else None


def play_random_game(
    seed: int,
    players: list[tuple[str, str]] | None = None,
    variant: str = "classic",
    options: dict[str, Any] | None = None,
    max_moves: int = 2000,
) -> Game:
    """Deal with ``seed`` and play random legal moves until a win, a stall or ``max_moves``."""
    rng = random.Random(seed)
    game = Game(players or DEFAULT_PLAYERS[2], variant, options, seed=seed)
    for _ in range(max_moves):
        if game.is_over:
            break
        move = random_move(game, rng)
        if move is None:
            break
        ruling = game.push(move)
        if not ruling.legal:  # a bug: random_move only proposes legal moves
            raise AssertionError(f"random legal move ruled illegal: {ruling}")
    return game
