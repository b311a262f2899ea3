"""``companion eval`` on a folder of frames with truth sidecars."""

import json

import cv2
import numpy as np
from test_vision_support import EMPTY, SOME, make_frame

from companion.cli import main
from companion.render.truth import Truth, save
from companion.vision.evaluate import FrameScore, score_frame, summarize
from companion.vision.reading import BoardReading


def _truth(cells, orientation, corners, occluded=None):
    return Truth(
        board_found=True,
        orientation=orientation,
        cells=list(cells),
        corners=corners,
        occluded=np.zeros((10, 10), bool) if occluded is None else occluded,
        size=(640, 480),
        art="sketch",
    )


def test_eval_json_figures(tmp_path, capsys):
    for i, (cells, o) in enumerate([(SOME, 0), (EMPTY, 90), (SOME, 180)]):
        frame, corners = make_frame(cells, orientation=o, seed=20 + i)
        path = tmp_path / f"f{i}.png"
        cv2.imwrite(str(path), frame)
        save(_truth(cells, o, corners), path)
    blank = tmp_path / "none.png"
    cv2.imwrite(str(blank), np.full((240, 320, 3), 70, np.uint8))
    save(Truth(board_found=False, size=(320, 240)), blank)
    assert main(["eval", str(tmp_path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    overall = result["overall"]
    assert overall["frames"] == 4 and overall["board_free_frames"] == 1
    assert overall["boards_found"] == 1.0
    assert overall["false_boards"] == 0
    assert overall["orientation_accuracy"] == 1.0
    assert overall["confident_cell_error"] == 0.0
    assert overall["full_board_exact"] == 1.0
    assert overall["corner_error_px_max"] < 6
    assert "art:sketch" in result


def test_eval_empty_folder_and_missing_folder(tmp_path, capsys):
    assert main(["eval", str(tmp_path)]) == 1
    assert main(["eval", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert "no images with truth sidecars" in err and "not a folder" in err


def test_score_counts_confident_wrong_under_hands_separately():
    corners = np.array([[0, 0], [100, 0], [100, 100], [0, 100]], float)
    occluded = np.zeros((10, 10), bool)
    occluded[4, :3] = True
    truth = _truth(SOME, 0, corners, occluded)
    got = [list(r) for r in SOME]
    got[4][0] = "B"  # under the hand, wrong and confident
    got[4][1] = "?"  # under the hand, abstained
    got[2][2] = "."  # visible, wrong (truth B)
    got[3][3] = "?"  # visible, abstained
    reading = BoardReading(
        board_found=True, orientation=0, cells=["".join(r) for r in got], corners=corners
    )
    s = score_frame("x", reading, truth, ms=5.0)
    assert (s.visible, s.visible_wrong, s.visible_unknown) == (93, 1, 1)
    assert (s.occluded, s.occluded_wrong) == (3, 1)
    assert s.exact is None  # frames with hands do not count for the exact-board rate
    summary = summarize([s, FrameScore(name="y", has_board=False, found=True)])
    assert summary["false_boards"] == 1
    assert summary["occluded_confident_wrong"] == 1 / 3
    assert summary["confident_cell_error"] == 1 / 93


def test_eval_rejects_a_limit_below_one(tmp_path, capsys):
    for bad in ("-1", "0", "two"):
        try:
            code = main(["eval", str(tmp_path), "--limit", bad])
        except SystemExit as exc:  # argparse reports bad arguments with exit code 2
            code = exc.code
        assert code == 2
        assert "--limit" in capsys.readouterr().err


def test_bench_vision_reports_wall_and_cpu_time_of_locating(tmp_path, capsys):
    frame, _ = make_frame(SOME, orientation=90, seed=31)
    path = tmp_path / "bench.png"
    cv2.imwrite(str(path), frame)
    assert main(["bench", "vision", "--repeat", "2", "--image", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["repeat"] == 2 and result["threads"] == 1
    assert result["locate_and_orient_ms"] > 0 and result["locate_and_orient_cpu_ms"] > 0
    # the reading and the conversion it is held against, as CPU time too
    assert result["read_located_cpu_ms"] > 0 and result["bgr_to_lab_cpu_ms"] > 0
    cpu_ratio = result["read_located_cpu_ms"] / result["bgr_to_lab_cpu_ms"]
    assert abs(result["read_to_lab_cpu_ratio"] - cpu_ratio) < 0.01
    assert result["fast_path_every_run"] is True
    assert result["locate_target_ms"] == 100
    assert result["cells_read"] == list(SOME)
    assert main(["bench", "vision", "--repeat", "0", "--image", str(path)]) == 2
