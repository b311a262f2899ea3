"""Rule options and the presets ``classic``, ``set5`` and ``numbers`` (RULES.md, final table).

Every difference between the seeds is an option; a preset is a set of option values, and every
value can be overridden (``Game(variant="classic", options={"overlap": "crossing_only"})``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

CLASSIC_COUNTS = (2, 3, 4, 6, 8, 9, 10, 12)
OFFICIAL_HAND_SIZES = {2: 7, 3: 6, 4: 6, 6: 5, 8: 4, 9: 4, 10: 3, 12: 3}
NUMBERS_HAND_SIZES = {2: 5, 3: 5, 4: 4, 5: 4, 6: 4}

OVERLAPS = ("one_shared", "crossing_only", "none")
NEEDED_BY = ("sides", "players")
DECK_EXHAUSTION = ("reshuffle", "end_draw")
FORGOTTEN_DRAW = ("lost_after_next_play", "never_lost")
NO_MOVE_POLICY = ("discard_any", "pass", "none")
FULL_BOARD = ("play_on", "draw")
FIRST_PLAYER_RULES = ("dealer_left", "lowest_starts", "highest_starts")


class OptionError(ValueError):
    """An unknown option or a value the option does not take."""


@dataclass(frozen=True)
class Rules:
    """The rule options of one game. Build with :func:`rules_for`."""

    variant: str = "classic"
    overlap: str = "one_shared"  # one_shared (official, Seed A) | crossing_only (Seed B) | none
    sequences_needed: int | None = None  # None: derived with needed_by
    needed_by: str = "sides"  # sides: 2 sides need 2, 3 sides 1 | players: 2-3 need 1, 4-6 need 2
    sequence_length: int = 5
    corners_free: bool = True
    dead_card_limit: int | None = 1  # per turn; None = unlimited (Seed B)
    one_eyed_can_break_sequences: bool = False
    deck_exhaustion: str = "reshuffle"
    forgotten_draw: str = "lost_after_next_play"
    table_talk_penalty: bool = True
    no_move_policy: str = "discard_any"  # a player with no legal move: discard_any | pass | none
    full_board: str = "play_on"  # board full without a winner: play_on (jacks) | draw (game ends)
    # who starts after a cut (edge 21): lowest cut deals, dealer's left starts (official, Seed A)
    # | lowest cut starts (officialgamerules.org) | highest cut starts (eHow)
    first_player_rule: str = "dealer_left"
    player_counts: tuple[int, ...] = CLASSIC_COUNTS
    hand_sizes: dict[int, int] = field(default_factory=lambda: dict(OFFICIAL_HAND_SIZES))
    layout: str | dict | None = None  # None = the preset's packaged layout

    def needed_for(self, sides: int, players: int) -> int:
        if self.sequences_needed is not None:
            return self.sequences_needed
        if self.needed_by == "players":
            return 1 if players <= 3 else 2
        return 2 if sides == 2 else 1

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["player_counts"] = list(self.player_counts)
        data["hand_sizes"] = {str(k): v for k, v in self.hand_sizes.items()}
        data["dead_card_limit"] = (
            "unlimited" if self.dead_card_limit is None else self.dead_card_limit
        )
        return data


PRESETS: dict[str, Rules] = {
    # Official Jax rules and Seed A (Danish).
    "classic": Rules(),
    # Seed B (German "Set5"): crossing-only overlap, repeated dead-card exchange.
    "set5": Rules(variant="set5", overlap="crossing_only", dead_card_limit=None),
    # Seed C (Swedish, Sequence Numbers): 2-6 players, 1 or 2 sequences by players, 5/4 cards.
    "numbers": Rules(
        variant="numbers",
        needed_by="players",
        player_counts=(2, 3, 4, 6),
        hand_sizes=dict(NUMBERS_HAND_SIZES),
    ),
}

_CHOICES = {
    "overlap": OVERLAPS,
    "needed_by": NEEDED_BY,
    "deck_exhaustion": DECK_EXHAUSTION,
    "forgotten_draw": FORGOTTEN_DRAW,
    "no_move_policy": NO_MOVE_POLICY,
    "full_board": FULL_BOARD,
    "first_player_rule": FIRST_PLAYER_RULES,
}
_BOOLS = ("corners_free", "one_eyed_can_break_sequences", "table_talk_penalty")


def _positive_int(name: str, value: Any, low: int = 1, high: int = 99) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise OptionError(f"option {name!r} must be a whole number {low}..{high}, not {value!r}")
    return value


def rules_for(variant: str = "classic", options: dict[str, Any] | None = None) -> Rules:
    """The preset ``variant`` with ``options`` overriding its values; raises OptionError."""
    if variant not in PRESETS:
        raise OptionError(f"unknown variant {variant!r}; choose one of {', '.join(PRESETS)}")
    options = dict(options or {})
    known = {f.name for f in fields(Rules)} - {"variant"}
    unknown = sorted(set(options) - known)
    if unknown:
        raise OptionError(f"unknown option(s) {unknown}; known options: {', '.join(sorted(known))}")
    changes: dict[str, Any] = {}
    for name, value in options.items():
        if name in _CHOICES:
            if value not in _CHOICES[name]:
                raise OptionError(
                    f"option {name!r} is one of {', '.join(_CHOICES[name])}, not {value!r}"
                )
        elif name in _BOOLS:
            if not isinstance(value, bool):
                raise OptionError(f"option {name!r} is true or false, not {value!r}")
        elif name == "sequences_needed":
            if value is not None:
                _positive_int(name, value, 1, 12)
        elif name == "sequence_length":
            _positive_int(name, value, 3, 10)
        elif name == "dead_card_limit":
            if value in (None, "unlimited"):
                value = None
            else:
                _positive_int(name, value, 1, 10)
        elif name == "player_counts":
            if not isinstance(value, list | tuple) or not value:
                raise OptionError("option 'player_counts' is a list of player counts")
            value = tuple(_positive_int(name, v, 2, 12) for v in value)
        elif name == "hand_sizes":
            if not isinstance(value, dict):
                raise OptionError("option 'hand_sizes' maps player count to cards dealt")
            try:
                value = {int(k): _positive_int(name, v, 1, 20) for k, v in value.items()}
            except (TypeError, ValueError) as exc:
                raise OptionError(f"option 'hand_sizes': {exc}") from None
        elif name == "layout" and value is not None and not isinstance(value, str | dict):
            raise OptionError("option 'layout' is a file path or an inline layout object")
        changes[name] = value
    return replace(PRESETS[variant], **changes)
