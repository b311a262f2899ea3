"""Replaying a recorded game on the page at the pace it was filmed.

``companion serve`` with no source plays the bundled demo game. A file source hands out frames as
fast as they decode, so ``PacedSource`` holds each frame back until its timestamp (divided by
``speed``) has come on the wall clock, and records how late each frame was handed over: a frame
handed over more than one frame interval late would have been lost by a live camera, which is
what ``companion bench web`` counts as a missed frame.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from companion.samples import VIDEO_SUFFIXES, demo_game_dirs


class DemoMissing(FileNotFoundError):
    """The bundled demo game is in none of the places ``companion.samples`` knows."""


def demo_video() -> Path:
    """The demo game's video: wheel package data, source checkout, or the current folder."""
    for folder in demo_game_dirs():
        videos = sorted(p for p in folder.glob("*") if p.suffix.lower() in VIDEO_SUFFIXES)
        if videos:
            return videos[0]
    searched = " or ".join(str(folder) for folder in demo_game_dirs())
    raise DemoMissing(
        f"the bundled demo game is missing (looked in {searched}); "
        "run from the project folder or pass --source VIDEO|FOLDER|URL|0"
    )


class PacedSource:
    """Wraps a frame source; ``read()`` returns each frame no earlier than it was filmed.

    Everything else (``name``, ``live``, ``fps``, ``open``, ``close``...) is the wrapped
    source's. ``lateness`` holds, per frame, how many seconds after its due time it was handed
    to the caller (0 when on time); the caller's processing of the previous frame is what makes
    a frame late.
    """

    def __init__(
        self,
        source: Any,
        speed: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if speed <= 0:
            raise ValueError("speed must be above 0 (1 = real time)")
        self._source = source
        self.speed = speed
        self._clock = clock
        self._sleep = sleep
        self._start: float | None = None
        self.lateness: list[float] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._source, name)

    def read(self) -> Any:
        frame = self._source.read()
        if frame is None:
            return None
        now = self._clock()
        if self._start is None:
            self._start = now - frame.timestamp / self.speed
        due = self._start + frame.timestamp / self.speed
        if due > now:
            self._sleep(due - now)
            self.lateness.append(0.0)
        else:
            self.lateness.append(now - due)
        return frame

    def __iter__(self) -> Iterator[Any]:
        while (frame := self.read()) is not None:
            yield frame

    def missed_frames(self, skip: int = 0) -> int:
        """Frames more than one frame interval late (a live camera would have dropped them),
        not counting the first ``skip`` frames."""
        fps = float(getattr(self._source, "fps", 0) or 0) or 15.0
        interval = 1.0 / (fps * self.speed)
        return sum(1 for late in self.lateness[skip:] if late > interval)
