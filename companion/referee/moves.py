"""Moves as fed to the referee: full moves (player + card) and camera-only board moves.

JSON forms (one per game-record entry)::

    {"player": "Ann", "card": "7S", "place": "B9"}      play a card, place a chip
    {"player": "Bo", "card": "JH", "remove": "B9"}      one-eyed jack removes a chip
    {"player": "Ann", "dead": "4C"}                     exchange a dead card
    {"color": "blue", "place": "E5"}                    camera saw a chip appear (card unknown)
    {"color": "green", "remove": "E5"}                  camera saw a chip vanish
    {"player": "Ann", "draw": true}                     a late draw after a forgotten one
    {"table_talk": "blue", "discards": {"Ann": "7S"}}   table-talk penalty on a team
    {"color": "blue", "choose": ["B1", ..., "F1"]}      the table declares which five lock
    {"player": "Ann", "discard": "7S"}                  no legal move: discard any card, draw
    {"player": "Ann", "pass": true}                     no legal move: pass (by option)

A play may carry ``"drew": false`` when the player forgot to draw.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.cells import Cell, CellError, cell_name, parse_cell
from companion.referee.players import COLORS

PLACE = "place"
REMOVE = "remove"
DEAD = "dead"
DRAW = "draw"
TABLE_TALK = "table_talk"
CHOOSE = "choose"
DISCARD = "discard"
PASS = "pass"
KINDS = (PLACE, REMOVE, DEAD, DRAW, TABLE_TALK, CHOOSE, DISCARD, PASS)


class MoveError(ValueError):
    """A move entry that cannot be read (raised as RecordError by record loading)."""


@dataclass(frozen=True)
class Move:
    """One move. ``cell`` is the target of place/remove; ``card`` is text (None when unknown)."""

    kind: str
    player: str | None = None
    color: str | None = None
    card: str | None = None
    cell: Cell | None = None
    cells: tuple[Cell, ...] = ()
    discards: tuple[tuple[str, str], ...] = ()
    drew: bool = True

    @property
    def place(self) -> Cell | None:
        return self.cell if self.kind == PLACE else None

    @property
    def remove(self) -> Cell | None:
        return self.cell if self.kind == REMOVE else None

    @property
    def is_board_only(self) -> bool:
        return self.kind in (PLACE, REMOVE) and self.card is None

    @classmethod
    def board_place(cls, color: str, cell: Cell | str) -> Move:
        """A chip of ``color`` appeared on ``cell`` (camera move; the card is unknown)."""
        return cls(PLACE, color=color, cell=parse_cell(cell))

    @classmethod
    def board_remove(cls, color: str, cell: Cell | str) -> Move:
        """A chip vanished from ``cell``; ``color`` is the side that removed it."""
        return cls(REMOVE, color=color, cell=parse_cell(cell))

    @classmethod
    def play(cls, player: str, card: str, cell: Cell | str, drew: bool = True) -> Move:
        return cls(PLACE, player=player, card=str(card), cell=parse_cell(cell), drew=drew)

    @classmethod
    def jack_remove(cls, player: str, card: str, cell: Cell | str, drew: bool = True) -> Move:
        return cls(REMOVE, player=player, card=str(card), cell=parse_cell(cell), drew=drew)

    @classmethod
    def dead_card(cls, player: str, card: str) -> Move:
        return cls(DEAD, player=player, card=str(card))

    @classmethod
    def discard(cls, player: str, card: str) -> Move:
        """No legal move: discard ``card`` and draw (option no_move_policy=discard_any)."""
        return cls(DISCARD, player=player, card=str(card))

    @classmethod
    def pass_turn(cls, player: str) -> Move:
        """No legal move: pass (option no_move_policy=pass)."""
        return cls(PASS, player=player)

    @classmethod
    def late_draw(cls, player: str) -> Move:
        return cls(DRAW, player=player)

    @classmethod
    def table_talk(cls, color: str, discards: dict[str, str] | None = None) -> Move:
        items = tuple((str(k), str(v)) for k, v in (discards or {}).items())
        return cls(TABLE_TALK, color=color, discards=items)

    @classmethod
    def choose(cls, color: str, cells: list[Cell | str]) -> Move:
        return cls(CHOOSE, color=color, cells=tuple(parse_cell(c) for c in cells))

    @classmethod
    def from_json(cls, data: Any) -> Move:
        """Read one record entry; raises MoveError saying what is wrong."""
        if not isinstance(data, dict):
            raise MoveError(f"a move is a JSON object, not {type(data).__name__}")
        player = data.get("player")
        color = data.get("color")
        if player is not None and (not isinstance(player, str) or not player):
            raise MoveError(f"'player' must be a name, not {player!r}")
        if color is not None and color not in COLORS:
            raise MoveError(f"'color' must be one of {', '.join(COLORS)}, not {color!r}")
        drew = data.get("drew", True)
        if not isinstance(drew, bool):
            raise MoveError(f"'drew' is true or false, not {drew!r}")
        card = data.get("card")
        if card is not None and not isinstance(card, str):
            raise MoveError(f"'card' must be text such as '7S', not {card!r}")
        actions = [k for k in KINDS if k in data]
        if len(actions) != 1:
            raise MoveError(
                f"a move needs exactly one of {', '.join(repr(k) for k in KINDS)}; "
                f"got {actions or 'none'}"
            )
        action = actions[0]
        try:
            if action in (PLACE, REMOVE):
                if player is None and color is None:
                    raise MoveError(f"a '{action}' move needs a 'player' or a 'color'")
                return cls(
                    action, player=player, color=color, card=card,
                    cell=parse_cell(data[action]), drew=drew,
                )  # fmt: skip
            if action == DEAD:
                if player is None or not isinstance(data["dead"], str):
                    raise MoveError("a dead-card exchange needs 'player' and the card in 'dead'")
                return cls(DEAD, player=player, color=color, card=data["dead"])
            if action == DRAW:
                if player is None or data["draw"] is not True:
                    raise MoveError('a late draw is {"player": NAME, "draw": true}')
                return cls(DRAW, player=player)
            if action == DISCARD:
                if player is None or not isinstance(data["discard"], str):
                    raise MoveError('a discard is {"player": NAME, "discard": CARD}')
                return cls(DISCARD, player=player, color=color, card=data["discard"])
            if action == PASS:
                if player is None or data["pass"] is not True:
                    raise MoveError('a pass is {"player": NAME, "pass": true}')
                return cls(PASS, player=player, color=color)
            if action == TABLE_TALK:
                team = data["table_talk"]
                if team not in COLORS:
                    raise MoveError(f"'table_talk' names the team colour, not {team!r}")
                discards = data.get("discards") or {}
                if not isinstance(discards, dict) or not all(
                    isinstance(v, str) for v in discards.values()
                ):
                    raise MoveError("'discards' maps each player name to the card they discard")
                return cls.table_talk(team, discards)
            cells = data["choose"]
            if color is None or not isinstance(cells, list):
                raise MoveError('a declared sequence is {"color": C, "choose": [5 cells]}')
            return cls(CHOOSE, color=color, cells=tuple(parse_cell(c) for c in cells))
        except CellError as exc:
            raise MoveError(str(exc)) from None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.player is not None:
            out["player"] = self.player
        if self.kind == TABLE_TALK:
            out["table_talk"] = self.color
            if self.discards:
                out["discards"] = dict(self.discards)
            return out
        if self.color is not None:
            out["color"] = self.color
        if self.kind in (PLACE, REMOVE):
            if self.card is not None:
                out["card"] = self.card
            out[self.kind] = cell_name(self.cell)  # type: ignore[arg-type]
            if not self.drew:
                out["drew"] = False
        elif self.kind == DEAD:
            out["dead"] = self.card
        elif self.kind == DRAW:
            out["draw"] = True
        elif self.kind == DISCARD:
            out["discard"] = self.card
        elif self.kind == PASS:
            out["pass"] = True
        elif self.kind == CHOOSE:
            out["choose"] = [cell_name(c) for c in self.cells]
        return out

    def __str__(self) -> str:
        who = self.player or self.color or "?"
        if self.kind in (PLACE, REMOVE):
            card = f" {self.card}" if self.card else ""
            return f"{who}{card} {self.kind} {cell_name(self.cell)}"  # type: ignore[arg-type]
        if self.kind == DEAD:
            return f"{who} dead {self.card}"
        if self.kind == DISCARD:
            return f"{who} discard {self.card}"
        if self.kind == PASS:
            return f"{who} pass"
        if self.kind == CHOOSE:
            return f"{who} choose {' '.join(cell_name(c) for c in self.cells)}"
        if self.kind == TABLE_TALK:
            return f"table talk {self.color}"
        return f"{who} draw"

    def __repr__(self) -> str:
        return f"<Move {self}>"
