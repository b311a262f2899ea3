"""Chips small against their cells (a board printed large): a round disc as wide as the board's
other chips is a chip; printed hearts and diamonds are not round."""

from __future__ import annotations

import cv2
import numpy as np

from companion.render.suits import draw_suit
from companion.vision.chip_shapes import board_chip_width
from companion.vision.chips import CellShape
from companion.vision.small_chips import small_chips

W, H = 36, 24  # a grid image's cell, 1.5x wider than tall
SHAPE = CellShape(W, H)
CHIP = round(0.3 * H)  # radius: chips 0.6 of the cell's shorter side, a quarter of the cell


def _grid(marks: dict[tuple[int, int], str]):
    """Masks of a grid image with, per cell, a small chip ``"B"``, ``"G"`` or ``"R"`` (a disc
    with a highlight) or printed red (``"heart"``, ``"diamond"``, 0.5 of the cell tall); the
    raw shares per colour."""
    planes = {s: np.zeros((10 * H, 10 * W), np.uint8) for s in "BGR"}
    for (r, c), kind in marks.items():
        centre = (round((c + 0.5) * W), round((r + 0.5) * H))
        if kind in planes:
            cv2.circle(planes[kind], centre, CHIP, 255, -1)
            cv2.circle(planes[kind], (centre[0] - 2, centre[1] - 2), 1, 0, -1)
        else:
            ink = np.zeros((10 * H, 10 * W, 3), np.uint8)
            draw_suit(ink, {"heart": "H", "diamond": "D"}[kind], centre, 0.5 * H, (255,) * 3)
            planes["R"] = np.maximum(planes["R"], (ink[..., 0] > 127).astype(np.uint8) * 255)
    raw = {s: (m > 0).reshape(10, H, 10, W).mean(axis=(1, 3)) for s, m in planes.items()}
    return planes, raw


def test_small_chips_read_by_their_round_disc_and_printing_is_not():
    marks = {(1, 1): "B", (2, 2): "G", (3, 3): "B", (5, 5): "R", (6, 6): "heart", (7, 7): "diamond"}
    planes, raw = _grid(marks)
    bg = cv2.bitwise_or(planes["B"], planes["G"])
    width = board_chip_width(bg, np.maximum(raw["B"], raw["G"]), SHAPE)
    assert width is not None and abs(width - 2 * CHIP) <= 3
    candidates = np.zeros((10, 10), bool)
    for cell in marks:
        candidates[cell] = True
    found = small_chips(candidates, raw, planes, width, SHAPE)
    assert [found[cell] for cell in marks] == ["B", "G", "B", "R", "", ""]


def test_no_round_blue_or_green_no_chip_width():
    planes, raw = _grid({(4, 4): "heart"})
    bg = cv2.bitwise_or(planes["B"], planes["G"])
    assert board_chip_width(bg, np.maximum(raw["B"], raw["G"]), SHAPE) is None


def test_chip_width_leaves_out_blobs_narrower_than_a_chip():
    """A picture card's art may show small round blobs of blue or green (a robe's buttons), more
    of the cell than a chip covers: they are not the width of this board's chips."""
    planes, raw = _grid({(2, 2): "B", (6, 3): "G"})
    art = np.zeros_like(planes["B"])
    for r, c in [(0, 1), (1, 4), (3, 6), (4, 2), (5, 7), (7, 5), (8, 8), (8, 1), (9, 4)]:
        for dx in (-12, 0, 12):
            for dy in (-6, 6):
                centre = (round((c + 0.5) * W) + dx, round((r + 0.5) * H) + dy)
                cv2.circle(art, centre, 4, 255, -1)
    art_share = (art > 0).reshape(10, H, 10, W).mean(axis=(1, 3))
    assert art_share.max() > raw["B"].max()  # the art's cells come first by share
    bg = cv2.bitwise_or(cv2.bitwise_or(planes["B"], planes["G"]), art)
    shares = np.maximum(np.maximum(raw["B"], raw["G"]), art_share)
    width = board_chip_width(bg, shares, SHAPE)
    assert width is not None and abs(width - 2 * CHIP) <= 3
    # the art alone gives no width at all
    assert board_chip_width(art, art_share, SHAPE) is None


def test_board_printed_large_for_its_chips_reads_them(monkeypatch):
    """A text board whose chips are 0.6 of the cell's shorter side (a board printed large):
    before, 5 of its red chips read empty."""
    from dataclasses import replace

    from test_vision_support import confidently_wrong, spec_frame

    from companion.render import scene
    from companion.vision import analyze_image

    build = scene.build_art

    def small(*args):
        art = build(*args)
        return replace(art, chip_diameter=0.6 * min(art.cell_w, art.cell_h))

    monkeypatch.setattr(scene, "build_art", small)
    image, truth = spec_frame("small_chips_text_spec.json", written=True)
    reading = analyze_image(image)
    assert reading.board_found and reading.orientation == truth.orientation
    assert confidently_wrong(reading, truth.cells) == []
    assert sum(row.count("?") for row in reading.cells) <= 3


def test_pale_discs_read_as_chips_or_unknown():
    """A chip too pale for its colour class keeps its hue: a round pale disc as wide as the
    board's chips, showing some of its colour, is that chip; a pale blob only part as wide, or
    showing none of it, is unknown; a small pale speck is nothing, and so is a disc astride
    two cells (a grid half a cell off)."""
    from companion.vision.small_chips import pale_discs

    pale = np.zeros((10 * H, 10 * W), np.uint8)
    cv2.circle(pale, (round(1.5 * W), round(1.5 * H)), CHIP, 255, -1)  # a pale chip
    cv2.circle(pale, (round(2.5 * W), round(2.5 * H)), CHIP, 255, -1)  # ... of no hue at all
    cv2.ellipse(
        pale, (round(3.5 * W), round(3.5 * H)), (CHIP + 2, round(0.7 * CHIP)), 0, 0, 360, 255, -1
    )
    cv2.circle(pale, (round(4.5 * W), round(4.5 * H)), 2, 255, -1)  # a speck
    cv2.circle(pale, (6 * W, round(5.5 * H)), CHIP, 255, -1)  # astride two cells: a grid off
    share = (pale > 0).reshape(10, H, 10, W).mean(axis=(1, 3))
    raw = {s: np.zeros((10, 10)) for s in "BGR"}
    raw["G"][1, 1] = raw["G"][3, 3] = raw["G"][5, 5] = raw["G"][5, 6] = 0.1
    candidates = np.ones((10, 10), bool)
    made = []

    def mask():
        made.append(True)
        return pale

    found, doubtful = pale_discs(candidates, share, mask, raw, 2.0 * CHIP, SHAPE)
    assert found[1, 1] == "G" and not doubtful[1, 1]
    assert found[2, 2] == "" and doubtful[2, 2]
    assert found[3, 3] == "" and doubtful[3, 3]
    assert found[4, 4] == "" and not doubtful[4, 4]
    assert found[5, 5] == found[5, 6] == "" and not doubtful[5, 5] and not doubtful[5, 6]
    assert (found != "").sum() == 1 and doubtful.sum() == 2
    # nothing pale enough anywhere: the mask is never made
    made.clear()
    found, doubtful = pale_discs(candidates, share * 0, mask, raw, 2.0 * CHIP, SHAPE)
    assert not made and not doubtful.any() and (found == "").all()


BIG_W, BIG_H, BIG_CHIP = 45, 30, 12  # a bigger grid image than the others': smooth outlines


def _big_grid_with_chips() -> tuple[CellShape, np.ndarray, float]:
    """``(shape, mask, chip width)`` of a ``BIG_W`` x ``BIG_H`` cell grid's mask holding three
    round chips of radius ``BIG_CHIP`` (the board's own, to measure its chip width by)."""
    shape = CellShape(BIG_W, BIG_H)
    mask = np.zeros((10 * BIG_H, 10 * BIG_W), np.uint8)
    for r, c in ((7, 1), (8, 2), (6, 0)):
        centre = (round((c + 0.5) * BIG_W), round((r + 0.5) * BIG_H))
        cv2.circle(mask, centre, BIG_CHIP, 255, -1)
    raw = (mask > 0).reshape(10, BIG_H, 10, BIG_W).mean(axis=(1, 3))
    width = board_chip_width(mask, raw, shape)
    assert width is not None
    return shape, mask, width


def test_a_chip_less_round_than_a_disc_is_still_a_chip():
    """Small in the frame a chip's outline is ragged (its highlight bites into the rim, its
    side wall and shadow add to it) and a tilt makes it an ellipse: as wide as a chip and
    about as round (here 1.3x its inner circle), it is a chip's disc, though not a round one;
    a heart as wide is not, nor a square blob a cell wide (a patterned card back)."""
    from companion.vision.chip_shapes import ROUND_DISC, WIDE_DISC, chip_disc

    w, h, radius = BIG_W, BIG_H, BIG_CHIP
    shape, mask, width = _big_grid_with_chips()
    centre = (round(1.5 * w), round(1.5 * h))
    cv2.ellipse(mask, centre, (round(1.5 * (radius - 1)), radius - 1), 0, 0, 360, 255, -1)
    ink = np.zeros((10 * h, 10 * w, 3), np.uint8)
    draw_suit(ink, "H", (round(3.5 * w), round(3.5 * h)), 2.2 * radius, (255,) * 3)
    mask = np.maximum(mask, (ink[..., 0] > 127).astype(np.uint8) * 255)
    cv2.rectangle(mask, (5 * w + 1, 5 * h + 1), (6 * w - 2, 6 * h - 2), 255, -1)
    ellipse = chip_disc(mask, 1, 1, shape, width)
    assert ellipse & WIDE_DISC and not ellipse & ROUND_DISC
    assert chip_disc(mask, 3, 3, shape, width) == 0
    assert chip_disc(mask, 5, 5, shape, width) == 0


def test_a_chip_with_printing_touching_its_rim_is_still_a_chip():
    """Small in the frame, a red chip on a card printed red touches the card's index and pips:
    they join its blob, which is no longer round (here over 1.5x its inner circle). An opening
    a part of a chip wide cuts them off and leaves the chip's disc; a heart as wide as a chip's
    inner circle is none, nor the pips alone."""
    from companion.vision.chip_shapes import WIDE_DISC, blob_circle, chip_disc, roundness

    w, h, radius = BIG_W, BIG_H, BIG_CHIP
    shape, mask, width = _big_grid_with_chips()
    x, y = round(1.5 * w), round(1.5 * h)
    cv2.circle(mask, (x, y), radius, 255, -1)
    for dx in (-radius - 2, radius + 2):  # index strokes touching the rim, left and right
        cv2.rectangle(mask, (x + dx - 3, y - 11), (x + dx + 3, y + 11), 255, -1)
    diameter, area, _ = blob_circle(mask, 1, 1, shape)
    assert roundness(diameter, area) > 1.5
    assert chip_disc(mask, 1, 1, shape, width) & WIDE_DISC
    # pips alone, and a heart, are no chip however they are opened
    x, y = round(3.5 * w), round(3.5 * h)
    for dx in (-radius - 2, radius + 2):
        cv2.rectangle(mask, (x + dx - 3, y - 11), (x + dx + 3, y + 11), 255, -1)
    assert chip_disc(mask, 3, 3, shape, width) == 0
    ink = np.zeros((10 * h, 10 * w, 3), np.uint8)
    draw_suit(ink, "H", (round(5.5 * w), round(5.5 * h)), 2.2 * radius, (255,) * 3)
    mask = np.maximum(mask, (ink[..., 0] > 127).astype(np.uint8) * 255)
    assert chip_disc(mask, 5, 5, shape, width) == 0


def test_a_chip_holed_by_its_highlight_near_its_rim_keeps_its_disc_through_the_opening():
    """The opening that cuts a card's index off a chip's rim widens the hole its highlight
    leaves in the red class; near the rim the hole then cuts the disc open and the chip measured
    too narrow and not round (4 cm chips on independently drawn jax boards, left `?`). The small
    hole is filled first; a ring's hole as big as printing leaves (a printed loop) is not."""
    from companion.vision.chip_shapes import WIDE_DISC, blob_circle, chip_disc, roundness

    w, h, radius = BIG_W, BIG_H, BIG_CHIP
    shape, mask, width = _big_grid_with_chips()
    for r, c, hole in ((1, 1, 0), (3, 3, radius - 6)):
        x, y = round((c + 0.5) * w), round((r + 0.5) * h)
        cv2.circle(mask, (x, y), radius, 255, -1)
        if hole:
            cv2.circle(mask, (x, y), hole, 0, -1)  # a ring: red printed around a white middle
        else:
            cv2.circle(mask, (x - 6, y - 5), 2, 0, -1)  # the highlight's hole, towards the rim
        for dx in (-radius - 2, radius + 2):  # index strokes touching the rim, left and right
            cv2.rectangle(mask, (x + dx - 3, y - 11), (x + dx + 3, y + 11), 255, -1)
    diameter, area, _ = blob_circle(mask, 1, 1, shape)
    assert roundness(diameter, area) > 1.5
    assert chip_disc(mask, 1, 1, shape, width) & WIDE_DISC
    assert chip_disc(mask, 3, 3, shape, width) == 0


def test_a_faint_disc_of_a_chips_hue_is_a_washed_chip_and_faint_print_is_not():
    """Under glare taken off, a chip keeps only a faint hue (saturation ~25 of 255) over its
    disc: as wide as the board's chips, it is doubted; a faint pink heart, a faint thin ring
    and a faint disc of a hue no chip has (a yellow picture) are not."""
    from companion.vision.colour import ColourProfile
    from companion.vision.small_chips import washed_discs

    hsv = np.zeros((10 * H, 10 * W, 3), np.uint8)
    hsv[:] = (20, 6, 225)  # a card's white
    chip = 2 * CHIP

    def centre(r, c):
        return round((c + 0.5) * W), round((r + 0.5) * H)

    disc = np.zeros(hsv.shape[:2], np.uint8)
    cv2.circle(disc, centre(2, 2), CHIP, 255, -1)
    hsv[disc > 0] = (60, 25, 215)  # a green chip washed out
    yellow = np.zeros_like(disc)
    cv2.circle(yellow, centre(4, 4), CHIP, 255, -1)
    hsv[yellow > 0] = (27, 25, 215)
    dot = np.zeros_like(disc)
    cv2.circle(dot, centre(6, 6), CHIP // 2, 255, -1)
    hsv[dot > 0] = (110, 25, 215)
    heart = np.zeros(hsv.shape, np.uint8)
    draw_suit(heart, "H", centre(8, 8), 0.5 * H, (255,) * 3)
    hsv[heart[..., 0] > 127] = (176, 25, 215)
    candidates = np.zeros((10, 10), bool)
    for cell in ((2, 2), (4, 4), (6, 6), (8, 8), (1, 7)):
        candidates[cell] = True
    doubtful = washed_discs(candidates, hsv, ColourProfile(), float(chip), SHAPE)
    assert np.argwhere(doubtful).tolist() == [[2, 2]]


def test_a_faint_disc_of_one_chip_colour_is_read_as_that_chip():
    """A cell left unknown for glare whose faint hue makes a chip's disc in one chip colour
    holds that chip: blue or green anywhere, red only where glare was found (a hand's skin is
    in red's faint hues); a faint disc too small for a chip, or in a hue no chip has, is left
    to the doubt."""
    from companion.vision.colour import ColourProfile
    from companion.vision.small_chips import washed_colour

    hsv = np.zeros((10 * H, 10 * W, 3), np.uint8)
    hsv[:] = (20, 6, 225)  # a card's white
    chip = 2 * CHIP
    discs = {
        (2, 2): (60, 0),  # green
        (2, 6): (110, 0),  # blue
        (5, 5): (176, 0),  # pink: a red chip washed out
        (5, 1): (176, 0),  # pink where glare was not found
        (7, 3): (60, -CHIP // 2),  # too small
        (7, 7): (27, 0),  # yellow
    }
    for (r, c), (hue, smaller) in discs.items():
        disc = np.zeros(hsv.shape[:2], np.uint8)
        cv2.circle(disc, (round((c + 0.5) * W), round((r + 0.5) * H)), CHIP + smaller, 255, -1)
        hsv[disc > 0] = (hue, 25, 215)
    candidates = np.zeros((10, 10), bool)
    for cell in (*discs, (8, 8)):
        candidates[cell] = True
    glared = np.zeros((10, 10), bool)
    glared[5, 5] = True
    read = washed_colour(candidates, hsv, ColourProfile(), float(chip), SHAPE, red=glared)
    assert {tuple(rc): str(read[tuple(rc)]) for rc in np.argwhere(read != "")} == {
        (2, 2): "G",
        (2, 6): "B",
        (5, 5): "R",
    }


def test_a_faint_disc_is_read_against_the_card_s_twin_where_one_reads_empty():
    """A picture card's art may show a chip's colour: its faint disc is a chip only against
    its twin card read empty, where the same art shows no such disc. Against such a twin, a
    blob as wide as a chip but not round (a washed-out chip joined to a faint pip) is a chip
    too; without one, only a round disc is."""
    from companion.vision.colour import ColourProfile
    from companion.vision.small_chips import washed_colour

    hsv, chip, centre = _white_cards()
    for cell in ((2, 2), (4, 4), (8, 8)):  # (8, 8): the twin of (4, 4), the same green art
        cv2.circle(hsv, centre(*cell), CHIP, (60, 25, 215), -1)
    for cell in ((6, 2), (6, 6)):  # a chip's disc joined to a pip: as wide, not round
        cv2.circle(hsv, centre(*cell), CHIP, (60, 25, 215), -1)
        x, y = centre(*cell)
        cv2.circle(hsv, (x + CHIP + 1, y), 5, (60, 25, 215), -1)  # (1.33x its inner circle)
    candidates = np.zeros((10, 10), bool)
    for cell in ((2, 2), (4, 4), (6, 2), (6, 6)):
        candidates[cell] = True
    twin_of = np.full((10, 10), -1)
    twin_of[2, 2], twin_of[4, 4], twin_of[6, 2] = 7 * 10 + 7, 8 * 10 + 8, 1 * 10 + 7
    read = washed_colour(candidates, hsv, ColourProfile(), float(chip), SHAPE, twin_of=twin_of)
    assert np.argwhere(read != "").tolist() == [[2, 2], [6, 2]]
    assert read[2, 2] == read[6, 2] == "G"


def test_a_faint_green_ellipse_or_one_with_solid_blue_is_read_without_a_twin():
    """A pale chip squeezed into an ellipse by a tilted view: its faint disc is as wide as a
    chip but not round. Without a twin read empty a green one is read (green is never
    printed); a blue one only where the cell shows a good part of blue at full saturation too
    (``WIDE_SOLID``: a mint chip washed out to cyan shows none). Never red that way."""
    from companion.vision.colour import ColourProfile
    from companion.vision.small_chips import WIDE_SOLID, washed_colour

    hsv = np.zeros((10 * H, 10 * W, 3), np.uint8)
    hsv[:] = (20, 6, 225)  # a card's white
    chip = 2 * CHIP
    cells = {(2, 2): 110, (2, 6): 110, (6, 2): 60, (6, 6): 176, (8, 4): 60}
    for (r, c), hue in cells.items():
        centre = (round((c + 0.5) * W), round((r + 0.5) * H))
        # (as wide as a chip, 0.86 of its width, but 1.4x its inner circle: not round)
        cv2.ellipse(hsv, centre, (CHIP + 2, CHIP - 1), 0, 0, 360, (hue, 25, 215), -1)
    candidates = np.zeros((10, 10), bool)
    for cell in cells:
        candidates[cell] = True
    raw = {sym: np.zeros((10, 10), np.float32) for sym in "BGR"}
    raw["B"][2, 2] = raw["G"][6, 2] = raw["R"][6, 6] = WIDE_SOLID + 0.05
    raw["B"][2, 6] = WIDE_SOLID - 0.05  # too little saturated blue: the doubt stays
    # (and (8, 4) green with no saturated green at all: read)
    profile = ColourProfile()
    assert not washed_colour(candidates, hsv, profile, float(chip), SHAPE, red=candidates).any()
    read = washed_colour(candidates, hsv, profile, float(chip), SHAPE, red=candidates, raw=raw)
    assert {tuple(rc): str(read[tuple(rc)]) for rc in np.argwhere(read != "")} == {
        (2, 2): "B",
        (6, 2): "G",
        (8, 4): "G",
    }


def test_a_faint_disc_far_off_its_cells_middle_is_not_read_there():
    """A faint hue's mask takes in a neighbour's chip too, and a grid a part of a cell off puts
    chips near the cells beside their own: a faint disc centred 0.35 of a cell off its cell's
    middle is not read there (it still counts as a washed-out chip's, left unknown); 0.2 off,
    as chips placed off-centre lie, it is read."""
    from companion.vision.colour import ColourProfile
    from companion.vision.small_chips import washed_colour, washed_discs

    hsv = np.zeros((10 * H, 10 * W, 3), np.uint8)
    hsv[:] = (20, 6, 225)  # a card's white
    chip = 2 * CHIP
    for (r, c), off in (((2, 2), 0.35), ((6, 6), 0.2)):
        x = round((c + 0.5 - off) * W)
        cv2.circle(hsv, (x, round((r + 0.5) * H)), CHIP, (110, 25, 215), -1)
    candidates = np.zeros((10, 10), bool)
    candidates[2, 2] = candidates[6, 6] = True
    read = washed_colour(candidates, hsv, ColourProfile(), float(chip), SHAPE)
    assert np.argwhere(read != "").tolist() == [[6, 6]] and read[6, 6] == "B"
    doubted = washed_discs(candidates, hsv, ColourProfile(), float(chip), SHAPE)
    assert doubted[2, 2] and doubted[6, 6]


def test_a_pink_chip_split_between_red_and_crimson_hues_is_one_disc():
    """A red chip washed pink across red's lower edge: its disc lies half in red's band (170+)
    and part in the crimson hues below it (165-169), and neither part is round. With as many
    crimson pixels as 0.3 of the red ones or more the two are one disc; a sliver of crimson
    beside a round red disc changes nothing."""
    from companion.vision.colour import ColourProfile
    from companion.vision.small_chips import washed_colour

    hsv = np.zeros((10 * H, 10 * W, 3), np.uint8)
    hsv[:] = (20, 6, 225)  # a card's white
    chip = 2 * CHIP
    for r, c, crimson_rows in ((2, 2, CHIP - 1), (6, 6, 2)):
        x, y = round((c + 0.5) * W), round((r + 0.5) * H)
        cv2.circle(hsv, (x, y), CHIP, (175, 60, 200), -1)  # red's band
        # the lower part in crimson: 0.4 of the disc at (2, 2), a sliver at (6, 6)
        band = np.zeros(hsv.shape[:2], np.uint8)
        cv2.circle(band, (x, y), CHIP, 255, -1)
        band[: y + CHIP - crimson_rows] = 0
        hsv[band > 0] = (166, 60, 200)
    # at (6, 6) a sliver of crimson on a disc that is round in red alone: red's disc reads
    candidates = np.zeros((10, 10), bool)
    candidates[2, 2] = candidates[6, 6] = True
    read = washed_colour(candidates, hsv, ColourProfile(), float(chip), SHAPE, red=candidates)
    assert read[2, 2] == "R" and read[6, 6] == "R"
    # with more crimson pixels than red required (as before 0.3), the halves are not joined
    from companion.vision import small_chips

    original = small_chips.CRIMSON_SHARE
    try:
        small_chips.CRIMSON_SHARE = 1.0
        read = washed_colour(candidates, hsv, ColourProfile(), float(chip), SHAPE, red=candidates)
    finally:
        small_chips.CRIMSON_SHARE = original
    assert read[2, 2] == "" and read[6, 6] == "R"


def _bitten(planes: dict[str, np.ndarray], r: int, c: int, sym: str) -> None:
    """A chip of ``sym`` on cell ``(r, c)`` whose highlight, widened by a phone's sharpening,
    bites into its rim: a C of its colour, open to one side."""
    centre = (round((c + 0.5) * W), round((r + 0.5) * H))
    cv2.circle(planes[sym], centre, CHIP, 255, -1)
    cv2.ellipse(
        planes[sym], (centre[0] + CHIP // 2, centre[1]), (CHIP // 2 + 1, 1), 0, 0, 360, 0, -1
    )
    cv2.circle(planes[sym], (centre[0] + 1, centre[1]), 2, 0, -1)


def test_a_chip_bitten_at_its_rim_reads_on_cells_left_unknown_only():
    from companion.vision.chip_shapes import chip_disc
    from companion.vision.small_chips import bitten_disc

    planes, _ = _grid({})
    _bitten(planes, 2, 2, "G")
    _bitten(planes, 4, 4, "B")
    _bitten(planes, 6, 6, "R")
    raw = {s: (m > 0).reshape(10, H, 10, W).mean(axis=(1, 3)) for s, m in planes.items()}
    width = 2.0 * CHIP
    # as it is, the bitten blob is no disc; closed, it is one
    assert chip_disc(planes["G"], 2, 2, SHAPE, width) == 0
    assert bitten_disc(planes["G"], 2, 2, SHAPE, width)
    candidates = np.zeros((10, 10), bool)
    candidates[2, 2] = candidates[4, 4] = candidates[6, 6] = True
    assert small_chips(candidates, raw, planes, width, SHAPE) is None
    found = small_chips(candidates, raw, planes, width, SHAPE, bitten=candidates)
    # red is never closed: a closing joins a card's red pips into blobs
    assert [found[cell] for cell in [(2, 2), (4, 4), (6, 6)]] == ["G", "B", ""]


def test_closing_a_card_back_s_lattice_makes_no_chip():
    """A card back's lattice of blue lines: closed, it is a blob as wide as the card."""
    from companion.vision.small_chips import bitten_disc

    lattice = np.zeros((10 * H, 10 * W), np.uint8)
    x0, y0 = 3 * W + 2, 3 * H + 2
    for x in range(x0, x0 + W - 4, 4):
        cv2.line(lattice, (x, y0), (x, y0 + H - 4), 255, 1)
    for y in range(y0, y0 + H - 4, 4):
        cv2.line(lattice, (x0, y), (x0 + W - 4, y), 255, 1)
    assert bitten_disc(lattice, 3, 3, SHAPE, 2.0 * CHIP) == 0


def test_the_chip_width_of_a_board_whose_chips_are_all_bitten():
    planes, _ = _grid({})
    for r, c, sym in [(1, 1, "G"), (3, 5, "B"), (5, 2, "G"), (7, 7, "B")]:
        _bitten(planes, r, c, sym)
    raw = {s: (m > 0).reshape(10, H, 10, W).mean(axis=(1, 3)) for s, m in planes.items()}
    bg = cv2.bitwise_or(planes["B"], planes["G"])
    share = np.maximum(raw["B"], raw["G"])
    width = board_chip_width(bg, share, SHAPE)
    assert width is not None and abs(width - 2 * CHIP) <= 3
    # ... from three such chips at least
    one = np.zeros_like(bg)
    _bitten({"G": one}, 1, 1, "G")
    assert board_chip_width(one, (one > 0).reshape(10, H, 10, W).mean(axis=(1, 3)), SHAPE) is None


def test_a_phone_s_sharpened_chip_bitten_by_its_highlight_is_read():
    """A wood board after a phone's processing (colours boosted, an unsharp mask, JPEG 45;
    ``tests/independent/relight.py SRC OUT phone``): a green chip's highlight, widened by the
    sharpening, bit its disc open at the rim, and the cell was `?` (a pattern, undecided)."""
    from test_vision_support import independent_frame

    reading, truth = independent_frame("phone_wood20_frame_0012")
    assert reading.cells == truth["cells"]


def test_a_washed_out_chip_whose_shaded_rim_shows_dark_is_read():
    """An independent frame (jax15 frame 23): a green chip washed out by glare over the king of
    diamonds (C10); with the glare's light taken off its shaded rim is darker than the card's
    white, a dark blob as a sleeve shows (``dark_object``), and the cell stayed `?` though its
    faint green disc is a chip's. Where glare was found that blob is a washed-out chip's."""
    from test_vision_support import independent_frame

    reading, truth = independent_frame("jax15_frame_0023")
    assert truth["cells"][9][2] == "G"
    assert reading.cells == truth["cells"]


def test_a_red_ace_s_washed_out_pip_against_its_twin_is_no_chip():
    """A red ace prints one big pip, as wide as a chip but not as round; under glare it is a
    faint red blob that its twin, in the light, does not show. On the red aces (``pips``) red
    is read only as a round disc, twin or not; on other cards a wide disc against a twin read
    empty still is a chip."""
    from companion.vision.colour import ColourProfile
    from companion.vision.small_chips import washed_colour

    hsv, chip, centre = _white_cards()
    faint_red = (178, 45, 215)
    for cell in ((2, 2), (6, 6)):  # as wide as a chip, not round: a pip, or a chip and a pip
        x, y = centre(*cell)
        cv2.circle(hsv, (x, y), CHIP, faint_red, -1)
        cv2.circle(hsv, (x + CHIP + 1, y), 5, faint_red, -1)
    cv2.circle(hsv, centre(4, 4), CHIP, faint_red, -1)  # a round disc: a chip
    candidates = np.zeros((10, 10), bool)
    twin_of = np.full((10, 10), -1)
    for cell, twin in (((2, 2), 77), ((6, 6), 11), ((4, 4), 88)):
        candidates[cell] = True
        twin_of[cell] = twin  # twins read empty, showing no red blob
    pips = np.zeros((10, 10), bool)
    pips[2, 2] = pips[4, 4] = True
    red = candidates.copy()
    args = (candidates, hsv, ColourProfile(), float(chip), SHAPE, red, None, twin_of)
    assert np.argwhere(washed_colour(*args) == "R").tolist() == [[2, 2], [4, 4], [6, 6]]
    read = washed_colour(*args, pips=pips)
    assert np.argwhere(read == "R").tolist() == [[4, 4], [6, 6]]


def test_a_red_ace_under_glare_is_not_read_red_against_its_twin():
    """An independent frame (mixed13 frame 65): the ace of hearts (F2) under glare, its twin in
    the light and read empty; its washed-out pip, wide but not round, was read red at 0.5."""
    from test_vision_support import independent_frame

    reading, truth = independent_frame("mixed13_frame_0065")
    assert truth["cells"][1][5] == "."
    wrong = [
        (r, c)
        for r in range(10)
        for c in range(10)
        if reading.cells[r][c] not in ("?", truth["cells"][r][c])
    ]
    assert wrong == []


def _white_cards():
    """An HSV grid image of plain white cards, a chip's width on it, and a cell's centre."""
    hsv = np.zeros((10 * H, 10 * W, 3), np.uint8)
    hsv[:] = (20, 6, 225)  # a card's white

    def centre(r, c):
        return round((c + 0.5) * W), round((r + 0.5) * H)

    return hsv, 2 * CHIP, centre
