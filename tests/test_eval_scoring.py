"""``companion.vision.evaluate``: how frames are scored against their truth."""

from __future__ import annotations

import numpy as np

from companion.render.truth import Truth
from companion.vision.evaluate import score_frame, summarize
from companion.vision.reading import BoardReading

CELLS = ["*........*"] + ["." * 10] * 8 + ["*........*"]
CORNERS = np.float32([[100, 100], [500, 100], [500, 400], [100, 400]])


def _truth(hidden: bool) -> Truth:
    occluded = np.zeros((10, 10), bool)
    occluded[4, 4] = hidden
    return Truth(True, 0, CELLS, CORNERS, occluded, size=(640, 480), art="text")


def _read(cells) -> BoardReading:
    if cells is None:
        return BoardReading(board_found=False, orientation=None, cells=None, confidence=None)
    return BoardReading(
        True, orientation=0, cells=cells, confidence=np.ones((10, 10)), corners=CORNERS
    )


def test_full_board_exact_counts_missed_boards_only_on_unobstructed_frames():
    one_unknown = list(CELLS)
    one_unknown[2] = "?" + "." * 9
    scores = [
        score_frame("right", _read(CELLS), _truth(False), 1.0),
        score_frame("a ? on a clear board", _read(one_unknown), _truth(False), 1.0),
        score_frame("missed, clear board", _read(None), _truth(False), 1.0),
        score_frame("missed under a hand", _read(None), _truth(True), 1.0),
        score_frame("read under a hand", _read(CELLS), _truth(True), 1.0),
    ]
    summary = summarize(scores)
    assert summary["boards_found"] == 3 / 5
    assert summary["full_board_exact"] == 1 / 3  # right / (right, the ?, missed clear board)
    assert summary["abstention_rate"] == 1 / (96 + 96 + 95)


def test_abstention_is_counted_by_the_most_telling_cause_of_each_visible_unknown_cell():
    cells = list(CELLS)
    cells[2] = "??" + "." * 8
    cells[4] = "...." + "?" + "....."  # E5: hidden under the hand, not counted
    reading = _read(cells)
    reading.unknown_reasons = {
        "A3": ("glare", "undecided"),
        "B3": (),
        "E5": ("pale_hand",),
    }
    score = score_frame("glare and a hand", reading, _truth(True), 1.0)
    assert score.unknown_causes == {"A3": "glare", "B3": ""}
    summary = summarize([score, score_frame("clear", _read(CELLS), _truth(False), 1.0)])
    assert summary["abstention_causes"] == {"glare": 1, "unnamed": 1}
