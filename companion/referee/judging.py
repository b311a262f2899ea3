"""Judging one move: the checks behind every ruling, in the order the rules apply them.

``MoveJudge`` is the rule-checking half of :class:`companion.referee.game.Game`: it reads the game
state and returns a :class:`Plan` (the ruling plus what to change) without changing anything;
``Game.push`` applies the plan only when the ruling is legal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from companion.cells import CORNERS, Cell, CellError, cell_name
from companion.referee.cards import Card, CardError
from companion.referee.hands import CardPiles
from companion.referee.layout import Layout
from companion.referee.moves import CHOOSE, DEAD, DISCARD, DRAW, PASS, PLACE, TABLE_TALK, Move
from companion.referee.options import Rules
from companion.referee.players import Player
from companion.referee.rulings import Ruling
from companion.referee.sequences import (
    Line,
    compatible,
    direction_of,
    index,
    is_line,
    new_sequences,
    owns,
    reading_order,
)


@dataclass(frozen=True)
class Plan:
    """A ruling and what applying the move changes (only used when the ruling is legal)."""

    ruling: Ruling
    move: Move
    color: str | None = None
    card: Card | None = None
    new_lines: tuple[Line, ...] = ()
    broken: tuple[Line, ...] = ()
    chosen: tuple[Line, Line] | None = None  # (replaced, declared)


class MoveJudge:
    """Rule checks shared by Game; the attributes below are the game state they read."""

    players: list[Player]
    sides: list[str]
    rules: Rules
    layout: Layout
    piles: CardPiles | None
    sequences_needed: int
    _by_name: dict[str, Player]
    _board: list[str | None]
    _sequences: dict[str, list[Line]]
    _locked: Counter[Cell]
    _rulings: list[Ruling]
    _pending: set[str]
    _lost: set[str]
    _dead_this_turn: int
    _winner: str | None
    _drawn: str | None

    # provided by Game
    to_move: Player
    color_to_move: str
    is_over: bool

    def parse_card(self, text: str | Card) -> Card:
        raise NotImplementedError

    def _normal_moves(self) -> list[Move]:
        raise NotImplementedError

    def open_cells(self) -> list[Cell]:
        raise NotImplementedError

    def _covered(self, cell: Cell) -> bool:
        return self._board[index(cell)] is not None

    def _ruling(self, legal: bool, code: str, message: str, rule: str, move: Move,
                color: str | None = None, lines: Iterable[Line] = ()) -> Ruling:  # fmt: skip
        return Ruling(
            move_number=len(self._rulings) + 1,
            legal=legal,
            code=code,
            message=message,
            rule=rule,
            new_sequences=[[cell_name(c) for c in line] for line in lines],
            player=move.player,
            color=color or move.color,
        )

    def _refuse(
        self, move: Move, code: str, message: str, rule: str, color: str | None = None
    ) -> Plan:
        return Plan(self._ruling(False, code, message, rule, move, color), move)

    def _jack_rule(self, card: Card | None, removing: bool) -> str:
        if card is None:
            return "board.camera_move"
        numbers = self.layout.card_style == "numbers"
        if removing:
            return "numbers.minus" if numbers else "jacks.one_eyed"
        return "numbers.plus" if numbers else "jacks.two_eyed"

    def _plan(self, move: Move) -> Plan:
        if move.kind == CHOOSE:
            return self._plan_choose(move)
        if move.kind == TABLE_TALK:
            return self._plan_table_talk(move)
        who = move.player or move.color or "?"
        if self.is_over:
            if self._winner:
                why, rule = f"{self._winner} has won", "game.over"
            elif self._drawn == "board_full":
                why, rule = "the board is full (no winner)", "board.full_no_winner"
            else:
                why, rule = "the deck ran out (no winner)", "deck.exhausted_end"
            return self._refuse(move, "game_over", f"The game is over: {why}.", rule)
        player: Player | None = None
        if move.player is not None:
            player = self._by_name.get(move.player)
            if player is None:
                names = ", ".join(self._by_name)
                return self._refuse(
                    move, "unknown_player",
                    f"{move.player!r} is not playing; the players are {names}.", "player.unknown",
                )  # fmt: skip
            if move.color is not None and move.color != player.color:
                return self._refuse(
                    move, "unknown_player",
                    f"{player.name} plays {player.color}, not {move.color}.", "player.unknown",
                )  # fmt: skip
        elif move.color not in self.sides:
            return self._refuse(
                move, "unknown_player",
                f"No side plays {move.color}; this game's colours are {', '.join(self.sides)}.",
                "player.unknown",
            )  # fmt: skip
        color = player.color if player else move.color
        if move.kind == DRAW:
            return self._plan_draw(move, player)  # type: ignore[arg-type]
        if (player is not None and player != self.to_move) or (
            player is None and color != self.color_to_move
        ):
            mover = self.to_move
            return self._refuse(
                move, "out_of_turn",
                f"It is {mover.name}'s turn ({mover.color}), not {who}'s.", "turn.order", color,
            )  # fmt: skip
        card: Card | None = None
        if move.card is not None:
            try:
                card = self.parse_card(move.card)
            except CardError as exc:
                return self._refuse(move, "unknown_card", f"{exc}.", "card.unknown", color)
            if (
                self.piles is not None
                and player is not None
                and not self.piles.holds(player.name, card)
            ):
                return self._refuse(
                    move, "not_in_hand", f"{player.name} does not hold {card.symbol}.",
                    "hand.card_in_hand", color,
                )  # fmt: skip
        if move.kind == DEAD:
            return self._plan_dead(move, card, color)  # type: ignore[arg-type]
        if move.kind in (DISCARD, PASS):
            return self._plan_no_move(move, card, color)  # type: ignore[arg-type]
        cell = move.cell
        assert cell is not None
        name = cell_name(cell)
        if move.kind == PLACE:
            return self._plan_place(move, card, color, cell, name)  # type: ignore[arg-type]
        return self._plan_remove(move, card, color, cell, name)  # type: ignore[arg-type]

    def _plan_place(self, move: Move, card: Card | None, color: str, cell: Cell, name: str) -> Plan:
        who = move.player or color.capitalize()
        if cell in CORNERS:
            return self._refuse(
                move, "corner", f"{name} is a free corner: it counts for every side and takes no chip.",
                "corners.free", color,
            )  # fmt: skip
        if card is not None and card.is_remove:
            return self._refuse(
                move, "wrong_jack",
                f"{card.describe()} removes an opponent chip; it cannot place one.",
                self._jack_rule(card, True), color,
            )  # fmt: skip
        if card is not None and card.is_plain and cell not in self.layout.cells_for(card):
            spots = " and ".join(cell_name(c) for c in self.layout.cells_for(card))
            return self._refuse(
                move, "cell_mismatch",
                f"{card.symbol} is not printed on {name}; it is on {spots}.",
                "play.matching_cell", color,
            )  # fmt: skip
        occupant = self._board[index(cell)]
        if occupant is not None:
            return self._refuse(
                move, "cell_occupied", f"{name} already holds a {occupant} chip.",
                "play.open_cell", color,
            )  # fmt: skip
        self._board[index(cell)] = color
        try:
            lines = new_sequences(
                self._board, color, cell, self._sequences[color],
                length=self.rules.sequence_length, overlap=self.rules.overlap,
                corners_free=self.rules.corners_free,
            )  # fmt: skip
        finally:
            self._board[index(cell)] = None
        if card is None:
            action, rule = (
                f"{color.capitalize()} placed a chip on {name} (card not seen)",
                "board.camera_move",
            )
        elif card.is_wild:
            action, rule = f"{who} plays {card.describe()} on {name}", self._jack_rule(card, False)
        else:
            action, rule = f"{who} plays {card.symbol} on {name}", "play.matching_cell"
        message = action + "."
        if lines:
            total = len(self._sequences[color]) + len(lines)
            made = "a Sequence" if len(lines) == 1 else f"{len(lines)} Sequences"
            message = f"{action} and completes {made} ({total} of {self.sequences_needed} needed)."
            rule = "sequence.five"
            if total >= self.sequences_needed:
                message += f" {color.capitalize()} wins."
                rule = "win.sequences"
        if (
            rule != "win.sequences"
            and self.rules.full_board == "draw"
            and len(self.open_cells()) == 1  # the space just filled was the last open one
        ):
            message += " The board is now full and nobody has won: the game ends."
            rule = "board.full_no_winner"
        ruling = self._ruling(True, "ok", message, rule, move, color, lines)
        return Plan(ruling, move, color, card, tuple(lines))

    def _plan_remove(
        self, move: Move, card: Card | None, color: str, cell: Cell, name: str
    ) -> Plan:
        who = move.player or color.capitalize()
        rule = self._jack_rule(card, True)
        if cell in CORNERS:
            return self._refuse(
                move, "corner", f"{name} is a free corner: there is no chip to remove.",
                "corners.free", color,
            )  # fmt: skip
        if card is not None and not card.is_remove:
            return self._refuse(
                move, "wrong_jack",
                f"Only a one-eyed jack removes a chip; {card.describe()} cannot."
                if self.layout.card_style == "classic"
                else f"Only a MINUS card removes a chip; {card.describe()} cannot.",
                rule, color,
            )  # fmt: skip
        occupant = self._board[index(cell)]
        if occupant is None:
            return self._refuse(
                move, "remove_empty", f"{name} is empty: nothing to remove.", rule, color
            )
        if occupant == color:
            return self._refuse(
                move, "remove_own", f"The chip on {name} is {color}'s own; only opponent chips can be removed.",
                rule, color,
            )  # fmt: skip
        broken: tuple[Line, ...] = ()
        if cell in self._locked:
            if not self.rules.one_eyed_can_break_sequences:
                return self._refuse(
                    move, "remove_locked",
                    f"The {occupant} chip on {name} is part of a completed Sequence and cannot be removed.",
                    "sequence.locked", color,
                )  # fmt: skip
            broken = tuple(line for line in self._sequences[occupant] if cell in line)
            rule = "sequence.broken_by_house_rule"
        if card is None:
            action = f"{color.capitalize()} removed the {occupant} chip from {name} (card not seen)"
        else:
            action = f"{who} plays {card.describe()} and removes the {occupant} chip from {name}"
        if broken:
            action += ", breaking a Sequence"
        ruling = self._ruling(True, "ok", action + ".", rule, move, color)
        return Plan(ruling, move, color, card, broken=broken)

    def _plan_dead(self, move: Move, card: Card | None, color: str) -> Plan:
        if card is None:
            return self._refuse(
                move,
                "unknown_card",
                "A dead-card exchange must name the card.",
                "card.unknown",
                color,
            )
        if not card.is_plain:
            return self._refuse(
                move, "not_dead", f"{card.describe()} is never dead.", "dead_card.exchange", color
            )
        open_cells = [cell_name(c) for c in self.layout.cells_for(card) if not self._covered(c)]
        if open_cells:
            return self._refuse(
                move, "not_dead",
                f"{card.symbol} is not dead: {' and '.join(open_cells)} "
                f"{'is' if len(open_cells) == 1 else 'are'} still open.",
                "dead_card.exchange", color,
            )  # fmt: skip
        limit = self.rules.dead_card_limit
        if limit is not None and self._dead_this_turn >= limit:
            return self._refuse(
                move, "dead_limit",
                f"{move.player} already exchanged {limit} dead card(s) this turn.",
                "dead_card.limit", color,
            )  # fmt: skip
        message = (
            f"{move.player} exchanges the dead card {card.symbol} for a new card and plays on."
        )
        return Plan(
            self._ruling(True, "ok", message, "dead_card.exchange", move, color), move, color, card
        )

    def _plan_no_move(self, move: Move, card: Card | None, color: str) -> Plan:
        """A player with no legal move discards any card and draws, or passes (edge 16)."""
        policy = self.rules.no_move_policy
        wanted = "discard_any" if move.kind == DISCARD else "pass"
        if policy != wanted:
            allowed = {
                "discard_any": "discard any card and draw",
                "pass": "pass",
                "none": "wait: this table allows neither discarding nor passing",
            }[policy]
            return self._refuse(
                move, "option_off",
                f"This table's rule for a player with no legal move is: {allowed}.",
                "turn.no_legal_move", color,
            )  # fmt: skip
        name = move.player
        if self.piles is not None:
            playable = self._normal_moves()
            if playable:
                example = playable[0]
                return self._refuse(
                    move, "has_legal_move",
                    f"{name} still has a legal move (for example {example}), so may not "
                    f"{'discard' if move.kind == DISCARD else 'pass'}.",
                    "turn.no_legal_move", color,
                )  # fmt: skip
            seen = ""
        else:
            seen = " (the referee cannot see the hand: accepted on the table's word)"
        if move.kind == DISCARD:
            message = f"{name} has no legal move, discards {card.symbol} and draws{seen}."  # type: ignore[union-attr]
        else:
            message = f"{name} has no legal move and passes{seen}."
        return Plan(
            self._ruling(True, "ok", message, "turn.no_legal_move", move, color), move, color, card
        )

    def _plan_draw(self, move: Move, player: Player) -> Plan:
        name = player.name
        if name in self._pending:
            message = f"{name} makes the forgotten draw in time."
            return Plan(
                self._ruling(True, "ok", message, "draw.forgotten", move, player.color),
                move,
                player.color,
            )
        if name in self._lost:
            return self._refuse(
                move, "draw_lost",
                f"Too late: the next player has already played and drawn, so {name} plays on with fewer cards.",
                "draw.forgotten", player.color,
            )  # fmt: skip
        return self._refuse(
            move,
            "nothing_to_draw",
            f"{name} has no forgotten draw to make.",
            "draw.forgotten",
            player.color,
        )

    def _plan_table_talk(self, move: Move) -> Plan:
        team = move.color
        if not self.rules.table_talk_penalty:
            return self._refuse(
                move, "option_off", "The table-talk penalty is switched off.", "table_talk.penalty"
            )
        if team not in self.sides:
            return self._refuse(move, "unknown_player", f"No team plays {team}.", "player.unknown")
        members = [p.name for p in self.players if p.color == team]
        given = dict(move.discards)
        strangers = sorted(set(given) - set(members))
        if strangers:
            return self._refuse(
                move, "penalty_discards",
                f"{', '.join(strangers)} is not on the {team} team ({', '.join(members)}).",
                "table_talk.penalty",
            )  # fmt: skip
        for name, text in given.items():
            try:
                card = self.parse_card(text)
            except CardError as exc:
                return self._refuse(move, "unknown_card", f"{name}: {exc}.", "card.unknown")
            if self.piles is not None and not self.piles.holds(name, card):
                return self._refuse(
                    move, "not_in_hand", f"{name} does not hold {card.symbol}.", "hand.card_in_hand"
                )
        if self.piles is not None:
            missing = [n for n in members if self.piles.hands[n] and n not in given]
            if missing:
                return self._refuse(
                    move, "penalty_discards",
                    f"Every member of the {team} team discards one card; missing: {', '.join(missing)}.",
                    "table_talk.penalty",
                )  # fmt: skip
        message = f"Table talk: every member of the {team} team discards one card of their choice."
        return Plan(self._ruling(True, "ok", message, "table_talk.penalty", move, team), move, team)

    def _plan_choose(self, move: Move) -> Plan:
        color = move.color
        if color not in self.sides:
            return self._refuse(move, "unknown_player", f"No side plays {color}.", "player.unknown")
        length = self.rules.sequence_length
        try:
            declared = reading_order(move.cells)
        except (CellError, TypeError):
            declared = tuple(move.cells)
        names = " ".join(cell_name(c) for c in declared)
        if not is_line(declared, length) or not all(
            owns(self._board, c, color, self.rules.corners_free) for c in declared
        ):
            return self._refuse(
                move, "bad_choice",
                f"{names} are not {length} {color} chips in one straight unbroken line.",
                "sequence.lock_choice", color,
            )  # fmt: skip
        direction = direction_of(declared)
        lines = self._sequences[color]
        same_line = [
            line
            for line in lines
            if direction_of(line) == direction
            and _collinear(line, declared)
            and set(line) & set(declared)
        ]
        if not same_line:
            return self._refuse(
                move, "bad_choice",
                f"{color} has no completed Sequence in that line to replace with {names}.",
                "sequence.lock_choice", color,
            )  # fmt: skip
        replaced = max(same_line, key=lambda line: len(set(line) & set(declared)))
        others = [line for line in lines if line != replaced]
        if not compatible(declared, others, self.rules.overlap):
            return self._refuse(
                move, "bad_choice",
                f"{names} would share too many chips with another {color} Sequence.",
                "sequence.lock_choice", color,
            )  # fmt: skip
        message = f"The table declares {names} as the locked {color} Sequence."
        ruling = self._ruling(True, "ok", message, "sequence.lock_choice", move, color)
        return Plan(ruling, move, color, chosen=(replaced, declared))


def _collinear(line: Line, declared: Line) -> bool:
    """True if two lines of one direction lie on the same straight line of the board."""
    dr, dc = direction_of(line)
    a, b = line[0], declared[0]
    diff = (b[0] - a[0], b[1] - a[1])  # a multiple of the direction when collinear
    return diff[0] * dc == diff[1] * dr
