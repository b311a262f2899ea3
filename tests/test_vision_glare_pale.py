"""Blue and green chips turned pale in part by glare are read, never guessed where something
may lie over them (``chips._pale_chips``); the bluish fringe left by taking much glare off is
no chip seen in part (``chips._glare_fringe``), and a weakly strange border on a glare spot's
shoulder beside glare alone no sign of a cover (in ``chips.classify``)."""

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from companion.render import RenderSpec, render_frame
from companion.vision import BoardReader, chips
from companion.vision.colour import ColourProfile

DATA = Path(__file__).resolve().parent / "data"


def _feats(**cell):
    """Features of a plain light board with one cell (row 4, column 4) given ``cell``'s
    values (share per name; ``rawB``, ``chipB`` ... for the chip colours)."""
    feats = chips.measure(np.full((240, 240, 3), 230, np.uint8), ColourProfile())
    raw = {s: a.copy() for s, a in feats.raw.items()}
    chip = {s: a.copy() for s, a in feats.chip.items()}
    values = {}
    for name, v in cell.items():
        if name.startswith("raw"):
            raw[name[3]][4, 4] = v
        elif name.startswith("chip"):
            chip[name[4]][4, 4] = v
        else:
            now = getattr(feats, name)  # (None: not measured on a plain board)
            a = np.zeros((10, 10), np.float32) if now is None else np.array(now, np.float32)
            a[4, 4] = v
            values[name] = a
    # (a card's printing shows on every cell: none reads blank)
    values.setdefault("dark", np.full((10, 10), 0.1, np.float32))
    values.setdefault("dark_blob", np.zeros((10, 10), np.float32))  # ... in thin strokes
    return replace(feats, raw=raw, chip=chip, red_ink=raw["R"], **values)


# a blue chip on a cards board under glare (gl_cards 0006, C6): a third of its disc too pale
# for the chip's class, the rest still blue, a pale disc of its hue over 0.29 of the cell
PALE = dict(rawB=0.37, chipB=0.148, pale_bg=0.29, glare=0.17)


def test_a_blue_chip_paled_by_glare_is_read_blue():
    symbols, conf = chips.classify(_feats(**PALE))
    assert symbols[4, 4] == "B" and 0 < conf[4, 4] < 1
    assert (symbols[np.arange(10) != 4] != "?").all()  # no cover beside it either


def test_a_pale_chip_without_glare_is_read_too():
    # a mint or sky-blue chip small in the frame: too pale for its class, no glare on it
    symbols, conf = chips.classify(_feats(**{**PALE, "glare": 0.0}))
    assert symbols[4, 4] == "B" and conf[4, 4] == chips.PALE_CONF


def test_with_skin_or_too_broad_a_pale_chip_stays_unknown():
    # fingers on it: the chip may be in the hand
    assert chips.classify(_feats(**PALE, skin=0.1))[0][4, 4] == "?"
    # a pale blue over more of the cell than a chip covers: a card's back, a sleeve
    assert chips.classify(_feats(**{**PALE, "pale_bg": 0.6, "rawB": 0.7}))[0][4, 4] == "?"
    # two chip colours: no single chip's hue
    assert chips.classify(_feats(**PALE, rawG=0.1))[0][4, 4] == "?"


def test_judging_a_grid_leaves_pale_chips_out():
    assert chips.classify(_feats(**PALE), covers=False)[0][4, 4] == "?"


# seen frames whose blue and green chips under glare read `?` (and their neighbours with
# them): five chips on a cards board, nothing taken off (g3 gl_cards 0006); a green chip on
# a text board by the lines of its edge (fin17 r0_text 0018)
@pytest.mark.parametrize("name", ["glare_pale_chips_spec.json", "glare_pale_green_text_spec.json"])
def test_frames_with_chips_paled_by_glare_read_exactly(name):
    image, truth = render_frame(RenderSpec.from_json(json.loads((DATA / name).read_text())))
    assert not np.asarray(truth.occluded).any()
    assert BoardReader().read(image).cells == list(truth.cells)


# an empty card after 105 levels of glare were taken off (fin17 r0_cards 0102, B4): the edges of
# its printing turned bluish over 0.18 of it, nothing of it through the erosion, no pale disc
FRINGE = dict(rawB=0.18, chipB=0.015, pale_bg=0.04, glare=0.15, glare_added=105.0)


def test_the_bluish_fringe_glare_taken_off_leaves_is_no_chip_seen_in_part():
    assert chips.classify(_feats(**FRINGE))[0][4, 4] == "."


def test_blue_under_glare_with_a_chips_core_or_disc_or_a_hand_stays_unknown():
    # a piece of a solid blue disc, a pale disc of the hue, skin: a chip seen in part
    assert chips.classify(_feats(**{**FRINGE, "chipB": 0.035}))[0][4, 4] == "?"
    assert chips.classify(_feats(**{**FRINGE, "pale_bg": 0.15}))[0][4, 4] == "?"
    assert chips.classify(_feats(**FRINGE, skin=0.09))[0][4, 4] == "?"
    # little glare taken off: not a fringe of the taking off
    assert chips.classify(_feats(**{**FRINGE, "glare_added": 20.0}))[0][4, 4] == "?"


def test_a_fringe_on_a_cell_clipped_too_little_to_hide_a_chip_is_no_washed_out_chip():
    # the same card clipped over a third of it (fin17 r0_cards 0102, B5): no whole chip fits
    # in the clipped part, and a chip washed out in part would keep a piece of its colour
    clipped = {**FRINGE, "glare": 0.33, "chipB": 0.025}  # (a little blue through the erosion)
    assert chips.classify(_feats(**clipped))[0][4, 4] == "."
    # clipped over half of it: a whole chip may lie washed out there, its rim the blue
    assert chips.classify(_feats(**{**clipped, "glare": 0.5}))[0][4, 4] == "?"


@pytest.mark.parametrize("kind", ["pale chip", "fringe"])
def test_a_pale_chip_or_a_fringe_beside_a_cover_stays_unknown(kind):
    # a neighbour with its boundaries gone (a loose card, a hand): the pale disc may be part
    # of what lies there, the blue fringe a chip's edge under it
    feats = _feats(**(PALE if kind == "pale chip" else FRINGE))
    missing = feats.edges_missing.copy()
    missing[4, 5] = 4
    symbols, _ = chips.classify(replace(feats, edges_missing=missing))
    assert symbols[4, 5] == "?" and symbols[4, 4] == "?"


# seen frames whose empty cards under much glare taken off read `?` for that fringe (and
# their neighbours with them): three cards and two chips beside them (g3 gl_cards_h 0006, a
# hand-free frame); an edge cell after 100 levels (fin16 r0_cards 0154); five cards under
# 76-169 levels, one clipped over a third (fin17 r0_cards 0102); a card beside cells whose
# faded lines the glare explains, warned by them for its fringe (g3 gl_cards 0046, fin16
# r0_text 0061)
@pytest.mark.parametrize(
    "name",
    [
        "glare_fringe_cards_spec.json",
        "glare_fringe_edge_spec.json",
        "glare_fringe_clipped_spec.json",
        "glare_fringe_beside_veil_spec.json",
        "glare_fringe_beside_veil_text_spec.json",
    ],
)
def test_frames_with_a_fringe_of_glare_taken_off_read_exactly(name):
    image, truth = render_frame(RenderSpec.from_json(json.loads((DATA / name).read_text())))
    assert not np.asarray(truth.occluded).any()
    assert BoardReader().read(image).cells == list(truth.cells)


def _glared_card(room: float):
    """A card clipped over 0.69 of it by glare on a board lit too close to clipping to measure
    it (fin16 r0_cards 0086, C7): two lines gone, its border clipped white, its black print
    over 0.06 of it; ``room``: where a chip-sized disc fits whole in its clipped part."""
    glared = np.zeros((10, 10), bool)
    glared[4, 4] = True
    feats = _feats(
        glare=0.69, edges_missing=2, dark=0.06, black=0.6, veil_tint=0.0, ring_clipped=0.57
    )
    return replace(
        feats,
        glare_added=np.zeros((10, 10), np.float32),
        glare_unmeasured=glared,
        clip_room=np.where(glared, room, 1.0).astype(np.float32),
    )


def test_a_glare_spot_clipped_around_the_printing_hides_no_chip():
    # a sliver of room for a disc (0.01 of the cell) is the spot's ragged edge, not a chip
    assert chips.classify(_glared_card(0.01))[0][4, 4] == "."
    # room as a chip washed out whole leaves (>= 0.09 seen): its lines gone stay a cover
    assert chips.classify(_glared_card(0.09))[0][4, 4] == "?"


def test_a_weakly_strange_border_on_the_glare_shoulder_beside_a_cover_stays_unknown():
    # some glare measured on the cell (5 levels, too little to take off as such), a border a
    # fifth strange: beside a cell whose boundaries are gone, still the cover's sign
    feats = _feats(ring=0.2, ring_inside=0.2, glare_added=5.0)
    missing = feats.edges_missing.copy()
    missing[4, 5] = 4
    symbols, _ = chips.classify(replace(feats, edges_missing=missing))
    assert symbols[4, 5] == "?" and symbols[4, 4] == "?"


def test_cells_on_the_glare_shoulder_beside_glare_alone_are_read():
    # seen frame (fin17 r0_text 0166): an empty card and a red chip beside an edge cell whose
    # strange border the glare explains (57 levels taken off it), 7 levels measured on them
    # and a border 0.15-0.25 strange, read `?`
    spec = RenderSpec.from_json(json.loads((DATA / "glare_shoulder_text_spec.json").read_text()))
    image, truth = render_frame(spec)
    assert not np.asarray(truth.occluded).any()
    assert BoardReader().read(image).cells == list(truth.cells)
