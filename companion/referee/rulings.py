"""Rulings, ruling codes and the rule texts they cite.

``RULE_TEXTS`` (rule id -> English rule text with its source) and ``CODE_TEXTS`` (ruling code ->
short English explanation) are keyed by stable ids: the web layer translates them by id.
Sources: "official" = the Jax rules (RULES.md section 1.1); Seed A = Danish classic, Seed B =
German "Set5", Seed C = Swedish Sequence Numbers; "referee" = this referee's documented default
for a case the rules leave open (RULES.md section 2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

RULE_TEXTS: dict[str, str] = {
    "setup.players": "Sequence is for 2 to 12 players in counts divisible by 2 or 3 (2, 3, 4, 6, 8, 9, 10, 12); Sequence Numbers is for 2 to 6. (official; Seeds A, B, C)",
    "setup.teams": "Up to 3 players play alone; more players split into 2 or 3 equal teams whose members alternate around the table. Two sides use blue and green chips; red is used only for a third side. (official; Seeds A, B, C)",
    "turn.order": "The player to the dealer's left (the first listed player) starts and play goes clockwise; each player in turn plays one card. (official; Seed A)",
    "play.matching_cell": "Play a card and place one of your chips on either space showing that card, if it is open. (official; Seeds A, B, C)",
    "play.open_cell": "A space that already holds a chip cannot take another. (official)",
    "corners.free": "The four corner spaces are free: they count as a chip of every colour, and no chip is placed on or removed from them. (official; Seeds A, C)",
    "jacks.two_eyed": "A two-eyed jack (clubs, diamonds) is wild: place a chip on any open space except a corner. (official; Seed B names the suits)",
    "jacks.one_eyed": "A one-eyed jack (hearts, spades) removes one opponent chip from the board and ends your turn; you may not place a chip on that space this turn. (official; Seeds A, B)",
    "numbers.plus": "A PLUS card is wild: place a chip on any open space except a corner. (Seed C)",
    "numbers.minus": "A MINUS card removes one opponent chip and ends your turn; you may not place a chip there this turn. (Seed C)",
    "board.camera_move": "The camera saw a chip placed or removed without a declared card; it is accepted as a possible two-eyed jack (any open space) or one-eyed jack (any removable opponent chip). (referee)",
    "sequence.locked": "A chip that is part of a completed Sequence cannot be removed: once made, a Sequence cannot be broken. (official; Seeds A, C)",
    "sequence.broken_by_house_rule": "House rule: a one-eyed jack may remove a chip of a completed Sequence, which breaks that Sequence. (option one_eyed_can_break_sequences)",
    "sequence.five": "A Sequence is five chips of one colour in an unbroken straight line: across, down or diagonally. A free corner counts for every side. A run of six to eight is one Sequence. (official)",
    "sequence.overlap.one_shared": "A new Sequence may use one chip (not a corner) of each earlier Sequence of the same side, so nine in a line make two. (official; Seed A)",
    "sequence.overlap.crossing_only": "Two Sequences of a side may share one chip only where their lines cross; in one line they may not share, so a line needs ten chips for two. (Seed B)",
    "sequence.overlap.none": "Sequences of a side may not share any chip (house rule).",
    "sequence.lock_choice": "When more than five chips in a line complete a Sequence, the five that include the chip just placed and are allowed by the overlap rule are locked, the earliest from the A-column end (or the top); the table may declare another five instead. (referee)",
    "win.sequences": "The first player or team to complete the required number of Sequences wins at once: 2 sides need 2 and 3 sides need 1 (official; Seeds A, B); in Sequence Numbers 2-3 players need 1 and 4-6 players need 2 (Seed C).",
    "game.over": "The game has ended; no more moves are played. (official)",
    "dead_card.exchange": "A card with both its spaces covered is dead: on your turn you may discard it, announce it and take a replacement before your normal play. Jacks are never dead. (official; Seeds A, B, C)",
    "dead_card.limit": "Only one dead card may be exchanged per turn (official; Seed A); Seed B lets a player exchange repeatedly.",
    "hand.card_in_hand": "A player can only play a card held in their hand. (official)",
    "draw.after_play": "After playing, take a card from the draw deck. (official)",
    "draw.forgotten": "If you do not draw before the next player has played and drawn, you lose that draw and play on with fewer cards. (official; Seeds A, C)",
    "deck.reshuffle": "When the draw deck runs out, all discard piles are shuffled together into a new draw deck. (official; Seeds A, C)",
    "deck.exhausted_end": "House rule: when the draw deck runs out the game ends without a winner. (option deck_exhaustion=end_draw)",
    "board.full_no_winner": "House rule: when every space is covered and nobody has won, the game ends without a winner; by default play goes on, since one-eyed jacks can still open spaces. (referee; option full_board)",
    "table_talk.penalty": "No table talk: if a player alerts a teammate to a mistake, every member of that team discards one card of their choice. (official; Seeds A, C)",
    "turn.no_legal_move": "A player who can neither place nor remove a chip nor exchange a dead card may discard any card and draw (or pass, if the table chose that). The official rules do not cover this case. (referee; option no_move_policy)",
    "player.unknown": "Moves must name a player (or chip colour) of this game. (referee)",
    "card.unknown": "Cards are written rank + suit (7S, 10H, T♥, JC) or, in Sequence Numbers, as equations (3+4), PLUS or MINUS. (referee)",
}

CODE_TEXTS: dict[str, str] = {
    "ok": "Legal move.",
    "out_of_turn": "It is not this player's (or colour's) turn.",
    "cell_mismatch": "The card played is not printed on that space.",
    "cell_occupied": "That space already holds a chip.",
    "corner": "Corners are free spaces: no chip may be placed on or removed from them.",
    "wrong_jack": "Wrong card for the action: one-eyed jacks only remove, two-eyed jacks and plain cards only place.",
    "remove_empty": "There is no chip on that space to remove.",
    "remove_own": "A player may not remove a chip of their own side.",
    "remove_locked": "That chip is part of a completed Sequence and cannot be removed.",
    "not_dead": "That card is not dead: one of its spaces is still open (jacks are never dead).",
    "dead_limit": "Only one dead card may be exchanged per turn.",
    "game_over": "The game is already over.",
    "unknown_player": "The move names a player or colour that is not in this game.",
    "unknown_card": "The card is not a card of this game.",
    "not_in_hand": "The player does not hold that card.",
    "draw_lost": "Too late to draw: the next player has already played and drawn.",
    "nothing_to_draw": "This player has no draw outstanding.",
    "penalty_discards": "A table-talk penalty needs one discarded card from each member of the team who holds cards.",
    "option_off": "That rule is switched off for this game.",
    "has_legal_move": "The player still has a legal move, so discarding or passing is not allowed.",
    "bad_choice": "The declared five chips are not a Sequence that may replace the one locked in that line.",
}


@dataclass(frozen=True)
class Ruling:
    """The referee's decision on one move. ``move_number`` counts every judged move from 1."""

    move_number: int
    legal: bool
    code: str
    message: str
    rule: str
    new_sequences: list[list[str]] = field(default_factory=list)
    player: str | None = None
    color: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "move": self.move_number,
            "legal": self.legal,
            "code": self.code,
            "message": self.message,
            "rule": self.rule,
            "new_sequences": [list(line) for line in self.new_sequences],
            "player": self.player,
            "color": self.color,
        }

    def __str__(self) -> str:
        verdict = "legal" if self.legal else "ILLEGAL"
        return f"move {self.move_number}: {verdict} [{self.code}] {self.message}"
