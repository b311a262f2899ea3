"""A loose card lying askew on the board: its straight sides, at a slant to the grid and longer
than anything printed in a cell, mark the cells they run through (``slanted_edges``), and a chip
there, or beside it under the card, reads `?` (``chips.classify``'s ``slanted_edge``), never
the empty card or the red card back that shows."""

import cv2
import numpy as np
import pytest
from test_vision_support import STRAIGHT_CELL, cli_frame, confidently_wrong, straight_sevens

from companion.vision import chips, slanted_edges
from companion.vision.colour import ColourProfile
from companion.vision.pipeline import BoardReader

N = STRAIGHT_CELL
BLUE, GREEN, RED = (170, 70, 20), (40, 150, 30), (40, 40, 200)


def _board_with_chips() -> np.ndarray:
    """Sevens with chips, two pairs of them diagonal neighbours (their outlines line up at
    a slant across two cells, as a card's side would)."""
    img = straight_sevens()
    for (r, c), colour in {
        (2, 2): BLUE,
        (3, 3): BLUE,
        (6, 6): GREEN,
        (7, 5): GREEN,
        (1, 7): RED,
        (4, 8): BLUE,
    }.items():
        cv2.circle(img, (c * N + N // 2, r * N + N // 2), int(0.39 * N), colour, -1)
    return img


def _loose_card(img: np.ndarray, centre, size, angle: float) -> np.ndarray:
    """A white playing card (``size`` in cells) lying at ``angle`` degrees over the grid: a
    little whiter than the board's cards, a thin shadow along its sides (a card lies a little
    above the board), as the renderer draws one and a camera sees one."""
    box = cv2.boxPoints(((centre[0] * N, centre[1] * N), (size[0] * N, size[1] * N), angle))
    corners = np.int32(np.round(box))
    out = img.copy()
    cv2.polylines(out, [corners], True, (90, 90, 90), 3, lineType=cv2.LINE_AA)
    cv2.fillConvexPoly(out, corners, (248, 248, 248), lineType=cv2.LINE_AA)
    return out


def _crossed(img: np.ndarray) -> np.ndarray:
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    return slanted_edges.slanted_edge_cells(grey, N, N)


def test_the_board_s_own_lines_chips_and_printing_make_no_slanted_edge():
    assert (_crossed(_board_with_chips()) == 0).all()


def test_a_loose_card_s_sides_mark_the_cells_they_run_through():
    img = _loose_card(_board_with_chips(), (5.0, 5.0), (2.6, 1.8), 20.0)
    crossed = _crossed(img) >= chips.SLANTED_EDGE_IN
    assert crossed.sum() >= 4
    # every marked cell lies at the card: within its outline grown by a cell
    near = np.zeros((10, 10), bool)
    near[2:8, 2:8] = True
    assert not (crossed & ~near).any()


def test_a_chip_under_a_loose_card_s_side_is_unknown_not_empty():
    img = _board_with_chips()
    cv2.circle(img, (5 * N + N // 2, 4 * N + N // 2), int(0.39 * N), GREEN, -1)
    img = _loose_card(img, (5.6, 5.3), (2.6, 1.8), 20.0)
    why: dict = {}
    symbols, _ = chips.classify(chips.measure(img, ColourProfile()), why=why)
    assert symbols[4, 5] == "?" and why["slanted_edge"][4, 5]
    # chips in plain sight away from the card read as they are
    assert symbols[1, 7] == "R" and symbols[2, 2] == "B"


@pytest.mark.parametrize(
    "seed, index, art, hands, hidden_chips",
    [
        # a white card (the eight of clubs) over four chips: read empty, like empty cards
        (88566, 14, "cards", 0.0, ["C4", "D4", "C5", "D5"]),
        # a red-backed card over a red chip, reaching an empty card: read as a red chip
        (77577, 268, "cards", 0.2, []),
    ],
)
def test_rendered_loose_cards_hide_no_chip_and_make_none(seed, index, art, hands, hidden_chips):
    """Never-seen frames (`companion render --seed SEED --art ART --hands HANDS --board-share
    0.3-0.95`, frame INDEX) with a loose card lying askew: every cell reads its truth or `?`
    (before, the cards' cells read confidently wrong), the chips under the card `?`."""
    image, truth = cli_frame(seed, index, art, hands=hands, board_share=(0.3, 0.95))
    reading = BoardReader().read(image)
    assert reading.board_found and reading.orientation == truth.orientation
    assert confidently_wrong(reading, truth.cells) == []
    for name in hidden_chips:
        row, col = int(name[1:]) - 1, ord(name[0]) - ord("A")
        assert truth.cells[row][col] in "BGR" and reading.cells[row][col] == "?"
    assert any("slanted_edge" in why for why in reading.unknown_reasons.values())


def test_a_fixed_camera_looks_again_only_where_new_signs_of_a_cover_show(monkeypatch):
    """The look costs a line segment detection (~6 ms): a fixed camera (one ``MeasureCache``)
    keeps its answer while no cell shows a sign of a cover it did not show when it was asked
    (a board whose glare or faint lines show signs on every frame), and looks again when a
    second card arrives elsewhere."""
    looks = []
    real = chips.slanted_edge_cells

    def counted(*args):
        looks.append(1)
        return real(*args)

    monkeypatch.setattr(chips, "slanted_edge_cells", counted)
    one_card = _loose_card(_board_with_chips(), (5.0, 5.0), (2.6, 1.8), 20.0)
    cache = chips.MeasureCache()
    first = chips.measure(one_card, ColourProfile(), cache)
    again = chips.measure(one_card, ColourProfile(), cache)
    assert len(looks) == 1 and (again.slanted_edge == first.slanted_edge).all()
    two_cards = _loose_card(one_card, (2.0, 8.0), (2.6, 1.8), -25.0)
    both = chips.measure(two_cards, ColourProfile(), cache)
    assert len(looks) == 2
    assert (both.slanted_edge[6:10, 0:4] >= chips.SLANTED_EDGE_IN).any()
    assert not (first.slanted_edge[6:10, 0:4] > 0).any()
    # a clean board is never looked at
    assert chips.measure(_board_with_chips(), ColourProfile()).slanted_edge is None


def test_readers_in_several_threads_look_at_once():
    """The web server reads the live camera in one thread while another calibrates: both may
    look for a card's sides at once (one shared detector aborted the whole process)."""
    from concurrent.futures import ThreadPoolExecutor

    grey = cv2.cvtColor(
        _loose_card(_board_with_chips(), (5.0, 5.0), (2.6, 1.8), 20.0), cv2.COLOR_BGR2GRAY
    )
    alone = slanted_edges.slanted_edge_cells(grey, N, N)
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: slanted_edges.slanted_edge_cells(grey, N, N), range(200)))
    assert all((r == alone).all() for r in results)
