"""The rules referee: classic Sequence and the seeds' variants, python-chess style.

>>> from companion.referee import Game, Move
>>> game = Game.default()
>>> game.push(Move.play("Blue", "2S", "B1")).code
'ok'
"""

from companion.referee.cards import Card, CardError
from companion.referee.game import Game, Outcome
from companion.referee.layout import Layout, LayoutError, classic_layout
from companion.referee.moves import Move, MoveError
from companion.referee.options import PRESETS, Rules
from companion.referee.players import COLORS, Player, SetupError
from companion.referee.record import RecordError, load_record
from companion.referee.rulings import CODE_TEXTS, RULE_TEXTS, Ruling

__all__ = [
    "CODE_TEXTS",
    "COLORS",
    "PRESETS",
    "RULE_TEXTS",
    "Card",
    "CardError",
    "Game",
    "Layout",
    "LayoutError",
    "Move",
    "MoveError",
    "Outcome",
    "Player",
    "RecordError",
    "Rules",
    "Ruling",
    "SetupError",
    "classic_layout",
    "load_record",
]
