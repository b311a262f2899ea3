"""Frame sources, reconnection with back-off, and the motion score."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.capture import (
    CameraSource,
    CaptureError,
    CaptureEvent,
    FolderSource,
    FrameSource,
    Motion,
    MotionMeter,
    Reconnecting,
    StreamSource,
    VideoFileSource,
    backoff_delays,
    motion_score,
    open_source,
    small_grey,
)


def _frames(n: int, size=(64, 48)) -> list[np.ndarray]:
    w, h = size
    return [np.full((h, w, 3), 20 * i, np.uint8) for i in range(n)]


@pytest.fixture
def video(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for image in _frames(5):
        writer.write(image)
    writer.release()
    return path


def test_video_file_frames_are_stamped_index_over_fps(video):
    with open_source(str(video)) as source:
        assert isinstance(source, VideoFileSource)
        assert source.fps == pytest.approx(10.0)
        assert source.frame_count == 5
        frames = list(source)
    assert [f.index for f in frames] == [0, 1, 2, 3, 4]
    assert [f.timestamp for f in frames] == pytest.approx([0.0, 0.1, 0.2, 0.3, 0.4])
    assert frames[3].image.shape == (48, 64, 3)
    assert abs(int(frames[3].image.mean()) - 60) <= 3  # grey level survives MJPG


def test_fps_override_applies_to_video(video):
    source = open_source(str(video), fps=20)
    frames = list(source)
    assert frames[-1].timestamp == pytest.approx(0.2)


def test_folder_is_read_in_name_order(tmp_path):
    for i, image in enumerate(_frames(3)):
        cv2.imwrite(str(tmp_path / f"f{2 - i}.png"), image)  # f2 is darkest
    (tmp_path / "notes.txt").write_text("not an image")
    source = open_source(str(tmp_path), fps=5)
    assert isinstance(source, FolderSource)
    frames = list(source)
    assert [int(f.image[0, 0, 0]) for f in frames] == [40, 20, 0]
    assert frames[2].timestamp == pytest.approx(0.4)


def test_empty_folder_is_a_clear_error(tmp_path):
    with pytest.raises(CaptureError) as info:
        open_source(str(tmp_path))
    assert info.value.code == "empty"
    assert str(tmp_path) in info.value.message


def test_missing_path_is_a_clear_error(tmp_path):
    with pytest.raises(CaptureError) as info:
        open_source(str(tmp_path / "nope.mp4"))
    assert info.value.code == "not_found"
    assert "does not exist" in info.value.message


def test_corrupt_video_is_unreadable(tmp_path):
    path = tmp_path / "broken.mp4"
    path.write_bytes(b"this is not a video" * 10)
    with pytest.raises(CaptureError) as info:
        open_source(str(path))
    assert info.value.code == "unreadable"


def test_specs_pick_the_right_kind_without_opening():
    # Not opened (no camera or network here): only the parsing is checked.
    assert isinstance(CameraSource(0), FrameSource)
    with pytest.raises(CaptureError) as info:
        open_source("camera:x")
    assert info.value.code == "bad_source"
    with pytest.raises(CaptureError):
        open_source("   ")
    assert StreamSource("http://127.0.0.1:9/video").live


class FlakyCamera(FrameSource):
    """A live source that delivers frames, drops out, refuses to reopen twice, then recovers."""

    live = True

    def __init__(self, script: list[str]) -> None:
        super().__init__("flaky")
        self.script = script  # per read: "frame" or "drop"; per open: consumed from opens
        self.opens: list[bool] = [True, False, False, True]

    def _open(self) -> None:
        if not self.opens.pop(0):
            raise CaptureError("unreadable", "still unplugged")

    def _read(self):
        step = self.script.pop(0) if self.script else "drop"
        return np.zeros((4, 4, 3), np.uint8) if step == "frame" else None


def test_lost_camera_is_reopened_with_backoff_and_reported():
    events: list[CaptureEvent] = []
    sleeps: list[float] = []
    camera = FlakyCamera(["frame", "drop", "frame"])
    wrapped = Reconnecting(camera, on_event=events.append, sleep=sleeps.append)
    assert wrapped.read() is not None
    assert wrapped.read() is not None  # the drop is bridged by reconnecting
    assert [e.kind for e in events] == ["lost", "retry", "retry", "back"]
    assert sleeps == [0.5, 1.0, 2.0]
    assert events[-1].attempt == 3 and wrapped.connected
    assert events[0].to_json()["kind"] == "lost"


def test_stop_ends_a_blocked_read():
    camera = FlakyCamera(["drop"])
    wrapped = Reconnecting(camera, sleep=lambda d: wrapped.stop())
    assert wrapped.read() is None


def test_backoff_is_capped():
    delays = backoff_delays(0.5, 2.0, 4.0)
    assert [next(delays) for _ in range(6)] == [0.5, 1.0, 2.0, 4.0, 4.0, 4.0]


def test_motion_score_sees_a_hand_but_not_noise():
    rng = np.random.default_rng(1)
    base = np.full((480, 640, 3), 120, np.uint8)
    noisy = np.clip(base + rng.normal(0, 6, base.shape), 0, 255).astype(np.uint8)
    hand = noisy.copy()
    cv2.rectangle(hand, (200, 0), (360, 300), (90, 140, 200), -1)
    chip = noisy.copy()
    cv2.circle(chip, (320, 240), 10, (200, 40, 40), -1)
    prev = small_grey(base)
    assert motion_score(prev, small_grey(noisy)) < 0.01
    assert motion_score(prev, small_grey(hand)) > 0.1
    assert motion_score(prev, small_grey(chip)) < 0.02
    assert motion_score(None, prev) == 1.0


def test_motion_meter_compares_with_the_previous_frame():
    meter = MotionMeter()
    a = np.zeros((120, 160, 3), np.uint8)
    b = np.full((120, 160, 3), 255, np.uint8)
    assert meter.update(a) == 1.0  # nothing to compare with yet
    assert meter.update(a) == 0.0
    assert meter.update(b) == 1.0


def test_a_file_named_like_an_image_that_is_not_one_is_refused_at_open(tmp_path):
    """OpenCV opens it but decodes no frame: that must be an error, not a 0-frame replay."""
    path = tmp_path / "notimg.jpg"
    path.write_text("hello, I am not a picture")
    with pytest.raises(CaptureError) as info:
        open_source(str(path))
    assert info.value.code == "no_frames" and "notimg.jpg" in info.value.message


def test_a_single_image_file_is_a_one_frame_source(tmp_path):
    path = tmp_path / "still.png"
    cv2.imwrite(str(path), _frames(2)[1])
    source = open_source(str(path))
    frames = list(source)
    source.close()
    assert len(frames) == 1 and frames[0].index == 0
    assert int(frames[0].image[0, 0, 0]) == 20


@pytest.mark.parametrize("fps", [0.0, -3.0, float("nan"), float("inf")])
def test_frame_rates_must_be_finite_and_positive(tmp_path, video, fps):
    with pytest.raises(CaptureError) as info:
        open_source(str(video), fps=fps)
    assert info.value.code == "bad_fps"
    with pytest.raises(CaptureError):
        FolderSource(tmp_path, fps=fps)


def test_with_the_board_located_only_motion_on_and_around_it_counts():
    base = np.full((480, 640, 3), 120, np.uint8)
    board = np.float32([[200, 150], [440, 150], [440, 330], [200, 330]])
    beside = base.copy()
    cv2.rectangle(beside, (0, 0), (90, 200), (90, 140, 200), -1)  # a hand reaching for a card
    onto = base.copy()
    cv2.rectangle(onto, (300, 0), (360, 200), (90, 140, 200), -1)  # an arm onto the board
    for changed, whole, region in ((beside, True, False), (onto, True, True)):
        meter = MotionMeter()
        meter.update(base, board)
        assert (meter.update(changed, board) > 0.01) is region
        meter = MotionMeter()
        meter.update(base)
        assert (meter.update(changed) > 0.01) is whole  # no board known: the whole frame


def test_one_chip_changing_on_the_board_is_a_spot_and_a_hand_is_not():
    """A spot: every moving pixel on the board itself, within about a chip. Rendered frames."""
    from companion.render import HandSpec, RenderSpec, render_frame
    from companion.render.spec import EMPTY_BOARD

    spec = RenderSpec(cells=EMPTY_BOARD, art="text", size=(320, 240))
    board, truth = render_frame(spec)

    def cells_with(**chips):
        rows = [list(r) for r in EMPTY_BOARD]
        for name, symbol in chips.items():
            rows[int(name[1:]) - 1]["ABCDEFGHIJ".index(name[0])] = symbol
        return ["".join(r) for r in rows]

    def motion(image, region=truth.corners):
        meter = MotionMeter()
        meter.measure(board, region)
        return meter.measure(image, region)

    chip, _ = render_frame(spec.with_frame(cells=cells_with(E5="B"), hands=(), seed=0))
    two, _ = render_frame(spec.with_frame(cells=cells_with(B2="G", I9="G"), hands=(), seed=0))
    hand, _ = render_frame(
        spec.with_frame(cells=EMPTY_BOARD, hands=(HandSpec(tip=(4.5, 4.5), angle_deg=90),), seed=0)
    )
    beside, on = board.copy(), board.copy()  # a chip-sized blot beside the board and on it
    x, y = np.round(truth.corners[1]).astype(int)
    cv2.circle(beside, (int(x) + 14, int(y) + 30), 8, (0, 0, 0), -1)
    cv2.circle(on, (int(x) - 70, int(y) + 70), 8, (0, 0, 0), -1)

    one = motion(chip)
    assert one.spot and one.score > 0.0008  # enough to count as motion, but one spot
    assert motion(board) == Motion(0.0, False)  # nothing moved: no spot either
    assert not motion(two).spot and motion(two).score > one.score  # two places at once
    assert not motion(hand).spot and motion(hand).score > 0.05
    assert not motion(beside).spot and motion(beside).score > 0.0008  # in the margin
    assert motion(on).spot
    # fingertips crossing the board's edge, their arm over the margin hardly darker than the
    # table (12 grey levels: below the motion threshold, above the quiet one): a hand
    tip = board.copy()
    cv2.circle(tip, (int(x) - 70, int(truth.corners[2][1]) - 4), 8, (0, 0, 0), -1)
    arm = tip.copy()
    x0, y0 = int(x) - 76, int(truth.corners[2][1]) + 4
    arm[y0 : y0 + 30, x0 : x0 + 12] = np.clip(arm[y0 : y0 + 30, x0 : x0 + 12] - 12.0, 0, 255)
    assert motion(tip).spot and not motion(arm).spot
    assert motion(arm).score == pytest.approx(motion(tip).score, abs=0.001)
    assert not motion(chip, region=None).spot  # no board located: nothing is a spot
