"""Keep a live source alive: reopen it with exponential back-off and report what happened.

A webcam that is unplugged or a phone stream that drops returns no frame. :class:`Reconnecting`
then reports a ``lost`` :class:`CaptureEvent`, retries after 0.5 s, 1 s, 2 s ... (capped), and
reports ``back`` once frames flow again. Files and folders are never reopened: for them ``None``
simply means the end. With ``give_up_after`` a live source that stays lost that long is given
up (a ``gave_up`` event, then ``read()`` returns ``None``), e.g. for a headless recording that
should end when the phone stops streaming.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from companion.capture.frame import Frame
from companion.capture.sources import CaptureError, FrameSource


@dataclass(frozen=True, slots=True)
class CaptureEvent:
    """``kind`` is ``lost`` (frames stopped), ``retry`` (a reopen failed), ``back`` or
    ``gave_up`` (lost for longer than the caller accepts)."""

    kind: str
    source: str
    message: str
    attempt: int = 0
    delay: float = 0.0

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "source": self.source,
            "message": self.message,
            "attempt": self.attempt,
            "delay": self.delay,
        }


def backoff_delays(first: float = 0.5, factor: float = 2.0, cap: float = 8.0):
    """0.5, 1, 2, 4, 8, 8, 8 ... seconds."""
    delay = first
    while True:
        yield delay
        delay = min(cap, delay * factor)


class Reconnecting:
    """Wraps a source; ``read()`` blocks through outages of live sources until ``stop()``."""

    def __init__(
        self,
        source: FrameSource,
        on_event: Callable[[CaptureEvent], None] | None = None,
        first_delay: float = 0.5,
        max_delay: float = 8.0,
        sleep: Callable[[float], object] | None = None,
        give_up_after: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.source = source
        self.on_event = on_event or (lambda event: None)
        self.first_delay = first_delay
        self.max_delay = max_delay
        self._stop = threading.Event()
        self._sleep = sleep or self._stop.wait
        self._clock = clock
        self.give_up_after = give_up_after
        self.connected = True
        self.gave_up = False
        self.outages = 0  # how many times the source was lost

    @property
    def fps(self) -> float:
        return self.source.fps

    @property
    def name(self) -> str:
        return self.source.name

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    def stop(self) -> None:
        """Make a blocked ``read()`` give up and return ``None``."""
        self._stop.set()

    def read(self) -> Frame | None:
        while not self._stop.is_set():
            try:
                frame = self.source.read()
            except CaptureError as exc:
                if not self.source.live:
                    raise
                frame = None
                reason = exc.message
            else:
                reason = "no frame from the camera"
            if frame is not None:
                return frame
            if not self.source.live:
                return None
            self._reconnect(reason)
        return None

    def _reconnect(self, reason: str) -> None:
        self.connected = False
        self.outages += 1
        lost_at = self._clock()
        self.on_event(CaptureEvent("lost", self.source.name, f"{self.source.name} lost: {reason}"))
        delays = backoff_delays(self.first_delay, 2.0, self.max_delay)
        attempt = 0
        while not self._stop.is_set():
            attempt += 1
            delay = next(delays)
            if self.give_up_after is not None:
                left = self.give_up_after - (self._clock() - lost_at)
                if left <= 0:
                    self._give_up(attempt - 1)
                    return
                delay = min(delay, left)
            self._sleep(delay)
            if self._stop.is_set():
                return
            self.source.close()
            try:
                self.source.open()
            except CaptureError as exc:
                self.on_event(CaptureEvent("retry", self.source.name, exc.message, attempt, delay))
                continue
            self.connected = True
            self.on_event(
                CaptureEvent(
                    "back", self.source.name, f"{self.source.name} is back", attempt, delay
                )
            )
            return

    def _give_up(self, attempts: int) -> None:
        self.gave_up = True
        self.stop()
        self.on_event(
            CaptureEvent(
                "gave_up",
                self.source.name,
                f"{self.source.name} gave no frame for {self.give_up_after:g} s; giving up",
                attempts,
            )
        )

    def close(self) -> None:
        self.stop()
        self.source.close()
