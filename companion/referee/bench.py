"""``companion bench referee``: replay seeded random legal games through the referee.

Each game deals from ``random.Random(seed)`` with the hands modelled, then plays random legal
moves (dead-card exchanges, plain cards, both jacks) through ``Game.push`` until a side wins or
the player to move has no legal move. Same ``--seed`` and ``--games`` give the same games.
``games_per_s`` / ``moves_per_s`` include dealing and choosing the random moves;
``push_us_per_move`` is the referee alone (judging and applying one move, with its undo data).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time

from companion.referee.game import Game
from companion.referee.randomplay import DEFAULT_PLAYERS, random_move


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=10_000, help="games to play (default 10000)")
    parser.add_argument("--seed", type=int, default=0, help="first game's seed (default 0)")
    parser.add_argument(
        "--variant", default="classic", choices=("classic", "set5"), help="preset to play"
    )
    parser.add_argument(
        "--players", type=int, default=2, choices=sorted(DEFAULT_PLAYERS), help="players (2-4)"
    )
    parser.add_argument(
        "--max-moves", type=int, default=2000, help="stop a game after this many moves"
    )


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        print(json.dumps({"error": {"code": "bad_argument", "message": "--games must be >= 1"}}))
        return 2
    players = DEFAULT_PLAYERS[args.players]
    moves = placements = removals = sequences = 0
    push_seconds = 0.0
    winners: dict[str, int] = {}
    clock = time.perf_counter
    start = clock()
    for seed in range(args.seed, args.seed + args.games):
        rng = random.Random(seed)
        game = Game(players, args.variant, seed=seed)
        while not game.is_over and len(game.journal) < args.max_moves:
            move = random_move(game, rng)
            if move is None:  # the player to move has no legal move: the game stalls
                break
            before = clock()
            ruling = game.push(move)
            push_seconds += clock() - before
            if not ruling.legal:
                print(json.dumps({"error": {"code": "bug", "message": str(ruling)}}))
                return 1
        moves += len(game.journal)
        for move in game.moves:
            if move.kind == "place":
                placements += 1
            elif move.kind == "remove":
                removals += 1
        sequences += sum(game.sequence_counts().values())
        key = game.winner or "none"
        winners[key] = winners.get(key, 0) + 1
    elapsed = time.perf_counter() - start
    print(
        json.dumps(
            {
                "benchmark": "referee.random_games",
                "variant": args.variant,
                "players": args.players,
                "games": args.games,
                "first_seed": args.seed,
                "moves": moves,
                "placements": placements,
                "removals": removals,
                "sequences": sequences,
                "winners": winners,
                "seconds": round(elapsed, 3),
                "games_per_s": round(args.games / elapsed, 1),
                "moves_per_s": round(moves / elapsed, 1),
                "us_per_move": round(1e6 * elapsed / max(moves, 1), 2),
                "push_us_per_move": round(1e6 * push_seconds / max(moves, 1), 2),
                "push_seconds": round(push_seconds, 3),
                "python": platform.python_version(),
            }
        )
    )
    return 0
