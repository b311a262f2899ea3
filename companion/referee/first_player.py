"""Who starts: the cut for the deal (RULES.md edge 21, option ``first_player_rule``).

Each player cuts one card; aces are high and suits do not matter. The official rule (and Seed A):
the lowest card deals and the player to the dealer's left starts (turn order is clockwise, i.e.
the seating order of ``players``). Third-party variants let the lowest or the highest card start
directly. Players who tie for the deciding card cut again; pass every round of cuts in order
(later rounds list only the tied players).

>>> from companion.referee.players import Player
>>> seats = [Player("Ann", "blue"), Player("Bo", "green")]
>>> [p.name for p in seat_by_cut(seats, {"Ann": "3H", "Bo": "KS"}).players]
['Bo', 'Ann']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.referee.cards import RANKS, CardError, parse_classic_card
from companion.referee.options import FIRST_PLAYER_RULES
from companion.referee.players import Player, SetupError

# Aces high: 2 lowest, then 3..10, J, Q, K, A.
_ACES_HIGH = {rank: i for i, rank in enumerate(RANKS[1:] + RANKS[:1])}


@dataclass(frozen=True)
class CutResult:
    """The seating rotated so that the starting player sits first, and who dealt."""

    players: list[Player]
    starter: str
    dealer: str | None  # None under lowest_starts / highest_starts (no dealer is decided)


def cut_value(text: str) -> int:
    """Rank of a cut card, aces high (2 -> 0 ... A -> 12; a jack is an ordinary rank between
    10 and Q); raises SetupError for a non-card."""
    try:
        card = parse_classic_card(text)
    except (CardError, TypeError) as exc:
        raise SetupError("cut", f"cut card {text!r}: {exc}") from None
    return _ACES_HIGH[card.text[0]]


def _decide(names: list[str], rounds: Sequence[Mapping[str, str]], lowest: bool) -> str:
    """The one player among ``names`` who cuts lowest (or highest), re-cutting ties."""
    contenders = list(names)
    for number, cuts in enumerate(rounds, start=1):
        if not isinstance(cuts, Mapping):
            raise SetupError("cut", f"cut round {number} must map player name to card")
        missing = [n for n in contenders if n not in cuts]
        if missing:
            raise SetupError("cut", f"cut round {number}: no card for {', '.join(missing)}")
        extra = sorted(set(cuts) - set(contenders))
        if extra:
            raise SetupError(
                "cut",
                f"cut round {number}: only {', '.join(contenders)} cut in this round, "
                f"not {', '.join(map(str, extra))}",
            )
        values = {n: cut_value(cuts[n]) for n in contenders}
        best = min(values.values()) if lowest else max(values.values())
        contenders = [n for n in contenders if values[n] == best]
        if len(contenders) == 1:
            return contenders[0]
    raise SetupError(
        "cut_tie",
        f"{' and '.join(contenders)} tied in the cut; they cut again (add another round)",
    )


def seat_by_cut(
    players: Sequence[Player],
    cuts: Mapping[str, str] | Sequence[Mapping[str, str]],
    rule: str = "dealer_left",
) -> CutResult:
    """Rotate ``players`` (clockwise seating) so the player the cut picks to start sits first."""
    if rule not in FIRST_PLAYER_RULES:
        raise SetupError(
            "option", f"first_player_rule is one of {', '.join(FIRST_PLAYER_RULES)}, not {rule!r}"
        )
    rounds = [cuts] if isinstance(cuts, Mapping) else list(cuts)
    if not rounds:
        raise SetupError("cut", "the cut needs at least one round of cards")
    names = [p.name for p in players]
    unknown = sorted(set(rounds[0]) - set(names), key=str)
    if unknown:
        raise SetupError("cut", f"cut card for unknown player(s): {', '.join(map(str, unknown))}")
    chosen = _decide(names, rounds, lowest=rule != "highest_starts")
    index = names.index(chosen)
    dealer = None
    if rule == "dealer_left":
        dealer = chosen
        index = (index + 1) % len(names)
    seated = list(players[index:]) + list(players[:index])
    return CutResult(players=seated, starter=seated[0].name, dealer=dealer)
