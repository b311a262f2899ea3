"""The table PIN: who may change the game.

Reading the page needs nothing; setup and corrections need the PIN that ``companion serve`` prints
at start. The check is constant-time and a client that keeps guessing is locked out for a while,
so a 6-digit PIN cannot be brute-forced over the local network.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

PIN_DIGITS = 6


def generate_pin(digits: int = PIN_DIGITS) -> str:
    """A fresh random numeric PIN such as ``"042917"``."""
    return f"{secrets.randbelow(10**digits):0{digits}d}"


def pins_match(expected: str, supplied: str) -> bool:
    """Compare two PINs in constant time (no early exit that leaks how many digits were right)."""
    return hmac.compare_digest(expected.encode("utf-8"), supplied.strip().encode("utf-8"))


class PinVerdict(Enum):
    OK = "ok"
    MISSING = "pin_required"
    WRONG = "pin_wrong"
    LOCKED = "pin_locked"


@dataclass
class PinGuard:
    """Checks PINs and locks out a client after ``max_failures`` wrong tries in ``window_s``."""

    pin: str
    max_failures: int = 5
    window_s: float = 60.0
    clock: Callable[[], float] = time.monotonic
    _failures: dict[str, list[float]] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        if not self.pin or not self.pin.strip():
            raise ValueError("the table PIN must not be empty")

    def check(self, supplied: str | None, client: str) -> PinVerdict:
        with self._lock:
            now = self.clock()
            recent = [t for t in self._failures.get(client, []) if now - t < self.window_s]
            self._failures[client] = recent
            if len(recent) >= self.max_failures:
                return PinVerdict.LOCKED
            if not supplied:
                return PinVerdict.MISSING
            if pins_match(self.pin, supplied):
                self._failures.pop(client, None)
                return PinVerdict.OK
            recent.append(now)
            return PinVerdict.WRONG

    def retry_after(self, client: str) -> int:
        """Seconds until a locked-out client may try again (at least 1)."""
        with self._lock:
            failures = self._failures.get(client, [])
            if not failures:
                return 1
            return max(1, int(self.window_s - (self.clock() - failures[0])) + 1)
