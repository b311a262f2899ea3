"""The referee: a game of Sequence that rules on moves, python-chess style.

>>> game = Game.default()
>>> game.push(Move.play("Blue", "2S", "B1")).legal
True
>>> game.color_to_move
'green'
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from companion.cells import CORNERS, SIZE, Cell, parse_cell
from companion.referee.cards import Card, CardError
from companion.referee.hands import CardPiles
from companion.referee.judging import MoveJudge, Plan
from companion.referee.layout import Layout, LayoutError, classic_layout, layout_from_data
from companion.referee.layout import numbers_layout as load_numbers_layout
from companion.referee.moves import (
    CHOOSE,
    DEAD,
    DISCARD,
    DRAW,
    PASS,
    PLACE,
    REMOVE,
    TABLE_TALK,
    Move,
)
from companion.referee.options import OptionError, Rules, rules_for
from companion.referee.players import COLOR_LETTERS, Player, SetupError, validate_players
from companion.referee.rulings import Ruling
from companion.referee.sequences import Line, index


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended (python-chess style): ``winner`` is a colour or None."""

    termination: str  # "sequences" | "deck_exhausted" | "board_full"
    winner: str | None

    @property
    def result(self) -> str:
        return f"{self.winner} wins" if self.winner else "no winner"


@dataclass
class _Undo:
    """What push changed, so pop can restore it exactly."""

    journal_len: int
    rulings_len: int
    turn: int
    dead_this_turn: int
    winner: str | None
    drawn: str | None
    pending: frozenset[str]
    lost: frozenset[str]
    cell: Cell | None
    old_chip: str | None
    sequences: dict[str, list[Line]] | None
    piles: CardPiles | None


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


class Game(MoveJudge):
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
        self._drawn: str | None = None  # why the game ended without a winner
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

    def copy(self) -> Game:
        """An independent copy (same rules and layout objects, own board, history and cards)."""
        other = copy.copy(self)
        other._board = list(self._board)
        other._sequences = {c: list(v) for c, v in self._sequences.items()}
        other._locked = Counter(self._locked)
        other._pending, other._lost = set(self._pending), set(self._lost)
        other._journal, other._moves = list(self._journal), list(self._moves)
        other._rulings, other._undo = list(self._rulings), list(self._undo)
        other.piles = self.piles.copy() if self.piles is not None else None
        return other

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
        return self._winner is not None or self._drawn is not None

    def outcome(self) -> Outcome | None:
        """None while the game goes on, else how it ended."""
        if self._winner is not None:
            return Outcome("sequences", self._winner)
        if self._drawn is not None:
            return Outcome(self._drawn, None)
        return None

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
                dead.append(self.layout.parse_card(face))
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
        else the camera moves of the colour to move). A player with no move at all gets the
        discards (or the pass) of the option ``no_move_policy``."""
        moves = self._normal_moves()
        if moves or self.is_over or self.piles is None:
            return moves
        name = self.to_move.name
        if self.rules.no_move_policy == "discard_any":
            return [Move.discard(name, c.text) for c in dict.fromkeys(self.piles.hands[name])]
        if self.rules.no_move_policy == "pass":
            return [Move.pass_turn(name)]
        return []

    def _normal_moves(self) -> list[Move]:
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
        return self._plan(_checked(move)).ruling

    def push(self, move: Move) -> Ruling:
        """Rule on ``move`` and apply it iff legal. The ruling is kept in ``rulings``."""
        plan = self._plan(_checked(move))
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
            self._sequences = {
                c: list(v) for c, v in undo.sequences.items()
            }  # copies may share undo
            self._locked = Counter(
                c
                for lines in self._sequences.values()
                for line in lines
                for c in line
                if c not in CORNERS
            )
        if undo.piles is not None:
            self.piles = undo.piles.copy()
        return move

    def choose_sequence(self, color: str, cells: Iterable[Cell | str]) -> Ruling:
        """The table declares which five chips of a long run are locked (pushes a move)."""
        return self.push(Move.choose(color, list(cells)))

    # ----------------------------------------------------------------- applying
    def _apply(self, plan: Plan) -> None:
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
        if move.kind in (DISCARD, PASS):
            if self.piles is not None and card is not None:
                self.piles.discard(move.player, card)  # type: ignore[arg-type]
                self._draw(move.player)  # type: ignore[arg-type]
            self._turn = (self._turn + 1) % len(self.players)
            self._dead_this_turn = 0
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
            if self._winner is None and self.rules.full_board == "draw" and not self.open_cells():
                self._drawn = "board_full"
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
            self._drawn = "deck_exhausted"

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
            why = "the board is full" if self._drawn == "board_full" else "the deck ran out"
            head = f"game over, no winner ({why})"
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


def _checked(move: Any) -> Move:
    if not isinstance(move, Move):
        raise TypeError(
            f"the referee judges Move objects, not {type(move).__name__}; "
            "use Move.from_json(...), Move.play(...) or Move.board_place(...)"
        )
    return move


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
