"""A frame folder that is still being written to (a phone app dropping JPEGs), read live."""

from __future__ import annotations

import threading
import time

import cv2
import numpy as np
import pytest

from companion.capture import CaptureError, CaptureEvent, FolderSource, Reconnecting, open_source
from companion.capture.sources import read_complete_image
from companion.cli import main


def jpeg(level: int) -> bytes:
    ok, buf = cv2.imencode(".jpg", np.full((48, 64, 3), 10 * level, np.uint8))
    assert ok
    return buf.tobytes()


def level(image: np.ndarray) -> int:
    return round(float(image.mean()) / 10)


def test_a_half_written_jpeg_is_not_an_image_yet(tmp_path):
    data = jpeg(7)
    path = tmp_path / "f.jpg"
    path.write_bytes(data[: len(data) // 2])
    assert read_complete_image(path) is None  # no end-of-image marker: still being written
    path.write_bytes(data)
    assert level(read_complete_image(path)) == 7
    assert read_complete_image(tmp_path / "missing.jpg") is None


def test_frames_that_arrive_later_are_read_in_order_and_none_half_written(tmp_path):
    (tmp_path / "f000.jpg").write_bytes(jpeg(0))

    def phone_app() -> None:
        for k in range(1, 6):
            time.sleep(0.05)
            data = jpeg(k)
            path = tmp_path / f"f{k:03d}.jpg"
            path.write_bytes(data[:300])  # the app is slow to write this one
            time.sleep(0.06)
            with path.open("ab") as out:
                out.write(data[300:])
        (tmp_path / ".f006.jpg").write_bytes(jpeg(6))  # a temporary name: never a frame

    writer = threading.Thread(target=phone_app)
    source = open_source(str(tmp_path), follow=True)
    source.idle_timeout = 0.4
    assert isinstance(source, FolderSource) and source.live
    writer.start()
    frames = list(source)  # ends when no new frame came for idle_timeout
    writer.join()
    assert [level(f.image) for f in frames] == [0, 1, 2, 3, 4, 5]
    assert [f.index for f in frames] == list(range(6))
    assert all(b.timestamp > a.timestamp for a, b in zip(frames, frames[1:], strict=False))


def test_an_idle_followed_folder_is_a_lost_camera_that_comes_back(tmp_path):
    (tmp_path / "a.jpg").write_bytes(jpeg(1))
    events: list[CaptureEvent] = []
    source = FolderSource(tmp_path, follow=True, idle_timeout=0.2)
    capture = Reconnecting(source, on_event=events.append, first_delay=0.1)
    assert level(capture.read().image) == 1
    timer = threading.Timer(0.5, lambda: (tmp_path / "b.jpg").write_bytes(jpeg(2)))
    timer.start()
    assert level(capture.read().image) == 2  # after a lost camera and failed reopens
    timer.join()
    capture.close()
    kinds = [e.kind for e in events]
    assert kinds[0] == "lost" and kinds[-1] == "back" and "retry" in kinds


def test_a_file_that_never_completes_is_skipped(tmp_path):
    (tmp_path / "a.jpg").write_bytes(jpeg(1)[:200])  # the app crashed while writing it
    (tmp_path / "b.jpg").write_bytes(jpeg(2))
    source = FolderSource(tmp_path, follow=True, idle_timeout=0.2).open()
    assert level(source.read().image) == 2
    assert source.skipped == ["a.jpg"]


def test_only_a_folder_can_be_followed(tmp_path, capsys):
    video = tmp_path / "still.png"
    cv2.imwrite(str(video), np.zeros((8, 8, 3), np.uint8))
    with pytest.raises(CaptureError) as info:
        open_source(str(video), follow=True)
    assert info.value.code == "bad_source"
    code = main(["replay", str(video), "--follow", "--record", str(tmp_path / "r.json")])
    assert code == 2
    assert "only a folder of frames can be followed" in capsys.readouterr().err
