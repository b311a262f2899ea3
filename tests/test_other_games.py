"""Boards of other games on a table without a Sequence board: rendered, and never read as one."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from companion.render import RenderSpec, SpecError, render_frame
from companion.render.spec import OTHER_GAMES
from companion.vision import BoardReader
from companion.vision.pipeline import _corner_chips


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


def test_a_small_hundred_chart_strewn_with_counters_is_no_board():
    # a frame that was once reported as a board: a hundred chart on 4 % of a 720p frame, its
    # red and black numbers matching the classic layout's ink fairly well, counters on two of
    # its corner cells (nobody plays on a Sequence board's free corners)
    values = json.loads((Path(__file__).parent / "data" / "hundred_chart_spec.json").read_text())
    spec = RenderSpec.from_json(values)
    frame, truth = render_frame(spec)
    assert truth.board_found is False
    assert BoardReader().read(frame).cells is None


def test_chips_on_free_corners_unless_all_four_alike():
    empty = np.full((10, 10), ".")
    assert _corner_chips(empty) == 0
    two = empty.copy()
    two[0, 0], two[9, 9] = "G", "R"
    assert _corner_chips(two) == 2
    emblem = empty.copy()
    for r, c in ((0, 0), (0, 9), (9, 0), (9, 9)):
        emblem[r, c] = "B"  # a board whose corner emblem is a blue disc
    assert _corner_chips(emblem) == 0
