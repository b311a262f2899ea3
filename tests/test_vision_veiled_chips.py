"""Blue and green chips under a veil of glare (companion.vision.veiled_chips): a cell left
unknown only for what a veil explains (its lines faded, its colour too pale for a chip) reads
its chip where the darkest part is lifted to a veil's level and a pale disc of one chip colour
remains; anything else stays unknown."""

import numpy as np
from test_vision_support import spec_frame

from companion.vision import BoardReader
from companion.vision.veiled_chips import veiled_chips


def _case(
    causes=("boundaries_gone", "undecided"), raw_b=0.35, raw_g=0.0, raw_r=0.0, pale=0.3, black=0.6
):
    symbols = np.full((10, 10), ".", dtype="<U1")
    symbols[4, 4] = "?"
    why = {
        c: np.zeros((10, 10), bool) for c in ("boundaries_gone", "undecided", "glare", "skin_over")
    }
    for c in causes:
        why[c][4, 4] = True
    raw = {c: np.zeros((10, 10), np.float32) for c in "BGR"}
    raw["B"][4, 4], raw["G"][4, 4], raw["R"][4, 4] = raw_b, raw_g, raw_r
    pale_disc = np.zeros((10, 10), np.float32)
    pale_disc[4, 4] = pale
    dark = np.zeros((10, 10), np.float32)
    dark[4, 4] = black
    return veiled_chips(symbols, why, raw, pale_disc, dark)[4, 4]


def test_a_pale_blue_or_green_chip_under_a_veil_reads_its_colour():
    assert _case() == "B"
    assert _case(raw_b=0.0, raw_g=0.3) == "G"
    assert _case(causes=("boundaries_gone", "glare", "undecided")) == "B"


def test_without_the_veil_s_signs_or_with_another_doubt_the_cell_stays_unknown():
    assert _case(black=0.3) == ""  # darkest part not lifted: a card or hand may lie there
    assert _case(pale=0.1) == ""  # no pale disc as broad as a chip's
    assert _case(raw_b=0.2) == ""  # too little of the colour
    assert _case(raw_g=0.1) == ""  # both blue and green
    assert _case(raw_r=0.3) == ""  # red too
    assert _case(causes=("boundaries_gone",)) == ""  # read as something already
    assert _case(causes=("boundaries_gone", "undecided", "skin_over")) == ""  # a hand's sign


def test_features_not_measured_leave_every_cell_as_it_was():
    symbols = np.full((10, 10), "?", dtype="<U1")
    why = {"undecided": np.ones((10, 10), bool)}
    raw = {c: np.full((10, 10), 0.4, np.float32) for c in "BGR"}
    assert (veiled_chips(symbols, why, raw, None, None) == "").all()


def test_a_rendered_green_chip_under_a_veil_of_glare_reads_exact():
    """fin23 r0_cards frame 25: glare 0.65 over a small cards board; the green chip on J4 paled
    (0.36 of the cell green, 0.15 after the erosion) and its lines faded: `?`."""
    image, truth = spec_frame("veiled_green_chip_cards_spec.json", written=True)
    reading = BoardReader().read(image)
    assert reading.board_found
    assert reading.cells == truth.cells
