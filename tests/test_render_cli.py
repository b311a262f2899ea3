"""``companion render``: files, sidecars, summary and error exits."""

from __future__ import annotations

import json

import cv2
import pytest

from companion.cli import main
from companion.render import truth


def test_render_writes_images_sidecars_and_summary(tmp_path, capsys):
    code = main(
        [
            "render",
            str(tmp_path),
            "--count",
            "3",
            "--seed",
            "4",
            "--size",
            "320x240",
            "--hands",
            "1",
            "--no-board",
            "0",
            "--quiet",
        ]
    )
    assert code == 0
    images = truth.image_files(tmp_path)
    assert [p.name for p in images] == ["frame_0000.jpg", "frame_0001.jpg", "frame_0002.jpg"]
    for path in images:
        img = cv2.imread(str(path))
        assert img.shape == (240, 320, 3)
        t = truth.load(path)
        assert t.board_found and len(t.cells) == 10 and t.size == (320, 240)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["frames"] == 3 and summary["with_hands"] == 3
    assert json.loads(capsys.readouterr().out)["frames"] == 3


def test_same_seed_same_frames(tmp_path):
    for name in ("a", "b"):
        main(
            [
                "render",
                str(tmp_path / name),
                "--count",
                "1",
                "--seed",
                "9",
                "--size",
                "320x240",
                "--quiet",
                "--format",
                "png",
            ]
        )
    assert (tmp_path / "a/frame_0000.png").read_bytes() == (
        tmp_path / "b/frame_0000.png"
    ).read_bytes()


def test_all_no_board(tmp_path):
    assert (
        main(
            [
                "render",
                str(tmp_path),
                "--count",
                "2",
                "--no-board",
                "1",
                "--size",
                "320x240",
                "--quiet",
            ]
        )
        == 0
    )
    assert all(not truth.load(p).board_found for p in truth.image_files(tmp_path))


@pytest.mark.parametrize(
    "bad",
    [
        ["--size", "big"],
        ["--count", "0"],
        ["--hands", "2"],
        ["--seed", "-3"],
        ["--art", "x"],
        ["--lens", "1.5"],
        ["--fold", "-1"],
        ["--board-share", "0.5"],
        ["--board-share", "0.9-0.3"],
        ["--chips", "90-20"],
        ["--chips", "50-97"],
        ["--chips", "many"],
        ["--tilt", "50-80"],
        ["--tilt", "60-45"],
        ["--palette", "-1"],
        ["--palette", "bold"],
        ["--cell-aspect", "0.3-0.9"],
        ["--cell-aspect", "0.9-0.7"],
        ["--other-games", "3"],
    ],
)
def test_bad_arguments_exit_2(tmp_path, bad, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["render", str(tmp_path), *bad])
    assert exc.value.code == 2
    assert "error" in capsys.readouterr().err


def test_unwritable_folder_exits_1(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["render", str(blocker / "sub"), "--count", "1", "--quiet"]) == 1
    assert "cannot create" in capsys.readouterr().err


def test_empty_references_share_the_camera(tmp_path):
    assert (
        main(
            [
                "render",
                str(tmp_path),
                "--count",
                "2",
                "--seed",
                "5",
                "--size",
                "320x240",
                "--no-board",
                "0",
                "--empty-refs",
                "--quiet",
            ]
        )
        == 0
    )
    for path in truth.image_files(tmp_path):
        frame, empty = truth.load(path), truth.load(tmp_path / "empty" / path.name)
        assert empty.cells == ["*........*"] + ["." * 10] * 8 + ["*........*"]
        assert (empty.corners == frame.corners).all()
        assert empty.orientation == frame.orientation


def test_parallel_jobs_write_the_same_files(tmp_path):
    for name, jobs in (("one", "1"), ("two", "2")):
        assert (
            main(
                [
                    "render",
                    str(tmp_path / name),
                    "--count",
                    "3",
                    "--seed",
                    "12",
                    "--size",
                    "320x240",
                    "--jobs",
                    jobs,
                    "--quiet",
                    "--format",
                    "png",
                ]
            )
            == 0
        )
    for path in sorted((tmp_path / "one").glob("frame_*")):
        assert path.read_bytes() == (tmp_path / "two" / path.name).read_bytes(), path.name


def test_annotated_copies_show_the_truth(tmp_path):
    assert (
        main(
            [
                "render",
                str(tmp_path),
                "--count",
                "1",
                "--seed",
                "31",
                "--size",
                "320x240",
                "--no-board",
                "0",
                "--annotate",
                "--quiet",
                "--format",
                "png",
            ]
        )
        == 0
    )
    plain = cv2.imread(str(tmp_path / "frame_0000.png"))
    marked = cv2.imread(str(tmp_path / "annotated" / "frame_0000.jpg"))
    assert marked.shape == plain.shape
    assert (cv2.absdiff(plain, marked).max(axis=2) > 60).mean() > 0.01  # grid lines drawn
    assert truth.image_files(tmp_path / "annotated") == []  # no sidecars: eval skips them


def test_lens_fold_and_waves_options(tmp_path, capsys):
    def run(folder, *options):
        args = ["render", str(tmp_path / folder), "--count", "4", "--seed", "11"]
        code = main([*args, "--size", "160x120", "--no-board", "0", "--quiet", *options])
        assert code == 0
        return json.loads(capsys.readouterr().out)

    off = run("off", "--lens", "0")
    assert off["with_lens"] == 0 and off["folded"] == 0 and off["wavy"] == 0
    on = run("on", "--lens", "1", "--fold", "1", "--waves", "1", "--art", "mat")
    assert on["mat"] == 4 and on["cards"] == on["text"] == 0
    assert on["with_lens"] == on["folded"] == on["wavy"] == 4
    assert "--lens 1.0 --fold 1.0 --waves 1.0" in on["command"]
    for path in truth.image_files(tmp_path / "on"):
        t = truth.load(path)
        spec = t.spec
        assert spec["lens_k1"] != 0 and spec["fold_deg"] != 0 and spec["waves"] > 0
        assert t.lattice is not None and t.lattice.shape == (21, 21, 2)
    for path in truth.image_files(tmp_path / "off"):
        assert truth.load(path).lattice is None


def test_board_share_puts_boards_in_the_asked_range(tmp_path, capsys):
    out = tmp_path / "share"
    args = ["render", str(out), "--count", "6", "--seed", "7650020", "--no-board", "0"]
    assert main([*args, "--board-share", "0.5-0.7", "--quiet"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["board_share"] == [0.5, 0.7]
    truths = [truth.load(p) for p in sorted(out.glob("frame_*.jpg"))]
    shares = [t.board_share for t in truths]
    assert len(shares) == 6
    # the drawn board (lens and bends included) lands within a few percent of the range, or
    # as close as the camera allows: its bounding box already spans the frame (fraction 1.0)
    for t in truths:
        assert 0.45 <= t.board_share <= 0.75 or t.spec["board_fraction"] == 1.0, shares
    assert sum(0.45 <= s <= 0.75 for s in shares) >= 3
    assert main(["render", str(tmp_path / "default"), *args[2:], "--quiet"]) == 0
    default = [truth.load(p).board_share for p in sorted((tmp_path / "default").glob("*.jpg"))]
    assert default != shares  # without the option the renderer keeps its own spread


def test_chips_puts_late_game_boards_on_the_table(tmp_path, capsys):
    out = tmp_path / "late"
    args = ["render", str(out), "--count", "4", "--seed", "5858831", "--no-board", "0"]
    assert main([*args, "--size", "320x240", "--chips", "80-90", "--quiet"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["chips"] == [80, 90]
    assert "--chips 80-90" in summary["command"]
    counts = []
    for path in sorted(out.glob("frame_*.jpg")):
        cells = truth.load(path).cells
        counts.append(sum(ch in "BGR" for row in cells for ch in row))
        assert sum(row.count("*") for row in cells) == 4  # the free corners stay free
    assert len(counts) == 4 and all(80 <= n <= 90 for n in counts), counts


def test_tilt_draws_every_camera_s_tilt_from_the_range(tmp_path, capsys):
    out = tmp_path / "steep"
    args = ["render", str(out), "--count", "4", "--seed", "5858841", "--no-board", "0"]
    assert main([*args, "--size", "320x240", "--tilt", "45-60", "--quiet"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["tilt"] == [45.0, 60.0] and "--tilt 45.0-60.0" in summary["command"]
    tilts = [truth.load(p).spec["tilt_deg"] for p in sorted(out.glob("frame_*.jpg"))]
    assert len(tilts) == 4 and all(45 <= t <= 60 for t in tilts), tilts


def test_palette_and_cell_aspect_draw_every_board_so(tmp_path, capsys):
    out = tmp_path / "bold"
    args = ["render", str(out), "--count", "3", "--seed", "5454399", "--no-board", "0"]
    args += ["--art", "text", "--palette", "6", "--cell-aspect", "0.65-0.85"]
    assert main([*args, "--size", "320x240", "--quiet"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["palette"] == 6 and "--palette 6" in summary["command"]
    assert summary["cell_aspect"] == [0.65, 0.85]
    specs = [truth.load(p).spec for p in sorted(out.glob("frame_*.jpg"))]
    assert len(specs) == 3 and all(s["palette"] == 6 for s in specs)
    assert all(0.65 <= s["cell_aspect"] <= 0.85 for s in specs), specs


@pytest.mark.parametrize(
    "bad, message",
    [(["--palette", "2"], "needs one --art"), (["--art", "mat", "--palette", "4"], "0-3")],
)
def test_a_palette_the_art_lacks_exits_2(tmp_path, bad, message, capsys):
    assert main(["render", str(tmp_path), "--count", "1", *bad]) == 2
    assert message in capsys.readouterr().err


def test_portrait_cells_keep_chips_inside_them():
    """A chip is 0.8 of the cell's shorter side wide whatever way the cell lies."""
    from companion.render.art import build_art

    for art in ("text", "cards", "mat"):
        board = build_art(art, 0, 0.7, 40)
        assert board.chip_diameter <= 0.8 * board.cell_w + 1e-6, art
