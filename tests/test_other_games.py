"""Boards of other games on a table without a Sequence board: rendered, and never read as one."""

from __future__ import annotations

import numpy as np
import pytest

from companion.render import RenderSpec, SpecError, render_frame
from companion.render.spec import OTHER_GAMES
from companion.vision import BoardReader


def _table(other_game: str, **changes) -> RenderSpec:
    values = dict(
        board=False,
        other_game=other_game,
        size=(640, 480),
        table="felt",
        board_fraction=0.8,
        tilt_deg=15.0,
        camera_seed=5,
    )
    return RenderSpec(**{**values, **changes})


def test_other_game_only_on_a_board_free_table():
    with pytest.raises(SpecError, match="other_game"):
        RenderSpec(board=True, other_game="chess")
    with pytest.raises(SpecError, match="other_game"):
        RenderSpec(board=False, other_game="ludo")


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_other_games_are_drawn_and_never_read_as_a_sequence_board(game):
    bare, truth = render_frame(_table(""))
    frame, _ = render_frame(_table(game))
    assert truth.board_found is False
    # the other game's board covers a good part of the middle of the table
    changed = np.abs(frame.astype(int) - bare.astype(int)).max(axis=2) > 40
    assert changed[120:360, 160:480].mean() > 0.5
    reading = BoardReader().read(frame)
    assert reading.cells is None, f"{game} read as a Sequence board"
