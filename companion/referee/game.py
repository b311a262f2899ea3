"""The referee: a game of Sequence that rules on moves, python-chess style.

>>> game = Game.default()
>>> game.push(Move.play("Blue", "2S", "B1")).legal
True
>>> game.color_to_move
'green'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from companion.cells import CORNERS, SIZE, Cell, CellError, cell_name, parse_cell
from companion.referee.cards import Card, CardError
from companion.referee.hands import CardPiles
from companion.referee.layout import Layout, LayoutError, classic_layout, layout_from_data
from companion.referee.layout import numbers_layout as load_numbers_layout
from companion.referee.moves import CHOOSE, DEAD, DRAW, PLACE, REMOVE, TABLE_TALK, Move
from companion.referee.options import OptionError, Rules, rules_for
from companion.referee.players import COLOR_LETTERS, Player, SetupError, validate_players
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


@dataclass
class _Undo:
    """What push changed, so pop can restore it exactly."""

    journal_len: int
    rulings_len: int
    turn: int
    dead_this_turn: int
    winner: str | None
    drawn: bool
    pending: frozenset[str]
    lost: frozenset[str]
    cell: Cell | None
    old_chip: str | None
    sequences: dict[str, list[Line]] | None
    piles: CardPiles | None


@dataclass(frozen=True)
class _Plan:
    ruling: Ruling
    move: Move
    color: str | None = None
    card: Card | None = None
    new_lines: tuple[Line, ...] = ()
    broken: tuple[Line, ...] = ()
    chosen: tuple[Line, Line] | None = None  # (replaced, declared)


def _coerce_players(players: Iterable[Any] | None) -> list[Player]:
    if players is None:
        return [Player("Blue", "blue"), Player("Green", "green")]
    out: list[Player] = []
    for p in players:
        if isinstance(p, Player):
            out.append(p)
        elif isinstance(p, dict):
            out.append(Player(p.get("name"), p.get("team", p.get("color"))))  # type: ignore[arg-type]
        elif isinstance(p, list | tuple) and len(p) == 2:
            out.append(Player(p[0], p[1]))
        else:
            raise SetupError("player", f"{p!r} is not a player; use {{'name': ..., 'team': ...}}")
    return out


class Game:
    """A game in progress: board, sequences, turn, and every ruling so far.

    ``Game(players, variant, options)`` raises SetupError (``code``, ``message``) for a setup the
    rules do not allow. Pass ``deck`` (card texts, top first) or ``seed`` to also model the hands,
    draw deck and discard piles (full-information play).
    """

    def __init__(
        self,
        players: Iterable[Player | dict | tuple] | None = None,
        variant: str = "classic",
        options: dict[str, Any] | None = None,
        *,
        deck: list[str] | None = None,
        seed: int | None = None,
    ) -> None:
        self.players: list[Player] = _coerce_players(players)
        self.variant = variant
        self.options: dict[str, Any] = dict(options or {})
        try:
            self.rules: Rules = rules_for(variant, self.options)
        except OptionError as exc:
            raise SetupError("option", str(exc)) from None
        self.layout: Layout = _layout_for(self.rules)
        self.sides: list[str] = validate_players(self.players, self.rules.player_counts)
        self._by_name = {p.name: p for p in self.players}
        self.sequences_needed: int = self.rules.needed_for(len(self.sides), len(self.players))
        self._board: list[str | None] = [None] * (SIZE * SIZE)
        self._sequences: dict[str, list[Line]] = {c: [] for c in self.sides}
        self._locked: Counter[Cell] = Counter()
        self._turn = 0
        self._dead_this_turn = 0
        self._winner: str | None = None
        self._drawn = False
        self._pending: set[str] = set()
        self._lost: set[str] = set()
        self._journal: list[Move] = []
        self._moves: list[Move] = []
        self._rulings: list[Ruling] = []
        self._undo: list[_Undo] = []
        self._deck_texts = list(deck) if deck is not None else None
        self._seed = seed
        self.piles: CardPiles | None = None
        if deck is not None or seed is not None:
            self.piles = self._deal(deck, seed)

    # ----------------------------------------------------------------- construction helpers
    @classmethod
    def default(cls) -> Game:
        """Two players, blue ("Blue") then green ("Green"), classic rules, no hands modelled."""
        return cls()

    def _deal(self, deck: list[str] | None, seed: int | None) -> CardPiles:
        full = self.layout.full_deck()
        if deck is None:
            import random

            cards = list(full)
            random.Random(seed).shuffle(cards)
        else:
            cards = []
            for i, text in enumerate(deck):
                try:
                    cards.append(self.layout.parse_card(text))
                except CardError as exc:
                    raise SetupError("deck", f"deck card {i + 1}: {exc}") from None
            want, got = Counter(c.text for c in full), Counter(c.text for c in cards)
            if want != got:
                missing = sorted((want - got).elements())
                extra = sorted((got - want).elements())
                raise SetupError(
                    "deck",
                    f"the deck must hold every card of the game exactly as often as it exists "
                    f"({len(full)} cards); missing {missing[:8]}, extra {extra[:8]}",
                )
        size = self.rules.hand_sizes.get(len(self.players))
        if size is None:
            raise SetupError(
                "hand_size", f"no hand size for {len(self.players)} players; set option hand_sizes"
            )
        return CardPiles.deal(cards, [p.name for p in self.players], size, seed)

    # ----------------------------------------------------------------- state
    @property
    def to_move(self) -> Player:
        return self.players[self._turn]

    @property
    def color_to_move(self) -> str:
        return self.players[self._turn].color

    @property
    def moves(self) -> list[Move]:
        """Moves applied so far (legal ones), oldest first."""
        return list(self._moves)

    @property
    def rulings(self) -> list[Ruling]:
        """Every ruling given by push, legal or not, oldest first."""
        return list(self._rulings)

    @property
    def journal(self) -> list[Move]:
        """Every move pushed, legal or not (what a game record stores)."""
        return list(self._journal)

    @property
    def sequences(self) -> dict[str, list[tuple[Cell, ...]]]:
        return {c: list(lines) for c, lines in self._sequences.items()}

    def sequence_counts(self) -> dict[str, int]:
        return {c: len(lines) for c, lines in self._sequences.items()}

    @property
    def locked_cells(self) -> set[Cell]:
        return set(self._locked)

    @property
    def winner(self) -> str | None:
        return self._winner

    @property
    def is_over(self) -> bool:
        return self._winner is not None or self._drawn

    @property
    def pending_draws(self) -> set[str]:
        """Players who forgot to draw and may still do so."""
        return set(self._pending)

    def chip_at(self, cell: Cell | str) -> str | None:
        cell = parse_cell(cell)
        if cell in CORNERS:
            return "corner"
        return self._board[index(cell)]

    def board_strings(self) -> list[str]:
        """10 strings of ``*.BGR`` (row 1 first): corners ``*``, empty ``.``, chip letters."""
        rows = []
        for r in range(SIZE):
            row = []
            for c in range(SIZE):
                if (r, c) in CORNERS:
                    row.append("*")
                else:
                    chip = self._board[r * SIZE + c]
                    row.append(COLOR_LETTERS[chip] if chip else ".")
            rows.append("".join(row))
        return rows

    def parse_card(self, text: str | Card) -> Card:
        """Card text of this game's board -> Card; raises CardError."""
        return self.layout.parse_card(text)

    def _covered(self, cell: Cell) -> bool:
        return self._board[index(cell)] is not None

    def is_dead(self, card: str | Card) -> bool:
        card = self.parse_card(card)
        cells = self.layout.cells_for(card)
        return card.is_plain and bool(cells) and all(self._covered(c) for c in cells)

    def dead_cards(self, player: str | None = None) -> list[Card]:
        """Cards both of whose spaces are covered (jacks never); in ``player``'s hand if given."""
        if player is not None and self.piles is not None:
            seen: dict[str, Card] = {}
            for card in self.piles.hands.get(player, ()):
                if card.text not in seen and self.is_dead(card):
                    seen[card.text] = card
            return list(seen.values())
        dead = []
        for face, cells in self.layout.cells_by_face.items():
            if all(self._covered(c) for c in cells):
                dead.append(self.layout.parse_card_text(face))
        return dead

    def removable_cells(self, color: str) -> list[Cell]:
        """Opponent chips that ``color`` may remove with a one-eyed jack now."""
        out = []
        for i, chip in enumerate(self._board):
            if chip is None or chip == color:
                continue
            cell = (i // SIZE, i % SIZE)
            if cell in self._locked and not self.rules.one_eyed_can_break_sequences:
                continue
            out.append(cell)
        return out

    def open_cells(self) -> list[Cell]:
        return [
            (i // SIZE, i % SIZE)
            for i, chip in enumerate(self._board)
            if chip is None and (i // SIZE, i % SIZE) not in CORNERS
        ]

    def card_cells(self, card: str | Card) -> list[Cell]:
        """Cells ``card`` may take now for the side to move: open matching spaces for a plain
        card, every open space for a wild card, removable opponent chips for a remove card."""
        card = self.parse_card(card)
        if card.is_wild:
            return self.open_cells()
        if card.is_remove:
            return self.removable_cells(self.color_to_move)
        return [c for c in self.layout.cells_for(card) if not self._covered(c)]

    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to move (from the hand when hands are modelled,
        else the camera moves of the colour to move)."""
        if self.is_over:
            return []
        player = self.to_move
        moves: list[Move] = []
        if self.piles is None:
            moves += [Move.board_place(player.color, c) for c in self.open_cells()]
            moves += [
                Move.board_remove(player.color, c) for c in self.removable_cells(player.color)
            ]
            return moves
        limit = self.rules.dead_card_limit
        for card in dict.fromkeys(self.piles.hands[player.name]):
            if self.is_dead(card):
                if limit is None or self._dead_this_turn < limit:
                    moves.append(Move.dead_card(player.name, card.text))
                continue
            kind = REMOVE if card.is_remove else PLACE
            for cell in self.card_cells(card):
                moves.append(Move(kind, player=player.name, card=card.text, cell=cell))
        return moves

    # ----------------------------------------------------------------- judging
    def judge(self, move: Move) -> Ruling:
        """Rule on ``move`` without changing the game."""
        return self._plan(move).ruling

    def push(self, move: Move) -> Ruling:
        """Rule on ``move`` and apply it iff legal. The ruling is kept in ``rulings``."""
        plan = self._plan(move)
        undo = _Undo(
            journal_len=len(self._journal),
            rulings_len=len(self._rulings),
            turn=self._turn,
            dead_this_turn=self._dead_this_turn,
            winner=self._winner,
            drawn=self._drawn,
            pending=frozenset(self._pending),
            lost=frozenset(self._lost),
            cell=move.cell,
            old_chip=self._board[index(move.cell)] if move.cell is not None else None,
            sequences=None,
            piles=None,
        )
        self._journal.append(move)
        self._rulings.append(plan.ruling)
        if plan.ruling.legal:
            if plan.new_lines or plan.broken or plan.chosen:
                undo.sequences = {c: list(v) for c, v in self._sequences.items()}
            if self.piles is not None:
                undo.piles = self.piles.copy()
            self._apply(plan)
            self._moves.append(move)
            self._undo.append(undo)
        return plan.ruling

    def pop(self) -> Move:
        """Undo the last applied move (and forget rulings given after it). Raises IndexError."""
        if not self._undo:
            raise IndexError("no move to undo")
        undo = self._undo.pop()
        move = self._moves.pop()
        del self._journal[undo.journal_len :]
        del self._rulings[undo.rulings_len :]
        self._turn = undo.turn
        self._dead_this_turn = undo.dead_this_turn
        self._winner = undo.winner
        self._drawn = undo.drawn
        self._pending = set(undo.pending)
        self._lost = set(undo.lost)
        if undo.cell is not None and move.kind in (PLACE, REMOVE):
            self._board[index(undo.cell)] = undo.old_chip
        if undo.sequences is not None:
            self._sequences = undo.sequences
            self._locked = Counter(
                c
                for lines in self._sequences.values()
                for line in lines
                for c in line
                if c not in CORNERS
            )
        if undo.piles is not None:
            self.piles = undo.piles
        return move

    def choose_sequence(self, color: str, cells: Iterable[Cell | str]) -> Ruling:
        """The table declares which five chips of a long run are locked (pushes a move)."""
        return self.push(Move.choose(color, list(cells)))

    # ----------------------------------------------------------------- internals
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
    ) -> _Plan:
        return _Plan(self._ruling(False, code, message, rule, move, color), move)

    def _jack_rule(self, card: Card | None, removing: bool) -> str:
        if card is None:
            return "board.camera_move"
        numbers = self.layout.card_style == "numbers"
        if removing:
            return "numbers.minus" if numbers else "jacks.one_eyed"
        return "numbers.plus" if numbers else "jacks.two_eyed"

    def _plan(self, move: Move) -> _Plan:
        if move.kind == CHOOSE:
            return self._plan_choose(move)
        if move.kind == TABLE_TALK:
            return self._plan_table_talk(move)
        who = move.player or move.color or "?"
        if self.is_over:
            why = f"{self._winner} has won" if self._winner else "the deck ran out (no winner)"
            rule = "game.over" if self._winner else "deck.exhausted_end"
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
        cell = move.cell
        assert cell is not None
        name = cell_name(cell)
        if move.kind == PLACE:
            return self._plan_place(move, card, color, cell, name)  # type: ignore[arg-type]
        return self._plan_remove(move, card, color, cell, name)  # type: ignore[arg-type]

    def _plan_place(
        self, move: Move, card: Card | None, color: str, cell: Cell, name: str
    ) -> _Plan:
        who = move.player or color
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
            action, rule = f"{color} placed a chip on {name} (card not seen)", "board.camera_move"
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
        ruling = self._ruling(True, "ok", message, rule, move, color, lines)
        return _Plan(ruling, move, color, card, tuple(lines))

    def _plan_remove(
        self, move: Move, card: Card | None, color: str, cell: Cell, name: str
    ) -> _Plan:
        who = move.player or color
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
            action = f"{color} removed the {occupant} chip from {name} (card not seen)"
        else:
            action = f"{who} plays {card.describe()} and removes the {occupant} chip from {name}"
        if broken:
            action += ", breaking a Sequence"
        ruling = self._ruling(True, "ok", action + ".", rule, move, color)
        return _Plan(ruling, move, color, card, broken=broken)

    def _plan_dead(self, move: Move, card: Card | None, color: str) -> _Plan:
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
        return _Plan(
            self._ruling(True, "ok", message, "dead_card.exchange", move, color), move, color, card
        )

    def _plan_draw(self, move: Move, player: Player) -> _Plan:
        name = player.name
        if name in self._pending:
            message = f"{name} makes the forgotten draw in time."
            return _Plan(
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

    def _plan_table_talk(self, move: Move) -> _Plan:
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
        return _Plan(
            self._ruling(True, "ok", message, "table_talk.penalty", move, team), move, team
        )

    def _plan_choose(self, move: Move) -> _Plan:
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
        return _Plan(ruling, move, color, chosen=(replaced, declared))

    def _apply(self, plan: _Plan) -> None:
        move, color, card = plan.move, plan.color, plan.card
        if move.kind == CHOOSE:
            replaced, declared = plan.chosen  # type: ignore[misc]
            lines = self._sequences[color]  # type: ignore[index]
            lines[lines.index(replaced)] = declared
            self._relock()
            return
        if move.kind == TABLE_TALK:
            if self.piles is not None:
                for name, text in move.discards:
                    self.piles.discard(name, self.parse_card(text))
            return
        if move.kind == DRAW:
            self._pending.discard(move.player)  # type: ignore[arg-type]
            self._draw(move.player)  # type: ignore[arg-type]
            return
        if move.kind == DEAD:
            self._dead_this_turn += 1
            if self.piles is not None:
                self.piles.discard(move.player, card)  # type: ignore[arg-type]
                self._draw(move.player)  # type: ignore[arg-type]
            return
        cell = move.cell
        if move.kind == PLACE:
            self._board[index(cell)] = color  # type: ignore[arg-type]
            if plan.new_lines:
                self._sequences[color].extend(plan.new_lines)  # type: ignore[index]
                for line in plan.new_lines:
                    self._locked.update(c for c in line if c not in CORNERS)
                if len(self._sequences[color]) >= self.sequences_needed:  # type: ignore[index]
                    self._winner = color
        else:
            self._board[index(cell)] = None  # type: ignore[arg-type]
            if plan.broken:
                owner = next(c for c, lines in self._sequences.items() if plan.broken[0] in lines)
                self._sequences[owner] = [x for x in self._sequences[owner] if x not in plan.broken]
                self._relock()
        name = move.player
        if name is not None and card is not None:  # a card was played: discard it, then draw
            if self.piles is not None:
                self.piles.discard(name, card)
            if move.drew:
                if self.rules.forgotten_draw == "lost_after_next_play":
                    self._lost |= self._pending - {name}
                    self._pending &= {name}
                if self._winner is None:
                    self._draw(name)
            else:
                self._pending.add(name)
        self._turn = (self._turn + 1) % len(self.players)
        self._dead_this_turn = 0

    def _draw(self, name: str) -> None:
        if self.piles is None:
            return
        reshuffle = self.rules.deck_exhaustion == "reshuffle"
        if self.piles.draw(name, reshuffle=reshuffle) is None and not reshuffle:
            self._drawn = True

    def _relock(self) -> None:
        self._locked = Counter(
            c
            for lines in self._sequences.values()
            for line in lines
            for c in line
            if c not in CORNERS
        )

    # ----------------------------------------------------------------- records
    def to_record(self) -> dict[str, Any]:
        """The game record: setup plus every pushed move (legal or not), as JSON data."""
        record: dict[str, Any] = {
            "variant": self.variant,
            "options": dict(self.options),
            "players": [p.to_json() for p in self.players],
        }
        if self._deck_texts is not None:
            record["deck"] = list(self._deck_texts)
        elif self._seed is not None:
            record["seed"] = self._seed
        record["moves"] = [m.to_json() for m in self._journal]
        return record

    @classmethod
    def from_record(cls, data: Any) -> tuple[Game, list[Ruling]]:
        from companion.referee.record import game_from_record

        return game_from_record(data)

    # ----------------------------------------------------------------- display
    def status(self) -> str:
        counts = ", ".join(f"{c} {n}" for c, n in self.sequence_counts().items())
        if self._winner:
            head = f"{self._winner} wins"
        elif self._drawn:
            head = "game over, no winner"
        else:
            head = f"{self.to_move.name} ({self.color_to_move}) to move"
        return f"{head}; sequences: {counts} (need {self.sequences_needed})"

    def __str__(self) -> str:
        lines = ["    " + "  ".join("ABCDEFGHIJ")]
        locked = self._locked
        for r, row in enumerate(self.board_strings()):
            cells = []
            for c, ch in enumerate(row):
                cells.append(ch.lower() if (r, c) in locked and ch not in ".*" else ch)
            lines.append(f"{r + 1:>2}  " + "  ".join(cells))
        lines.append(self.status() + " (locked chips in lower case)")
        return "\n".join(lines)

    def __repr__(self) -> str:
        names = ", ".join(f"{p.name}:{p.color}" for p in self.players)
        return f"<Game {self.variant} [{names}] moves={len(self._moves)} {self.status()}>"


def _collinear(line: Line, declared: Line) -> bool:
    """True if two lines of one direction lie on the same straight line of the board."""
    dr, dc = direction_of(line)
    a, b = line[0], declared[0]
    diff = (b[0] - a[0], b[1] - a[1])  # a multiple of the direction when collinear
    return diff[0] * dc == diff[1] * dr


def _layout_for(rules: Rules) -> Layout:
    try:
        if rules.variant == "numbers":
            return load_numbers_layout(rules.layout)
        if rules.layout is None:
            return classic_layout()
        if isinstance(rules.layout, dict):
            return layout_from_data(rules.layout, card_style="classic", origin="options.layout")
        from companion.referee.layout import _read_json

        return layout_from_data(
            _read_json(rules.layout, rules.layout), card_style="classic", origin=str(rules.layout)
        )
    except LayoutError as exc:
        raise SetupError("layout", str(exc)) from None
