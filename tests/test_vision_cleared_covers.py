"""A chip doubted only for lying beside a covered cell reads what it shows once the twin rules
find that cell an empty card (companion.vision.cleared_covers); a doubt with another cause,
another unknown cell or glare beside it stays."""

from __future__ import annotations

import numpy as np
import pytest
from test_vision_support import spec_frame

from companion.vision import BoardReader
from companion.vision.cleared_covers import chips_beside_cleared


def _case():
    """D4 (screen row 3, column 3) holds a blue chip over the line to C4, which was read
    unknown (its boundary gone) and the twin rule then read empty."""
    before = np.full((10, 10), ".", "<U1")
    before[3, 2:4] = "?"
    symbols = before.copy()
    symbols[3, 2] = "."  # cleared by its twin
    read = np.full((10, 10), ".", "<U1")
    read[3, 3] = "B"
    why = {
        "next_to_cover": np.zeros((10, 10), bool),
        "boundaries_gone": np.zeros((10, 10), bool),
        "_veil_signs": np.zeros((10, 10), bool),
        "_read": read,
        "_read_conf": np.full((10, 10), 0.9, np.float32),
    }
    why["next_to_cover"][3, 3] = True
    why["boundaries_gone"][3, 2] = True
    return symbols, before, why


def test_a_chip_beside_a_cleared_cell_is_read_back():
    symbols, before, why = _case()
    back = chips_beside_cleared(symbols, before, why)
    assert back.sum() == 1 and back[3, 3]


def test_another_cause_another_unknown_cell_or_glare_beside_keeps_the_doubt():
    symbols, before, why = _case()
    why["foreign_border"] = np.zeros((10, 10), bool)
    why["foreign_border"][3, 3] = True  # a second reason on the cell itself
    assert not chips_beside_cleared(symbols, before, why).any()

    symbols, before, why = _case()
    symbols[4, 4] = "?"  # a cell around it still unknown: a cover may lie there
    assert not chips_beside_cleared(symbols, before, why).any()

    symbols, before, why = _case()
    why["_veil_signs"][2, 4] = True  # glare beside it, which no twin clears
    assert not chips_beside_cleared(symbols, before, why).any()

    symbols, before, why = _case()
    assert not chips_beside_cleared(symbols, symbols, why).any()  # nothing was cleared

    symbols, before, why = _case()
    symbols[3, 2] = "?"  # the covered cell stays unknown
    assert not chips_beside_cleared(symbols, before, why).any()

    symbols, before, why = _case()
    why["_read"][3, 3] = "."  # read empty before its doubt: nothing to read back
    assert not chips_beside_cleared(symbols, before, why).any()


def test_a_cleared_cell_two_cells_away_says_nothing():
    symbols, before, why = _case()
    before[3, 2], before[3, 1] = ".", "?"
    symbols[3, 1] = "."
    assert not chips_beside_cleared(symbols, before, why).any()


@pytest.mark.parametrize(
    "name",
    [
        "cleared_off_centre_chip_text_spec.json",
        "cleared_off_centre_chip_mat_spec.json",
        "cleared_off_centre_chips_text_2_spec.json",  # three chips, three cleared cells
    ],
)
def test_off_centre_chips_beside_cells_their_twins_cleared_read_exact(name):
    """Seen frames without hands: chips placed over the line to an empty card hide that
    line; the card reads unknown (boundaries gone) until its twin clears it, and the chip
    stayed unknown beside it without this rule."""
    image, truth = spec_frame(name, written=True)
    reading = BoardReader().read(image)
    assert reading.board_found
    assert reading.cells == truth.cells
