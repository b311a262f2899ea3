"""Why a cell reads ``?``: the causes a reading keeps, and ``companion analyze``'s words for them."""

import cv2
import numpy as np
from test_vision_support import cli_frame

from companion.cli import main
from companion.vision import BoardReader
from companion.vision.causes import (
    CAUSE_KIND,
    CAUSE_TEXT,
    KINDS,
    cause_kind,
    cause_text,
    describe,
    unknown_reasons,
)
from companion.vision.geometry import to_canonical_grid


def test_unknown_reasons_name_canonical_cells_most_telling_cause_first():
    why = {name: np.zeros((10, 10), bool) for name in ("next_to_cover", "glare", "_veiled")}
    why["next_to_cover"][2, 7] = True  # screen (row 2, col 7)
    why["glare"][2, 7] = True
    why["_veiled"][2, 7] = True  # a diagnostic mask, no cause
    why["glare"][5, 5] = True  # a cell read, not `?`: no entry
    for orientation in (0, 90, 180, 270):
        canonical = to_canonical_grid(why["glare"] & why["next_to_cover"], orientation)
        (r,), (c,) = np.nonzero(canonical)
        cells = ["." * 10] * 10
        cells[r] = cells[r][:c] + "?" + cells[r][c + 1 :]
        reasons = unknown_reasons(cells, why, orientation)
        assert reasons == {f"{'ABCDEFGHIJ'[c]}{r + 1}": ("glare", "next_to_cover")}
    assert unknown_reasons(["." * 10] * 10, why, 0) == {}


def test_every_cause_has_words_and_new_ones_still_read():
    assert all(text and text[0].islower() for text in CAUSE_TEXT.values())
    assert cause_text("boundaries_gone") == CAUSE_TEXT["boundaries_gone"]
    assert cause_text("loose_card_edge") == "loose card edge"
    assert describe(()) == "not read"
    assert describe(("glare", "undecided")) == CAUSE_TEXT["glare"]


def test_a_chip_under_a_hand_is_explained_by_the_reading_and_by_analyze(tmp_path, capsys):
    # a rendered hand over a blue chip (text art, dev seed 7612011, frame 29): A2 reads `?`
    image, truth = cli_frame(7612011, 29, "text", hands=1.0, board_share=(0.3, 0.95))
    reading = BoardReader().read(image)
    unknown = {
        f"{'ABCDEFGHIJ'[c]}{r + 1}"
        for r, row in enumerate(reading.cells)
        for c, ch in enumerate(row)
        if ch == "?"
    }
    assert "A2" in unknown and set(reading.unknown_reasons) == unknown
    assert all(codes for codes in reading.unknown_reasons.values())  # each `?` has a cause
    path = tmp_path / "hand.png"
    cv2.imwrite(str(path), image)
    assert main(["analyze", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"  A2: ? {describe(reading.unknown_reasons['A2'])}" in out
    assert main(["analyze", "--json", str(path)]) == 0  # the JSON contract keeps its keys
    assert '"unknown' not in capsys.readouterr().out


def test_the_kind_of_cause_says_what_the_table_can_do():
    assert cause_kind(("pale_hand", "next_to_cover")) == "hand"
    assert cause_kind(("glare",)) == "glare" and cause_kind(("pink_disc",)) == "glare"
    assert cause_kind(("boundaries_gone",)) == "cover"
    assert cause_kind(("a_cause_added_later",)) == "cover"  # something lies there
    assert cause_kind(("undecided",)) == "unclear"
    assert cause_kind(()) is None
    assert set(CAUSE_KIND.values()) <= set(KINDS)


def test_every_cause_the_classifier_names_has_words():
    from test_vision_support import straight_sevens

    from companion.vision import chips
    from companion.vision.colour import ColourProfile

    why = {}
    chips.classify(chips.measure(straight_sevens(), ColourProfile()), why=why)
    named = {code for code in why if not code.startswith("_")}
    assert "next_to_cover" in named and "boundaries_gone" in named
    assert named <= set(CAUSE_TEXT), named - set(CAUSE_TEXT)
