"""Printing that glare lifted to a grey still shows what a cell holds: where glare clipped a
cell's lines white and no chip-sized disc fits in its clipped part where a chip can lie, the
cell is read (``chips._print_under_glare``, ``glare.chip_room`` with an inset); where skin,
a pale tint or room for a washed-out chip shows, it stays unknown."""

from dataclasses import replace

import numpy as np
import pytest
from test_vision_support import spec_frame

from companion.vision import BoardReader, chips, glare
from companion.vision.colour import ColourProfile

CW, CH = 29, 20  # a landscape cell, as in a grid image of a cards board


def _greyed_card(**changes):
    """Features of a plain board with one cell (row 4, column 4) as a seen card under glare on
    a board lit too close to clipping (fin17 r0_cards 0039, A9): clipped over 0.71 of it, all
    four lines and 0.93 of its border clipped white, its ace of clubs lifted to a grey that no
    dark class holds (darkest level 0.56 of the white, faint strokes over 0.07 of it), and in
    its clipped part no room for a chip-sized disc where a chip's centre can lie."""
    feats = chips.measure(np.full((240, 240, 3), 230, np.uint8), ColourProfile())
    cell = dict(
        glare=0.71,
        edges_missing=4.0,
        faint_print=0.07,
        black=0.56,
        ring_clipped=0.93,
        veil_tint=0.0,
        clip_room=0.005,
        dark=0.0,
        skin=0.0,
    )
    cell.update(changes)
    values = {}
    for name, v in cell.items():
        now = getattr(feats, name)
        a = np.zeros((10, 10), np.float32) if now is None else np.array(now, np.float32)
        if name in ("black", "clip_room"):
            a[:] = 1.0  # the other cells: white at their darkest, as if a chip could hide
        a[4, 4] = v
        values[name] = a
    # (a card's printing shows on every other cell: none reads blank)
    values["dark"] = np.where(np.arange(100).reshape(10, 10) == 44, values["dark"], 0.1)
    values["dark_blob"] = np.zeros((10, 10), np.float32)  # ... in thin strokes
    glared = np.zeros((10, 10), bool)
    glared[4, 4] = True
    return replace(
        feats,
        glare_added=np.zeros((10, 10), np.float32),
        glare_unmeasured=glared,
        tinted_blob=values["veil_tint"],
        **values,
    )


def test_printing_glare_lifted_to_grey_shows_the_cell_empty():
    feats = _greyed_card()
    assert feats.content[4, 4] < chips.BLANK_CONTENT  # no dark class holds the grey ink
    assert chips._print_under_glare(feats)[4, 4]
    assert chips.classify(feats)[0][4, 4] == "."
    # ... and so does black printing still dark enough for its class, three lines clipped
    # (fresh glare frame, seed 7950001 frame 5, D2: dark print over 0.05 of the cell)
    dark = _greyed_card(faint_print=0.0, dark=0.05, edges_missing=3.0)
    assert dark.content[4, 4] >= chips.BLANK_CONTENT
    assert chips.classify(dark)[0][4, 4] == "."
    # ... and so does a clipped part leaving a sliver of room between a cards art's scattered
    # pips (dev frame f8989 r0_cards 0029, D1: 0.026 of the middle; 0.035 here)
    assert chips.classify(_greyed_card(clip_room=0.035))[0][4, 4] == "."


@pytest.mark.parametrize(
    "changes",
    [
        dict(clip_room=0.1),  # room for a chip washed out whole where a chip lies
        dict(clip_room=0.077),  # ... the least a chip on a glared cell left in the seen sets
        dict(skin=0.1),  # fingers on it: a hand lifts the darkest level too
        dict(faint_print=0.0),  # no printing shows: a white card clipped over the cell
        dict(black=0.8),  # ... or only a trace of it, too pale to tell from the card
        dict(ring_clipped=0.1),  # its lines not clipped: something hides them
        dict(veil_tint=0.2),  # a broad pale tint: a chip washed out over part of it
        # clipped less, the grey strokes may be a washed-out chip's shaded rim (fin18 r0_mat
        # 0073, C5: a green chip, 0.44 of the cell clipped; no room measured there)
        dict(glare=0.44, clip_room=1.0, black=0.74),
    ],
)
def test_a_greyed_cell_that_may_hide_a_chip_stays_unknown(changes):
    assert chips.classify(_greyed_card(**changes))[0][4, 4] == "?"


def test_room_for_a_chip_is_looked_for_only_where_a_chip_can_lie():
    # a cell clipped white but for its printing in the middle: a disc fits in the clipped
    # parts by its sides, but beyond every chip on the cell
    mask = np.zeros((10 * CH, 10 * CW), np.uint8)
    x, y = 4 * CW, 4 * CH
    mask[y : y + CH, x : x + CW] = 255
    mask[y + 4 : y + 16, x + 11 : x + 18] = 0
    cells = np.zeros((10, 10), bool)
    cells[4, 4] = True
    disc = int(round(chips.CLIP_ROOM_DISC * CH)) | 1
    inset = chips._chip_centres(chips.CellShape(CW, CH))
    assert glare.chip_room(mask, cells, CW, CH, disc)[4, 4] > 0.0
    assert glare.chip_room(mask, cells, CW, CH, disc, inset)[4, 4] == 0.0
    # ... while a clipped disc over the cell's middle is room where a chip lies
    mask[y + 4 : y + 16, x + 11 : x + 18] = 255
    assert glare.chip_room(mask, cells, CW, CH, disc, inset)[4, 4] > chips.CLIP_ROOM_MAX


# seen frames whose cells under glare read `?` though a person sees their printing and no
# chip there: a text board (fin17 r0_text 0005, C9 D9 D8) and a cards board (fin17 r0_cards
# 0039, A9 B9 B10), both lit too close to clipping to take the glare off; their lines
# clipped white, their printing lifted to a grey 0.51-0.69 of the white
@pytest.mark.parametrize(
    "name, cells",
    [
        ("glare_greyed_print_text_spec.json", [(8, 2), (8, 3), (7, 3)]),
        ("glare_greyed_print_cards_spec.json", [(8, 0), (8, 1), (9, 1)]),
    ],
)
def test_cells_whose_printing_glare_greyed_are_read(name, cells):
    image, truth = spec_frame(name)
    assert not np.asarray(truth.occluded).any()
    got = BoardReader().read(image).cells
    for r, c in cells:
        assert got[r][c] == truth.cells[r][c]
    for got_row, want_row in zip(got, truth.cells, strict=True):
        assert all(g in (w, "?") for g, w in zip(got_row, want_row, strict=True))


def test_chips_washed_out_to_a_shaded_rim_are_never_read_empty():
    # seen frame (fin18 r0_mat 0073): a green and a blue chip under glare on a board lit too
    # close to clipping, washed out to near white but for their shaded rims (grey strokes
    # like printing, 0.72-0.74 of the white), on cells clipped 0.32-0.44
    image, truth = spec_frame("glare_washed_chip_rims_spec.json")
    assert truth.cells[4][2] == "G" and truth.cells[5][2] == "B"
    got = BoardReader().read(image).cells
    assert got[4][2] in ("G", "?") and got[5][2] in ("B", "?")
    for got_row, want_row in zip(got, truth.cells, strict=True):
        assert all(g in (w, "?") for g, w in zip(got_row, want_row, strict=True))


def _skin_board(skin_cells: int, skin: float):
    """Features of a plain board whose first ``skin_cells`` cells (row by row, free corners
    aside) show skin over ``skin`` of them, the rest none."""
    feats = chips.measure(np.full((240, 240, 3), 230, np.uint8), ColourProfile())
    shown = np.zeros(100, np.float32)
    shown[[i for i in range(100) if i not in (0, 9, 90, 99)][:skin_cells]] = skin
    return replace(feats, skin=shown.reshape(10, 10))


def test_skin_as_much_as_the_boards_own_printed_faces_show_is_no_hand():
    empty = np.ones((10, 10), bool)
    # a text board: no skin printed anywhere, any skin over HAND_SKIN may be a hand
    assert chips._face_skin(_skin_board(0, 0.0), empty) == chips.HAND_SKIN
    # a cards board: its queens and kings (16 of 96 cells) show faces over 0.2 of them
    level = chips._face_skin(_skin_board(16, 0.2), empty)
    assert level == pytest.approx(0.2 + chips.FACE_SKIN_MARGIN)
    # ... never more than fingers over a cell show, whatever the board's empty cells hold
    assert chips._face_skin(_skin_board(40, 0.24), empty) == chips.FACE_SKIN_MAX
    # a hand over a text board (16 cells, skin over 0.6 of them, its edge over 0.2 of the
    # cells beside it): not the board's own printing, any skin over HAND_SKIN may be a hand
    board = _skin_board(16, 0.6)
    edge = board.skin.copy()
    edge[2, :] = 0.2
    assert chips._face_skin(replace(board, skin=edge), empty) == chips.HAND_SKIN


def test_court_cards_beside_cells_the_glare_explains_are_read():
    # seen frame (fin17 r0_cards 0085): glare on a board lit too close to clipping clipped the
    # lines of an edge cell (G1) white and its border strange; the court card beside it (H2,
    # a queen: skin-coloured face over 0.19 of it, its border 0.14 strange) read `?`
    image, truth = spec_frame("glare_court_cards_spec.json")
    assert not np.asarray(truth.occluded).any()
    assert BoardReader().read(image).cells == list(truth.cells)
