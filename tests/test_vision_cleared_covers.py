"""A chip doubted only for lying beside a cover reads what it shows once no unknown cell is
left around it (a covered cell read after all: an empty card like its twin, a chip that hid
its own lines; or only glare beside it), and so does a chip whose only doubt is its own lines
gone with at most one unknown cell around it (companion.vision.cleared_covers); a doubt with
another cause, or more unknown cells around, stays."""

from __future__ import annotations

import numpy as np
import pytest
from test_vision_support import spec_frame

from companion.vision import BoardReader
from companion.vision.cleared_covers import (
    LINES_ALONE_MAX,
    chips_beside_no_cover,
    chips_hiding_lines,
)


def _reading(cell: tuple[int, int], cause: str, chip: str = "B"):
    """A reading with one unknown cell (screen row, column) doubted for ``cause`` alone, read
    as ``chip`` before its doubts."""
    symbols = np.full((10, 10), ".", "<U1")
    symbols[cell] = "?"
    read = np.full((10, 10), ".", "<U1")
    read[cell] = chip
    why = {
        "next_to_cover": np.zeros((10, 10), bool),
        "boundaries_gone": np.zeros((10, 10), bool),
        "_veil_signs": np.zeros((10, 10), bool),
        "_read": read,
    }
    why[cause][cell] = True
    return symbols, why


def test_a_chip_doubted_beside_a_cover_with_none_left_around_is_read_back():
    # D4 beside C4, an empty card its twin read empty (no longer unknown)
    symbols, why = _reading((3, 3), "next_to_cover")
    back = chips_beside_no_cover(symbols, why)
    assert back.sum() == 1 and back[3, 3]
    # ... or beside glare alone (a veil's signs seed the doubt; glare never changes a colour)
    why["_veil_signs"][2, 4] = True
    assert chips_beside_no_cover(symbols, why)[3, 3]
    # ... or beside another chip doubted the same way, and the free corners read unknown
    symbols[3, 4] = symbols[0, 0] = "?"
    why["next_to_cover"][3, 4], why["_read"][3, 4] = True, "G"
    back = chips_beside_no_cover(symbols, why)
    assert back.sum() == 2 and back[3, 3] and back[3, 4]


def test_a_chip_beside_a_cover_still_unknown_or_doubted_for_more_stays_unknown():
    symbols, why = _reading((3, 3), "next_to_cover")
    symbols[4, 4] = "?"  # the cover (a hand, a card) is still there
    assert not chips_beside_no_cover(symbols, why).any()

    symbols, why = _reading((3, 3), "next_to_cover")
    why["foreign_border"] = np.zeros((10, 10), bool)
    why["foreign_border"][3, 3] = True  # a second reason on the cell itself
    assert not chips_beside_no_cover(symbols, why).any()

    symbols, why = _reading((3, 3), "next_to_cover", chip=".")  # no chip to read back
    assert not chips_beside_no_cover(symbols, why).any()

    symbols, why = _reading((3, 3), "next_to_cover")
    symbols[3, 5] = "?"  # two cells away: no cover beside it
    assert chips_beside_no_cover(symbols, why)[3, 3]


def test_a_chip_hiding_its_own_lines_reads_alone_or_beside_one_unknown_cell():
    symbols, why = _reading((4, 4), "boundaries_gone", chip="G")
    assert chips_hiding_lines(symbols, why)[4, 4]
    symbols[0, 0] = symbols[9, 9] = "?"  # the free corners do not count
    symbols[5, 5] = "?"  # the chip beside it, doubted for lying beside it
    assert LINES_ALONE_MAX == 1
    back = chips_hiding_lines(symbols, why)
    assert back.sum() == 1 and back[4, 4]
    # ... which is then read, with no cover left around it
    why["next_to_cover"][5, 5] = True
    why["_read"][5, 5] = "B"
    assert not chips_beside_no_cover(symbols, why).any()
    lifted = np.where(back, why["_read"], symbols)
    assert chips_beside_no_cover(lifted, why)[5, 5]


def test_chips_doubted_beside_a_chip_hiding_its_lines_do_not_count_as_its_cover():
    symbols, why = _reading((4, 4), "boundaries_gone", chip="G")
    for cell in ((3, 4), (4, 5)):  # two chips doubted for lying beside it
        symbols[cell], why["next_to_cover"][cell], why["_read"][cell] = "?", True, "R"
    back = chips_hiding_lines(symbols, why)
    assert back.sum() == 1 and back[4, 4]
    lifted = np.where(back, why["_read"], symbols)
    assert chips_beside_no_cover(lifted, why).sum() == 2
    # ... while two cells unknown for other reasons are a cover's
    why["foreign_border"] = np.zeros((10, 10), bool)
    why["foreign_border"][3, 4] = True
    assert chips_hiding_lines(symbols, why)[4, 4]  # one is allowed
    why["foreign_border"][4, 5] = True
    assert not chips_hiding_lines(symbols, why).any()


def test_a_chip_with_its_lines_gone_among_unknown_cells_stays_unknown():
    symbols, why = _reading((4, 4), "boundaries_gone", chip="G")
    symbols[3, 3:6] = "?"  # a hand or a card over the row above: its lines are gone too
    assert not chips_hiding_lines(symbols, why).any()
    symbols, why = _reading((4, 4), "boundaries_gone", chip="G")
    why["foreign_border"] = why["boundaries_gone"].copy()  # a second sign of a cover
    assert not chips_hiding_lines(symbols, why).any()
    symbols, why = _reading((4, 4), "boundaries_gone", chip=".")  # no chip to read
    assert not chips_hiding_lines(symbols, why).any()


def test_a_chip_at_the_board_s_edge_counts_only_the_cells_on_the_board():
    symbols, why = _reading((0, 5), "boundaries_gone", chip="R")
    symbols[1, 5] = "?"  # one unknown neighbour; nothing beyond the edge counts
    assert chips_hiding_lines(symbols, why)[0, 5]
    symbols[1, 4] = "?"
    assert not chips_hiding_lines(symbols, why).any()


@pytest.mark.parametrize(
    "name",
    [
        "cleared_chip_hiding_lines_mat_spec.json",  # C1 lines gone, C2 beside it
        "cleared_chip_hiding_lines_cards_spec.json",  # G2 lines gone, G1 and H2 beside it
        "cleared_off_centre_chip_text_spec.json",  # beside a card its twin cleared
        "cleared_off_centre_chip_mat_spec.json",
        "cleared_off_centre_chips_text_2_spec.json",  # three chips, three cleared cells
        "cleared_chip_beside_glare_cards_spec.json",  # beside glare alone
    ],
)
def test_chips_doubted_beside_covers_that_were_none_read_exact(name):
    """Seen frames without hands, each exact but for chips left unknown: placed over the line
    to an empty card (which reads unknown until its twin clears it), hiding their own lines,
    or beside a glare spot's veil."""
    image, truth = spec_frame(name, written=True)
    reading = BoardReader().read(image)
    assert reading.board_found
    assert reading.cells == truth.cells
