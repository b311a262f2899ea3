"""Turn a noisy stream of per-frame board readings into settled boards. Pure logic, no images.

Per frame the tracker gets a timestamp, a motion score (see ``companion.capture.motion``) and,
when the caller ran the vision on that frame, a :class:`BoardReading`. It answers with a
:class:`TrackerUpdate`:

- while anything moves (motion above the threshold) the status is ``watching`` and readings are
  ignored: a hand over the board never produces a move. A *spot* (all the motion on the board,
  about one chip across, see ``companion.capture.motion``) while the board is in view and still
  is no hand: it is left to the per-cell hysteresis below;
- a reading with no board, or with more than ``max_hidden`` cells unreadable (``?`` or below the
  confidence floor), restarts the stillness clock (unless the board was read less than a window
  ago and nothing moved since: then the vision missed it for a moment, and the reading is
  skipped). Fewer unreadable cells keep their last value:
  a card left lying on the board, a hand held still, or a vision doubt never invents or loses a
  chip, and the rest of the board is still refereed (anything that moves is caught by the
  motion gate);
- per-cell hysteresis: a cell takes a new value only once that value is what it has shown
  steadily: read at least ``min_reads`` times and no other value read on the cell for
  ``still_window`` seconds since its first read, so a misread that lasts a few frames is never
  seen downstream. ``?`` reads while the board was already still are no contradiction (the
  vision doubted, nothing moved): a value that follows only those counts its window from the
  start of the still spell, once its reads span ``min_shown`` of the window, so a chip that
  reads ``?`` for a moment after the hand left is not held back a whole window more;
- once the board has been still and readable for ``still_window`` seconds and no cell is in the
  middle of a change (or ``settle_patience`` seconds have passed) the tracker *settles*:
  ``update.settled`` carries the 10 strings of the settled board, once per change. A cell
  whose change was read too few times before it became unreadable does not hold the board
  back: it is a *glimpse* (:meth:`BoardTracker.glimpses`), which the session may use to
  explain a later board but never rules on by itself;
- every cell keeps a short history of what was read on it and when (:meth:`last_read`,
  :meth:`first_read_since`), so the session can tell in which order changes became visible.

The referee's board is the prior: cells start at the expected board (``reset``), corners always
hold ``*`` whatever is read there.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.cells import CORNERS, SIZE
from companion.vision.reading import CORNER, UNKNOWN, BoardReading

WATCHING = "watching"
STILL = "still"
NO_BOARD = "no_board"
SETTLING = "settling"  # still, but not for long enough yet (shown as "watching" by the session)
HISTORY_RUNS = 32  # runs of equal reads kept per cell (a flickering cell forgets its oldest)


@dataclass(frozen=True, slots=True)
class TrackerConfig:
    still_window: float = 0.5  # seconds of stillness and full visibility before a board counts
    motion_threshold: float = 0.0008  # motion score (share of moving pixels) meaning "moving":
    # about 6 pixels of the 96-pixel-wide grey frame, so a small hand far away still counts
    min_confidence: float = 0.0  # a cell read with less confidence counts as unreadable
    read_interval: float = 0.1  # seconds between vision reads while still (see wants_reading)
    settled_interval: float = 1.0  # seconds between reads once the board has settled: only
    # a hand (motion) changes a settled board, so a still board needs only a slow re-check
    no_board_interval: float = 0.5  # seconds between reads while no board is found (locating
    # a board from scratch is the vision's slow path)
    settle_patience: float = 1.5  # seconds after which a board settles even with a cell that
    # keeps flickering (that cell keeps its last steady value)
    min_reads: int = 3  # a cell changes only after this many agreeing reads (and the window)
    min_shown: float = 0.5  # ... read over at least this share of the window (first to last)
    max_hidden: int = 40  # more unreadable cells than this: the board is not in view enough
    glimpse_reads: int = 2  # a pending value read this often before its cell turned
    # unreadable is a glimpse (see BoardTracker.glimpses)

    def __post_init__(self) -> None:
        if self.still_window < 0:
            raise ValueError(f"still_window must be >= 0 seconds, not {self.still_window}")
        if not 0 <= self.motion_threshold <= 1:
            raise ValueError(f"motion_threshold is a share in 0..1, not {self.motion_threshold}")
        if not 0 <= self.min_shown <= 1:
            raise ValueError(f"min_shown is a share of the window in 0..1, not {self.min_shown}")


@dataclass(frozen=True, slots=True)
class TrackerUpdate:
    status: str  # watching | settling | still | no_board
    settled: list[str] | None = None  # the board, when it just settled (or changed while still)
    hidden: tuple[tuple[int, int], ...] = ()  # cells unreadable in this reading


class BoardTracker:
    def __init__(self, config: TrackerConfig | None = None, expected: list[str] | None = None):
        self.config = config or TrackerConfig()
        self.status = WATCHING
        self._still_since: float | None = None
        self._last_read: float | None = None
        self._board_read: float | None = None  # the last reading that found the board
        self._stable: list[list[str]] = []
        self._candidate: list[list[str | None]] = []
        self._candidate_since: list[list[float]] = []  # first read of the pending value
        self._uncontested_since: list[list[float]] = []  # no other value read on the cell since
        self._last_readable: list[list[float | None]] = []  # last read that was not '?'
        self._candidate_reads: list[list[int]] = []
        self._unsettled_since: list[list[float]] = []  # when the cell last left its value
        self._wavered_at: list[list[float | None]] = []  # see _changing
        self._announced: list[str] | None = None
        self._last_cells: list[str] | None = None
        self._overrides: dict[tuple[int, int], tuple[str, str]] = {}  # cell -> (misread, truth)
        self._hidden: set[tuple[int, int]] = set()  # cells unreadable in the latest reading
        self._history: dict[tuple[int, int], list[list]] = {}  # cell -> [value, first, last] runs
        self.reset(expected or ["*........*"] + ["." * 10] * 8 + ["*........*"])

    # -- control -------------------------------------------------------------------------------

    def reset(self, expected: list[str], rearm: bool = True) -> None:
        """Take the referee's board as the prior for every cell (new game, undo, correction).

        With ``rearm`` the next still board is announced even if it equals the last one.
        """
        _check_board(expected)
        self._stable = [list(row) for row in expected]
        self._candidate = [[None] * SIZE for _ in range(SIZE)]
        self._candidate_since = [[0.0] * SIZE for _ in range(SIZE)]
        self._uncontested_since = [[0.0] * SIZE for _ in range(SIZE)]
        self._last_readable = [[None] * SIZE for _ in range(SIZE)]
        self._candidate_reads = [[0] * SIZE for _ in range(SIZE)]
        self._unsettled_since = [[0.0] * SIZE for _ in range(SIZE)]
        self._wavered_at = [[None] * SIZE for _ in range(SIZE)]
        self._overrides = {}
        self._hidden = set()
        self._history = {}
        if rearm:
            self._announced = None

    def adopt(self, cell: tuple[int, int], value: str) -> None:
        """The game now holds ``value`` on ``cell`` (a glimpsed chip the session ruled on): the
        cell takes it as its settled value, its pending change is done."""
        r, c = cell
        self._stable[r][c] = value
        self._candidate[r][c] = None

    def glimpses(self) -> dict[tuple[int, int], str]:
        """Cells unreadable in the latest reading whose pending new value was read at least
        ``glimpse_reads`` times (and never contradicted) before they turned unreadable: e.g. a
        chip seen twice as the hand left, then lost in a glare spot. Not settled values."""
        need = self.config.glimpse_reads
        return {
            (r, c): self._candidate[r][c]
            for r, c in sorted(self._hidden)
            if self._candidate[r][c] is not None and self._candidate_reads[r][c] >= need
        }

    def last_read(self, cell: tuple[int, int], value: str) -> float | None:
        """The last time ``value`` was read on ``cell`` (kept for the last few changes)."""
        times = [last for seen, _, last in self._history.get(cell, ()) if seen == value]
        return times[-1] if times else None

    def first_read_since(self, cell: tuple[int, int], value: str, since: float) -> float | None:
        """The first time ``value`` was read on ``cell`` after ``since``."""
        for seen, first, last in self._history.get(cell, ()):
            if seen == value and last > since:
                return max(first, since)
        return None

    def history(self) -> dict[tuple[int, int], list[tuple[str, float, float]]]:
        """What was read on each cell and when: runs of ``(value, first, last)``."""
        return {
            cell: [(value, first, last) for value, first, last in runs]
            for cell, runs in sorted(self._history.items())
        }

    def restore_history(self, runs: dict[tuple[int, int], list[tuple[str, float, float]]]) -> None:
        """Take back what :meth:`history` gave (a restarted session resuming a question), in
        place of anything read on those cells so far."""
        for cell, cell_runs in runs.items():
            self._history[cell] = [[value, first, last] for value, first, last in cell_runs]
            del self._history[cell][:-HISTORY_RUNS]

    def correct(self, cell: tuple[int, int], value: str) -> None:
        """The table says ``cell`` holds ``value``: believe it while the vision keeps reading what
        it reads there now (a persistent misread); a different reading ends the correction."""
        r, c = cell
        if (r, c) in CORNERS:
            raise ValueError("corners hold no chips and need no correction")
        self.restore_correction(cell, self.current_read(cell), value)

    def current_read(self, cell: tuple[int, int]) -> str:
        """What the vision last read on ``cell`` (the tracker's value before any reading)."""
        r, c = cell
        return self._last_cells[r][c] if self._last_cells else self._stable[r][c]

    def restore_correction(self, cell: tuple[int, int], misread: str, value: str) -> None:
        """Believe ``value`` on ``cell`` while the vision reads ``misread`` there (what
        :meth:`correct` does with the current reading; a restarted session calls it with the
        reading stored alongside the correction)."""
        r, c = cell
        if (r, c) in CORNERS:
            raise ValueError("corners hold no chips and need no correction")
        if misread != value:
            self._overrides[(r, c)] = (misread, value)
        else:
            self._overrides.pop((r, c), None)
        self._stable[r][c] = value
        self._candidate[r][c] = None
        self._announced = None

    def accept(self, board: list[str]) -> None:
        """The caller acted on this settled board: do not announce it again until it changes."""
        self._announced = list(board)

    def interrupt(self) -> None:
        """Frames stopped (a camera or stream was lost): nothing seen before the gap counts
        after it. The stillness clock and every cell's pending change start again with the first
        frames after the gap, so a change half-confirmed before an outage is never completed by
        a read or two after it. Settled values and corrections are kept, and the first board
        settled after the gap is announced even if it equals the last one."""
        self._still_since = None
        self._announced = None
        self._last_read = None
        self.status = WATCHING
        for r in range(SIZE):
            for c in range(SIZE):
                self._candidate[r][c] = None
                self._candidate_reads[r][c] = 0
                self._wavered_at[r][c] = None

    def rearm(self) -> None:
        """Announce the current board again at the next settle (e.g. after the expected changed)."""
        self._announced = None

    @property
    def stable_board(self) -> list[str]:
        return ["".join(row) for row in self._stable]

    def wants_reading(self, timestamp: float, motion: float, spot: bool = False) -> bool:
        """Whether the caller should run the vision on this frame (skip it while moving)."""
        if self._moving(motion, spot):
            return False
        last = self._last_read
        interval = {
            NO_BOARD: self.config.no_board_interval,
            STILL: self.config.settled_interval,
        }.get(self.status, self.config.read_interval)
        # a cell is changing: see and confirm it quickly (a spot counts only as motion does: a
        # few noisy pixels on the board must not make a settled board read ten times as often)
        if self._pending() or (spot and motion > self.config.motion_threshold):
            interval = self.config.read_interval
        return last is None or timestamp - last >= interval - 1e-9

    # -- the frame loop ------------------------------------------------------------------------

    def update(
        self,
        timestamp: float,
        motion: float,
        reading: BoardReading | None = None,
        spot: bool = False,
    ) -> TrackerUpdate:
        """One frame: its time, its motion score, the vision's reading if the caller ran it,
        and whether the motion is one chip-sized spot on the board (see :meth:`_moving`)."""
        cfg = self.config
        if self._moving(motion, spot):
            self._still_since = None
            self.status = WATCHING
            return TrackerUpdate(WATCHING)
        if reading is None:  # vision skipped this frame: settle only on a fresh reading
            return TrackerUpdate(self.status)
        self._last_read = timestamp
        if not reading.board_found or reading.cells is None:
            if self._lost_for_a_moment(timestamp):
                return TrackerUpdate(self.status)
            self._still_since = None
            self.status = NO_BOARD
            return TrackerUpdate(NO_BOARD)
        hidden = self._hidden_cells(reading)
        if len(hidden) > cfg.max_hidden:
            self._still_since = None
            self.status = WATCHING
            return TrackerUpdate(WATCHING, hidden=hidden)
        if self._still_since is None:
            self._still_since = timestamp
        self._board_read = timestamp
        self._last_cells = list(reading.cells)
        self._hidden = set(hidden)
        self._observe(timestamp, self._apply_overrides(reading.cells), self._hidden)
        update = self._maybe_settle(timestamp)
        if hidden:
            return TrackerUpdate(update.status, update.settled, hidden)
        return update

    # -- internals -----------------------------------------------------------------------------

    def _moving(self, motion: float, spot: bool) -> bool:
        """Motion means a hand, except a spot (all of it on the board, about one chip across)
        while the board is already in view and still: no hand is near, so it is one cell
        flickering or changing, which per-cell hysteresis judges; it neither restarts the
        stillness clock nor holds a ruling back by a whole window."""
        if motion <= self.config.motion_threshold:
            return False
        return not (spot and self.status in (SETTLING, STILL))

    def _lost_for_a_moment(self, timestamp: float) -> bool:
        """A reading without the board while nothing has moved since the board was read, less
        than a window ago: the board cannot have gone, the vision missed it. Such a reading says
        nothing (like one with every cell ``?``): it neither settles nor restarts the window."""
        return (
            self._still_since is not None
            and self._board_read is not None
            and timestamp - self._board_read < self.config.still_window
        )

    def _hidden_cells(self, reading: BoardReading) -> tuple[tuple[int, int], ...]:
        floor = self.config.min_confidence
        conf = reading.confidence
        hidden = []
        for r in range(SIZE):
            row = reading.cells[r]
            for c in range(SIZE):
                if (r, c) in CORNERS:
                    continue
                if row[c] == UNKNOWN or (conf is not None and floor > 0 and conf[r][c] < floor):
                    hidden.append((r, c))
        return tuple(hidden)

    def _pending(self) -> bool:
        return any(v is not None for row in self._candidate for v in row)

    def _changing(self, timestamp: float) -> bool:
        """A cell is in the middle of a change (not one that has flickered for too long, nor
        one that turned unreadable before its change was confirmed: waiting for it could take
        for ever, e.g. under a glare spot, and would only delay the ruling of the rest)."""
        patience, window = self.config.settle_patience, self.config.still_window

        def unsettled(r: int, c: int) -> bool:
            if (r, c) in self._hidden or timestamp - self._unsettled_since[r][c] >= patience:
                return False
            if self._candidate[r][c] is not None:
                return True
            # the cell read a new value first in this still spell (it came with the hand),
            # then its old value again less than a window ago: it may be half of a change
            # whose other half is confirmed now. (A flicker on a cell first read as it was
            # is no such thing and holds nothing back.)
            wavered = self._wavered_at[r][c]
            return wavered is not None and timestamp - wavered < window

        return any(unsettled(r, c) for r in range(SIZE) for c in range(SIZE))

    def _apply_overrides(self, cells: list[str]) -> list[str]:
        if not self._overrides:
            return cells
        rows = [list(row) for row in cells]
        for (r, c), (misread, truth) in list(self._overrides.items()):
            if rows[r][c] == misread:
                rows[r][c] = truth
            else:  # the vision reads something else now: the correction has done its job
                del self._overrides[(r, c)]
        return ["".join(row) for row in rows]

    def _observe(self, timestamp: float, cells: list[str], hidden: set) -> None:
        for r in range(SIZE):
            row = cells[r]
            for c in range(SIZE):
                if (r, c) in CORNERS:
                    continue
                if (r, c) in hidden:  # an unreadable cell keeps its value and its pending
                    # change; a reading that says nothing neither confirms nor breaks that
                    # change, which completes once its window has passed with enough reads
                    self._promote_if_confirmed(r, c, timestamp)
                    continue
                seen = row[c]
                self._remember(r, c, seen, timestamp)
                if seen == self._stable[r][c]:
                    if self._candidate[r][c] is not None and (
                        self._uncontested_since[r][c] == self._still_since
                    ):  # its new value was the first read on it in this spell: see _changing
                        self._wavered_at[r][c] = timestamp
                    self._candidate[r][c] = None
                    self._last_readable[r][c] = timestamp
                    continue
                if self._candidate[r][c] is None:
                    self._unsettled_since[r][c] = timestamp
                if seen != self._candidate[r][c]:
                    self._candidate[r][c] = seen
                    self._candidate_since[r][c] = timestamp
                    self._uncontested_since[r][c] = self._contested_until(r, c, timestamp)
                    self._candidate_reads[r][c] = 0
                self._candidate_reads[r][c] += 1
                self._last_readable[r][c] = timestamp
                self._promote_if_confirmed(r, c, timestamp)

    def _remember(self, r: int, c: int, seen: str, timestamp: float) -> None:
        runs = self._history.setdefault((r, c), [])
        if runs and runs[-1][0] == seen:
            runs[-1][2] = timestamp
            return
        runs.append([seen, timestamp, timestamp])
        if len(runs) > HISTORY_RUNS:
            del runs[0]

    def _contested_until(self, r: int, c: int, first_read: float) -> float:
        """Since when nothing but the value first read now at ``first_read`` was read on the
        cell: the last read of another value, or the start of the still spell if the cell
        read only ``?`` since it began (before it a hand may have changed the cell), or now."""
        last = self._last_readable[r][c]
        still = self._still_since if self._still_since is not None else first_read
        if last is None or last < still:
            return still
        return first_read  # the read before was another value (reads come in time order)

    def _promote_if_confirmed(self, r: int, c: int, timestamp: float) -> None:
        """A pending value becomes the cell's value once it was read at least ``min_reads``
        times and was the only value read there for the window: since its first read, or,
        when the cell read only ``?`` before it in this still spell, since the spell began,
        provided its reads then span at least ``min_shown`` of the window."""
        seen = self._candidate[r][c]
        cfg = self.config
        if seen is None or self._candidate_reads[r][c] < cfg.min_reads:
            return
        window, first = cfg.still_window - 1e-9, self._candidate_since[r][c]
        shown = self._last_readable[r][c] - first  # its reads' span (the last readable read)
        if timestamp - first >= window or (
            timestamp - self._uncontested_since[r][c] >= window
            and shown >= cfg.min_shown * cfg.still_window - 1e-9
        ):
            self._stable[r][c] = seen
            self._candidate[r][c] = None

    def _maybe_settle(self, timestamp: float) -> TrackerUpdate:
        if self._still_since is None:
            return TrackerUpdate(self.status)
        still_for = timestamp - self._still_since
        if still_for < self.config.still_window - 1e-9 or self._changing(timestamp):
            # not still long enough, or a cell is still changing: announcing now could show
            # half a change (one of two cells) and make a wrong move of it
            self.status = SETTLING
            return TrackerUpdate(SETTLING)
        self.status = STILL
        board = self.stable_board
        if board != self._announced:
            self._announced = board
            return TrackerUpdate(STILL, settled=board)
        return TrackerUpdate(STILL)


def _check_board(board: list[str]) -> None:
    if len(board) != SIZE or any(len(row) != SIZE for row in board):
        raise ValueError("a board is 10 strings of 10 symbols")
    for r, c in CORNERS:
        if board[r][c] != CORNER:
            raise ValueError("a board has '*' on its four corners")
