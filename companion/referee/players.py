"""Players, sides and setup validation (RULES.md section 1.1: player counts, teams, seating)."""

from __future__ import annotations

from dataclasses import dataclass

COLORS = ("blue", "green", "red")
COLOR_LETTERS = {"blue": "B", "green": "G", "red": "R"}


class CodedError(ValueError):
    """An error with a machine-readable ``code`` and a ``message`` that says what to do."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class SetupError(CodedError):
    """A game that cannot be set up."""


@dataclass(frozen=True, slots=True)
class Player:
    """A seat at the table: a name and the chip colour of the player's side."""

    name: str
    color: str

    @property
    def team(self) -> str:
        return self.color

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "team": self.color}

    def __repr__(self) -> str:
        return f"Player({self.name!r}, {self.color!r})"


def validate_players(players: list[Player], allowed_counts: tuple[int, ...]) -> list[str]:
    """Check count, names, colours and seating; return the side colours in turn order.

    Up to 3 players play alone; more play in 2 or 3 equal teams whose members alternate around
    the table. Two sides use blue and green; red only for a third side.
    """
    counts = ", ".join(str(n) for n in allowed_counts)
    n = len(players)
    if n not in allowed_counts:
        raise SetupError(
            "player_count",
            f"{n} player{'s' if n != 1 else ''} cannot play this game; allowed player counts: {counts}",
        )
    names = [p.name for p in players]
    if any(not isinstance(name, str) or not name.strip() for name in names):
        raise SetupError("player_name", "every player needs a non-empty name")
    dupes = sorted({name for name in names if names.count(name) > 1})
    if dupes:
        raise SetupError("player_name", f"player names must differ; repeated: {', '.join(dupes)}")
    bad = sorted({str(p.color) for p in players if p.color not in COLORS})
    if bad:
        raise SetupError(
            "team_color", f"unknown chip colour(s) {bad}; teams are blue, green and red"
        )
    sides: list[str] = []
    for p in players:
        if p.color not in sides:
            sides.append(p.color)
    if len(sides) not in (2, 3):
        raise SetupError(
            "team_count",
            f"{len(sides)} side(s) found; play with 2 or 3 players or teams "
            "(up to 3 players play alone, more play in 2 or 3 equal teams)",
        )
    if n <= 3 and len(sides) != n:
        raise SetupError("team_count", f"with {n} players everyone plays alone in their own colour")
    if len(sides) == 2 and "red" in sides:
        raise SetupError(
            "team_color", "two sides play blue and green; red is only for a third side"
        )
    sizes = {color: sum(p.color == color for p in players) for color in sides}
    if len(set(sizes.values())) != 1:
        shown = ", ".join(f"{c} {k}" for c, k in sizes.items())
        raise SetupError("team_sizes", f"teams must be equal in size; got {shown}")
    for i, p in enumerate(players):
        if p.color != sides[i % len(sides)]:
            order = ", ".join(sides)
            raise SetupError(
                "seating",
                f"teammates must alternate around the table ({order}, {order}, ...); "
                f"seat {i + 1} ({p.name}) is {p.color} but should be {sides[i % len(sides)]}",
            )
    return sides
