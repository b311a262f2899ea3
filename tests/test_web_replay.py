"""PacedSource: a recorded game handed out at the pace it was filmed (fake clock, no video)."""

from __future__ import annotations

import pytest
from companion.web.replay import DemoMissing, PacedSource, demo_video

from companion.capture.frame import Frame


class Clock:
    def __init__(self) -> None:
        self.now = 50.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(round(seconds, 6))
        self.now += seconds


class ListSource:
    name = "list"
    live = False
    fps = 10.0

    def __init__(self, count: int) -> None:
        self.frames = [Frame(image=None, timestamp=i / self.fps, index=i) for i in range(count)]

    def read(self):
        return self.frames.pop(0) if self.frames else None


def test_frames_wait_for_their_time_at_the_chosen_speed():
    clock = Clock()
    paced = PacedSource(ListSource(4), speed=2.0, clock=clock, sleep=clock.sleep)
    indexes = [frame.index for frame in paced]
    assert indexes == [0, 1, 2, 3]
    assert clock.slept == [0.05, 0.05, 0.05]  # 10 fps at double speed
    assert paced.lateness == [0.0, 0.0, 0.0, 0.0]
    assert paced.missed_frames() == 0
    assert paced.name == "list"  # everything else is the wrapped source's


def test_a_slow_consumer_makes_frames_late_and_counts_the_missed_ones():
    clock = Clock()
    paced = PacedSource(ListSource(5), clock=clock, sleep=clock.sleep)
    paced.read()
    clock.now += 0.35  # processing frame 0 took 3.5 frame intervals
    late = paced.read()
    assert late.index == 1
    assert paced.lateness[-1] == pytest.approx(0.25)
    paced.read()  # frame 2 was due at +0.2: 0.15 late, more than one interval
    paced.read()  # frame 3 due at +0.3: 0.05 late, within one interval
    assert paced.missed_frames() == 2
    assert paced.missed_frames(skip=2) == 1


def test_speed_must_be_positive():
    with pytest.raises(ValueError):
        PacedSource(ListSource(1), speed=0)


def test_the_demo_game_is_found_or_explained(tmp_path, monkeypatch):
    assert demo_video().suffix == ".mp4"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("companion.web.replay.demo_game_dirs", lambda: [tmp_path / "nothing"])
    with pytest.raises(DemoMissing, match="pass --source"):
        demo_video()
