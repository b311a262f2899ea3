"""Replays: the whole live pipeline on rendered games, and the ``companion replay`` command."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from companion.capture.frame import Frame
from companion.cli import main
from companion.render.game_video import (
    HOVER,
    MISREAD,
    PLACE,
    PUT_BACK,
    REMOVE,
    Step,
    Timeline,
    Timing,
    TruthReader,
    check_script,
    demo_script,
    demo_spec,
    game_frames,
    script_frames,
    script_record,
)
from companion.session import GameSession
from companion.store import Store

DEMO = Path(__file__).resolve().parent.parent / "sample_images" / "demo_game"


def replay_with_truth(spec, script, fps=15.0) -> GameSession:
    """Run rendered frames through a real session whose 'vision' is the renderer's truth."""
    reader = TruthReader()
    session = GameSession(store=Store(), reader=reader)
    for i, (image, cells) in enumerate(game_frames(spec, script, fps)):
        reader.cells = cells
        session.process_frame(Frame(image, i / fps, i, "render"))
    return session


def test_the_demo_script_is_refereed_exactly_from_rendered_frames():
    """Real motion from real rendered hands, perfect cell reads: tracker + session + referee."""
    spec = dataclasses.replace(demo_spec((320, 240)), camera_seed=5)
    script = demo_script()
    session = replay_with_truth(spec, script)
    expected = script_record(script)
    assert session.export_record() == expected
    codes = [r["code"] for r in session.state()["rulings"]]
    assert codes.count("remove_locked") == 1  # the illegal removal, then it was put back
    assert "board_mismatch" not in codes  # the misread flicker and the hover made no ruling
    assert len(codes) == len(expected["moves"])
    assert session.state()["winner"] == "blue"
    assert session.state()["status"] == "game_over"


def test_scripts_are_checked_before_rendering():
    with pytest.raises(ValueError, match="corner"):
        check_script([Step(PLACE, "blue", "A1")])
    with pytest.raises(ValueError, match="kind"):
        check_script([Step("jump", "blue", "B2")])
    with pytest.raises(ValueError, match="color"):
        check_script([Step(PLACE, "purple", "B2")])
    kinds = {s.kind for s in demo_script()}
    assert kinds == {PLACE, REMOVE, PUT_BACK, HOVER, MISREAD}


def test_an_illegal_removal_is_put_back_with_the_chip_it_took():
    # blue's locked C1 is taken off by green and put back: the blue chip, not a green one
    boards = [
        cells
        for cells, _ in script_frames(demo_spec(), demo_script(), Timing(), 15.0, Timeline(15.0))
    ]
    c1 = [board[0][2] for board in boards]
    assert "." in c1[c1.index("B") :]  # taken off after blue placed it
    assert set(c1[c1.index("B") :]) == {"B", "."}  # and only ever blue again
    assert c1[-1] == "B"


def test_demo_record_matches_its_script():
    expected = json.loads((DEMO / "expected_record.json").read_text())
    assert expected == script_record(demo_script())


def test_replay_reproduces_the_demo_record_exactly(tmp_path, capsys):
    out = tmp_path / "record.json"
    code = main(["replay", str(DEMO / "game.mp4"), "--record", str(out), "--quiet"])
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    expected = json.loads((DEMO / "expected_record.json").read_text())
    assert json.loads(out.read_text()) == expected
    assert summary["winner"] == "blue" and summary["record_moves"] == len(expected["moves"])


def test_replay_names_the_players(tmp_path, capsys):
    frames = tmp_path / "frames"
    frames.mkdir()
    import cv2

    from companion.render import render_frame

    image, _ = render_frame(demo_spec((320, 240)))
    for i in range(3):
        cv2.imwrite(str(frames / f"{i:03}.png"), image)
    out = tmp_path / "r.json"
    code = main(
        [
            "replay",
            str(frames),
            "--record",
            str(out),
            "--players",
            "Ann:green,Bo:blue",
            "--quiet",
            "--db",
            str(tmp_path / "g.db"),
        ]
    )
    assert code == 0
    record = json.loads(out.read_text())
    assert record["players"] == [{"name": "Ann", "team": "green"}, {"name": "Bo", "team": "blue"}]
    assert record["moves"] == []
    assert json.loads(capsys.readouterr().out)["frames"] == 3
    assert (tmp_path / "g.db").exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (["missing.mp4"], "does not exist"),
        (["{demo}", "--players", "Ann"], "NAME:TEAM"),
        (["{demo}", "--players", "Ann:blue"], "bad setup"),
        (["{demo}", "--option", "nonsense"], "KEY=VALUE"),
        (["{demo}", "--window", "-1"], "--window"),
        (["{demo}", "--window", "nan"], "--window"),
        (["{demo}", "--window", "inf"], "--window"),
        (["{demo}", "--fps", "-3"], "--fps must be a finite number above 0"),
        (["{demo}", "--fps", "nan"], "--fps must be a finite number above 0"),
        (["{demo}", "--fps", "0"], "--fps must be a finite number above 0"),
        (["{demo}", "--players", "Ann:purple,Bo:green"], "team colour 'purple'"),
        (["{notimg}"], "holds no frame OpenCV can decode"),
        (["{demo}", "--give-up", "0"], "--give-up must be a finite number of seconds above 0"),
        (["{demo}", "--give-up", "nan"], "--give-up must be a finite number of seconds above 0"),
        (["{demo}", "--follow"], "only a folder of frames can be followed"),
    ],
)
def test_bad_input_exits_2_with_a_message(tmp_path, capsys, args, message):
    notimg = tmp_path / "notimg.jpg"
    notimg.write_text("not an image")
    args = [
        a.replace("{demo}", str(DEMO / "game.mp4")).replace("{notimg}", str(notimg)) for a in args
    ]
    code = main(["replay", *args, "--record", str(tmp_path / "r.json"), "--quiet"])
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "r.json").exists()


def test_unwritable_record_folder_exits_2(tmp_path, capsys):
    code = main(["replay", str(DEMO / "game.mp4"), "--record", str(tmp_path / "no" / "r.json")])
    assert code == 2
    assert "does not exist" in capsys.readouterr().err


def test_bench_harness_scores_a_small_rendered_game(tmp_path):
    """The benchmark's own bookkeeping, on a 3-move game with perfect reads (no vision)."""
    import numpy as np

    from companion.tracking import bench

    script = [
        Step(PLACE, "blue", "C3"),
        Step(HOVER, "green", "D4"),
        Step(PLACE, "green", "D4"),
        Step(REMOVE, "blue", "D4"),
    ]
    spec = dataclasses.replace(demo_spec((240, 180)), camera_seed=9)
    video, meta = bench._rendered(tmp_path, "tiny", lambda: (spec, script, 15.0))
    assert video.exists() and len(meta["perfect_reads"]) == meta["timeline"]["frames"]
    result = bench.replay_against_truth(video, meta, perfect=True)
    assert result["exact_record"] and result["moves_recognised"] == 3
    assert result["false_rulings"] == 0 and result["moves_under_hand"] == 0
    assert len(result["ruling_latency_s"]) == 3
    assert all(0.4 <= t <= 1.0 for t in result["ruling_latency_s"])
    assert np.median(result["watching_latency_s"]) <= 0.1
    again_video, again_meta = bench._rendered(tmp_path, "tiny", lambda: 1 / 0)  # cached
    assert again_meta == meta


def test_bench_refuses_bad_arguments(tmp_path, capsys):
    assert main(["bench", "replay", "--games", "-1", "--skip-throughput"]) == 2
    assert "--games" in capsys.readouterr().err
    assert main(["bench", "replay", "--seed", "-1", "--skip-throughput"]) == 2
    assert "--seed" in capsys.readouterr().err
    busy = tmp_path / "a-file"
    busy.write_text("")
    assert main(["bench", "replay", "--quick", "--work", str(busy), "--skip-throughput"]) == 2
    err = capsys.readouterr().err
    assert "--work" in err and "Traceback" not in err


def test_bench_without_the_demo_game_says_so(tmp_path, capsys, monkeypatch):
    """An installed wheel has no sample_images/ beside the package: a clear line, exit 2."""
    from companion.tracking import bench

    monkeypatch.setattr(bench, "demo_game_dir", lambda: None)
    code = main(["bench", "replay", "--quick", "--skip-throughput", "--work", str(tmp_path)])
    assert code == 2
    err = capsys.readouterr().err
    assert "demo game is not installed" in err and len(err.strip().splitlines()) == 1


def test_bench_finds_the_demo_where_the_package_keeps_it(tmp_path, monkeypatch):
    from companion.tracking import bench

    copy = tmp_path / "demo_game"
    copy.mkdir()
    for name in ("game.mp4", "timeline.json", "expected_record.json"):
        (copy / name).write_bytes((DEMO / name).read_bytes())
    monkeypatch.setattr(bench, "demo_game_dir", lambda: copy)
    video, meta = bench.load_demo()
    assert video == copy / "game.mp4"
    assert meta["record"] == json.loads((DEMO / "expected_record.json").read_text())
    (copy / "timeline.json").write_text("{")
    with pytest.raises(LookupError, match="incomplete"):
        bench.load_demo()


def test_ctrl_c_still_writes_the_record(tmp_path, capsys, monkeypatch):
    from companion.session import GameSession

    real = GameSession.process_frame
    seen = []

    def stop_after_100(self, frame):
        if len(seen) == 100:
            raise KeyboardInterrupt
        seen.append(frame.index)
        real(self, frame)

    monkeypatch.setattr(GameSession, "process_frame", stop_after_100)
    out = tmp_path / "r.json"
    assert main(["replay", str(DEMO / "game.mp4"), "--record", str(out), "--quiet"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["interrupted"] and summary["frames"] == 100
    record = json.loads(out.read_text())
    expected = json.loads((DEMO / "expected_record.json").read_text())
    assert record["players"] == expected["players"]
    assert len(record["moves"]) < len(expected["moves"])  # stopped early, written anyway


def test_an_unreadable_source_is_one_line_on_stderr_without_ffmpeg_noise(tmp_path):
    """The real command in its own process (ffmpeg's log level is set once per process)."""
    import subprocess
    import sys

    notimg = tmp_path / "notimg.jpg"
    notimg.write_text("hello, not an image")
    result = subprocess.run(
        [sys.executable, "-m", "companion.cli", "replay", str(notimg), "--record", "x.json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        f"companion replay: {notimg} holds no frame OpenCV can decode: not a video or image it "
        "reads (try an .mp4 or .avi file)"
    ]
    assert not (tmp_path / "x.json").exists()


def test_replay_reports_the_questions_it_asked_the_table(tmp_path, capsys, monkeypatch):
    """A glare spot hides A6..C8: blue E5 is seen, green's move under the glare is not, then
    blue's F6 is: the summary carries the question instead of a ruling, and the game waits."""
    import cv2
    import numpy as np

    from companion.vision.reading import BoardReading

    empty = ["*........*"] + ["." * 10] * 8 + ["*........*"]

    def board(**cells: str) -> list[str]:
        rows = [list(r) for r in empty]
        for col in "ABC":
            for row in (6, 7, 8):
                rows[row - 1]["ABCDEFGHIJ".index(col)] = "?"
        for name, symbol in cells.items():
            rows[int(name[1:]) - 1]["ABCDEFGHIJ".index(name[0])] = symbol
        return ["".join(r) for r in rows]

    boards = [board(), board(E5="B"), board(E5="B"), board(E5="B", F6="B")]

    class BoardInThePixel:  # the frame's first pixel says which board lies on the table
        def __init__(self, calibration=None):
            pass

        def read(self, image):
            corners = np.float32([[8, 4], [56, 4], [56, 44], [8, 44]])
            cells = boards[int(image[0, 0, 0]) // 10]
            return BoardReading(True, 0, list(cells), np.ones((10, 10)), corners)

        def straighten(self, image):
            return image[:40, :40].copy()

    monkeypatch.setattr("companion.vision.BoardReader", BoardInThePixel)
    frames = tmp_path / "frames"
    frames.mkdir()
    rng = np.random.default_rng(0)
    n = 0
    for k in range(len(boards)):
        if k:
            for _ in range(6):  # a hand
                cv2.imwrite(
                    str(frames / f"{n:04}.png"), rng.integers(0, 255, (48, 64, 3), np.uint8)
                )
                n += 1
        still = np.full((48, 64, 3), 100, np.uint8)
        still[0, 0] = 10 * k
        for _ in range(15):
            cv2.imwrite(str(frames / f"{n:04}.png"), still)
            n += 1
    out = tmp_path / "r.json"
    assert main(["replay", str(frames), "--record", str(out), "--quiet"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert [r["code"] for r in summary["rulings"]] == ["ok"]
    (question,) = summary["questions"]
    assert question["cells"][:3] == ["A6", "B6", "C6"]
    assert "green's move may be there" in question["message"]
    assert summary["status"] == "waiting_for_board"
    assert summary["status_message"] == question["message"]


def _demo_in_two_parts(folder: Path, split: int) -> tuple[Path, Path]:
    """The demo video cut at frame ``split`` into two videos, as a crash would cut a game."""
    import cv2

    from companion.capture.sources import open_source

    parts = (folder / "before_crash.mp4", folder / "after_crash.mp4")
    fourcc = cv2.VideoWriter_fourcc(*"mp4v")
    writers = [cv2.VideoWriter(str(p), fourcc, 15.0, (640, 480)) for p in parts]
    source = open_source(str(DEMO / "game.mp4"))
    for frame in source:
        writers[frame.index >= split].write(frame.image)
    source.close()
    for writer in writers:
        writer.release()
    return parts


def test_resume_continues_a_game_that_a_crash_interrupted(tmp_path, capsys):
    """The demo played until a crash after move 4 (7.9 s), then again from there with
    ``--resume``: the record is the whole game's, exactly. Starting without ``--resume`` over
    an unfinished game says so; resuming a finished one is refused."""
    before, after = _demo_in_two_parts(tmp_path, split=round(7.9 * 15))
    db, out = str(tmp_path / "games.db"), str(tmp_path / "record.json")
    assert main(["replay", str(before), "--db", db, "--record", out, "--quiet"]) == 0
    assert len(json.loads(Path(out).read_text())["moves"]) == 4
    capsys.readouterr()
    assert main(["replay", str(before), "--db", db, "--record", out, "--quiet"]) == 0
    assert "game 1 of" in capsys.readouterr().err  # unfinished: a new game (2) starts

    assert main(["replay", str(after), "--db", db, "--record", out, "--quiet", "--resume"]) == 0
    captured = capsys.readouterr()
    assert "resuming game 2" in captured.err and "move 5" in captured.err
    expected = json.loads((DEMO / "expected_record.json").read_text())
    assert json.loads(Path(out).read_text()) == expected
    assert json.loads(captured.out)["winner"] == "blue"

    assert main(["replay", str(after), "--db", db, "--record", out, "--resume"]) == 2
    assert "keeps no unfinished game" in capsys.readouterr().err


@pytest.mark.parametrize(
    "args, message",
    [
        (["--resume"], "--resume needs --db FILE"),
        (["--resume", "--db", "{db}", "--players", "A:blue,B:green"], "leave out --players"),
        (["--resume", "--db", "{db}", "--option", "overlap=none"], "leave out --players"),
    ],
)
def test_resume_refuses_a_new_setup_or_no_database(tmp_path, capsys, args, message):
    args = [a.replace("{db}", str(tmp_path / "g.db")) for a in args]
    code = main(["replay", str(DEMO / "game.mp4"), *args, "--record", str(tmp_path / "r.json")])
    assert code == 2
    assert message in capsys.readouterr().err
