"""A chip doubted only for lying beside a covered cell reads what it shows once that cell is
read after all (an empty card like its twin, a chip that hid its own lines), and so does a chip
whose only doubt is its own lines gone with at most one unknown cell around it
(companion.vision.cleared_covers); a doubt with another cause, more unknown cells or glare
beside it stays."""

from __future__ import annotations

import numpy as np
import pytest
from test_vision_support import spec_frame

from companion.vision import BoardReader
from companion.vision.cleared_covers import (
    LINES_ALONE_MAX,
    chips_beside_cleared,
    chips_hiding_lines,
)


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


def _lines_case():
    """E5 (screen row 4, column 4) shows a green chip whose boundaries are gone."""
    symbols = np.full((10, 10), ".", "<U1")
    symbols[4, 4] = "?"
    read = np.full((10, 10), ".", "<U1")
    read[4, 4] = "G"
    gone = np.zeros((10, 10), bool)
    gone[4, 4] = True
    why = {"boundaries_gone": gone, "next_to_cover": np.zeros((10, 10), bool), "_read": read}
    return symbols, why


def test_a_chip_hiding_its_own_lines_reads_alone_or_beside_one_unknown_cell():
    symbols, why = _lines_case()
    assert chips_hiding_lines(symbols, symbols, why)[4, 4]
    symbols[0, 0] = symbols[9, 9] = "?"  # the free corners do not count
    symbols[5, 5] = "?"  # the chip beside it, doubted for lying beside it
    assert LINES_ALONE_MAX == 1
    back = chips_hiding_lines(symbols, symbols, why)
    assert back.sum() == 1 and back[4, 4]
    # ... which is then read beside a cell read after all
    why["next_to_cover"][5, 5] = True
    why["_read"][5, 5] = "B"
    lifted = np.where(back, why["_read"], symbols)
    assert chips_beside_cleared(lifted, symbols, why)[5, 5]


def test_a_chip_with_its_lines_gone_among_unknown_cells_stays_unknown():
    symbols, why = _lines_case()
    symbols[3, 3:6] = "?"  # a hand or a card over the row above: its lines are gone too
    assert not chips_hiding_lines(symbols, symbols, why).any()
    symbols, why = _lines_case()
    why["foreign_border"] = why["boundaries_gone"].copy()  # a second sign of a cover
    assert not chips_hiding_lines(symbols, symbols, why).any()
    symbols, why = _lines_case()
    why["_read"][4, 4] = "."  # no chip to read
    assert not chips_hiding_lines(symbols, symbols, why).any()


def test_a_chip_at_the_board_s_edge_counts_only_the_cells_on_the_board():
    symbols, why = _lines_case()
    symbols[4, 4], why["boundaries_gone"][4, 4], why["_read"][4, 4] = ".", False, "."
    symbols[0, 5] = "?"
    why["boundaries_gone"][0, 5], why["_read"][0, 5] = True, "R"
    symbols[1, 5] = "?"  # one unknown neighbour; nothing beyond the edge counts
    assert chips_hiding_lines(symbols, symbols, why)[0, 5]


@pytest.mark.parametrize(
    "name",
    [
        "cleared_chip_hiding_lines_mat_spec.json",  # C1 lines gone, C2 beside it
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
