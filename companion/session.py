"""``GameSession``: the live game. Glues capture, vision, tracker, referee and store together.

The web layer talks only to this object (API in docs/ARCHITECTURE.md, "GameSession API").
Frames come either from a background thread (``start()`` with a source) or from the caller
(``process_frame``, which is what ``companion replay`` does, so replays are deterministic).

For each frame: motion score -> (vision when still) -> tracker. When the tracker settles a board,
the board is compared with the referee's board: no change does nothing, one chip placed or
removed becomes a move that the referee rules on at once, anything else is a "board does not
match" ruling naming the cells; after a mismatch or an illegal move the session waits until the
board matches the game again. Every move, ruling and correction is written to the store in one
transaction each, so a restarted session resumes the unfinished game exactly.
"""

from __future__ import annotations

import math
import queue
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.capture.frame import Frame
from companion.capture.motion import MotionMeter
from companion.capture.reconnect import CaptureEvent, Reconnecting
from companion.capture.sources import CaptureError, FrameSource
from companion.cells import Cell, cell_name, parse_cell
from companion.referee import COLORS, Game, Move
from companion.store import waits
from companion.store.records import new_game, rebuild_game
from companion.store.store import Store
from companion.store.waits import Wait
from companion.tracking import (
    MISMATCH,
    NO_BOARD,
    NONE,
    PLACE,
    REMOVE,
    SETTLING,
    STILL,
    WATCHING,
    BoardChange,
    BoardTracker,
    TrackerConfig,
    interpret,
    interpret_catch_up,
)
from companion.tracking.catch_up import emptied_between, seen_in_order
from companion.vision.causes import cause_kind
from companion.vision.lens import grid_to_frame
from companion.vision.reading import COLOR_OF_SYMBOL, NO_COLOUR, BoardReading

# the words for a cell the camera cannot read, by what the table can do about it
KIND_WORDS = {"hand": "a hand", "cover": "covered", "glare": "glare", "unclear": "unclear"}

DEFAULT_SETUP = {
    "variant": "classic",
    "options": {},
    "players": [{"name": "Blue", "team": "blue"}, {"name": "Green", "team": "green"}],
}
EVIDENCE_WIDTH = 360  # pixels of the straightened board kept as evidence
EVIDENCE_QUALITY = 80
FRAME_EVENT_INTERVAL = 0.2  # seconds between "frame" ticks to subscribers
QUEUE_SIZE = 256
CELL_VALUES = {".": None, "B": "blue", "G": "green", "R": "red"}

# Rulings the session gives itself (not the referee), keyed like the referee's texts so the web
# layer can translate them by code and rule id.
SESSION_CODE_TEXTS = {
    "board_mismatch": "The board does not match the game; the cells named must be fixed.",
}
SESSION_RULE_TEXTS = {
    "board.mismatch": "Each turn adds one chip of the side to move or removes one chip; when the "
    "board shows anything else, the game waits until the table makes it match again. (referee)",
}

# session statuses (the tracker's plus the ones only the session knows)
WAITING_FOR_BOARD = "waiting_for_board"
CAMERA_LOST = "camera_lost"
SOURCE_ENDED = "source_ended"  # a video file or a frame folder was played to its end
GAME_OVER = "game_over"


class SessionError(Exception):
    """A request the session cannot carry out; ``code`` is stable, ``message`` for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class GameSession:
    def __init__(
        self,
        store: Store | None = None,
        source: FrameSource | None = None,
        setup: dict | None = None,
        reader: Any | None = None,
        tracker_config: TrackerConfig | None = None,
        evidence: bool = True,
        calibration_path: str | Path | None = None,
    ) -> None:
        """Resume the store's unfinished game, or start one from ``setup`` (default: 2 players,
        blue first). ``reader`` is a vision reader with ``read(bgr)`` and ``straighten(bgr)``
        (default: ``companion.vision.BoardReader()``, created when the first frame arrives).
        ``calibration_path`` is where :meth:`calibrate` writes the calibration it makes.
        """
        self.store = store or Store()
        self.source = source
        self._reader = reader
        self.calibration_path = Path(calibration_path) if calibration_path else None
        self._calibration_orientation: int | None = None  # as the table confirmed it
        # the board's corners as the table marked them (frame pixels), None: located by itself
        self._calibration_corners: tuple | None = None
        self._keep_evidence = evidence
        self._lock = threading.RLock()
        self._subscribers: list[queue.Queue] = []
        self._thread: threading.Thread | None = None
        self._capture: Reconnecting | None = None
        self._motion = MotionMeter()
        self.tracker = BoardTracker(tracker_config)
        self._status = WATCHING
        self._status_message = "waiting for the first frame"
        self._mismatch: list[str] = []  # cells the table must fix
        self._unreadable: list[str] = []  # cells the vision could not read in the last reading
        self._waiting: str | None = None  # why the game waits for the board, if it does
        self._asked = False  # it waits because the table was asked about unreadable cells
        self._stored_wait: Wait | None = None  # the wait kept in the store (see _wait)
        self._declared: tuple[str, str | None] | None = None  # (card, player) for the next move
        self._just_cleared: Cell | None = None
        self._after_gap = False  # frames were lost (camera outage) since the last settled board
        # cells the vision could not read in any reading of the current still spell, and the
        # cells that stayed unreadable through a whole still spell since the last move: a
        # move made on one of those may have gone unseen (see _on_settled)
        self._unseen_now: set[Cell] | None = None
        self._unseen_since_move: set[Cell] = set()
        # cells that differed from the game's board on any board settled since the last move
        self._changed_since_move: set[Cell] = set()
        self._ruled_at = -math.inf  # camera time of the last ruling (-inf: none since a start)
        self._latest: Frame | None = None
        self._latest_reading: BoardReading | None = None
        self._settled_frame: np.ndarray | None = None  # camera frame of the last matching board
        self._last_tick = -1e9
        self._rulings: list[dict] = []
        self.frame_errors = 0  # frames the live loop had to skip because processing failed
        self.game: Game
        self.game_id: int
        active = self.store.active_game_id() if setup is None else None
        self.resumed = active is not None  # an unfinished game of the store goes on
        if active is not None:
            self._resume(active)
        else:
            self._begin(setup or DEFAULT_SETUP)

    # -- lifecycle -----------------------------------------------------------------------------

    def _begin(self, setup: dict) -> None:
        setup = _normalise_setup(setup)
        game = new_game(setup)  # raises the referee's SetupError before anything is stored
        self.game = game
        self.game_id = self.store.create_game(setup)
        self._setup = setup
        self._rulings = []
        self._after_game_change(reset_tracker=True)

    def _resume(self, game_id: int) -> None:
        stored = self.store.load_game(game_id)
        self.game = rebuild_game(stored)
        self.game_id = game_id
        self._setup = stored.setup()
        self._rulings = list(stored.rulings)
        self._after_game_change(reset_tracker=True)
        self._declared = _pending_declaration(stored.actions)
        for where, (misread, value) in _standing_corrections(stored.actions, self.game).items():
            self.tracker.restore_correction(where, misread, value)
        last = self.game.moves[-1] if self.game.moves else None
        self._just_cleared = last.cell if last is not None and last.kind == "remove" else None
        self._status_message = f"resumed game {game_id} at move {len(self.game.moves) + 1}"
        self._after_gap = True  # the camera saw nothing while the companion was down
        self._restore_wait(stored.wait)

    def _restore_wait(self, wait: Wait | None) -> None:
        """Resume what the game waited for before the restart: the same question (with what
        the camera had seen until it was asked) or the same board to put right, shown at once
        and not ruled on again. A wait the game has moved on from (a crash between a move
        and the end of its wait) is dropped."""
        if wait is None:
            return
        if wait.moves != len(self.game.moves) or self.game.is_over:
            self.store.set_wait(self.game_id, None)
            return
        self._mismatch, self._waiting = list(wait.cells), wait.message
        self._asked = wait.kind == waits.QUESTION
        self._stored_wait = wait
        self._status, self._status_message = WAITING_FOR_BOARD, wait.message
        # a question's cells are those it could not see; no other wait has unseen cells
        self._unseen_since_move = (
            {parse_cell(name) for name in wait.cells} if self._asked else set()
        )
        self._changed_since_move = {parse_cell(name) for name in wait.changed}
        # before every read after the restart: the restarted source's clock begins at 0 or more
        self.tracker.restore_history(
            {
                parse_cell(name): [(value, first - 1.0, last - 1.0) for value, first, last in runs]
                for name, runs in wait.reads.items()
            }
        )
        self.tracker.accept(list(wait.board))

    def _after_game_change(self, reset_tracker: bool) -> None:
        """The referee's game changed under the tracker (new game, resume, undo).

        A new or resumed game takes the referee's board as the tracker's prior. An undo keeps the
        tracker's board: the chips are still physically there, so they are not ruled on again;
        the table is asked to make the board match instead.
        """
        self._clear_wait()
        self._just_cleared = None
        self._forget_unseen()
        if reset_tracker:
            self.tracker.reset(self.game.board_strings(), rearm=True)
        if self.game.is_over:
            self._status = GAME_OVER

    def start(self) -> None:
        """Pull frames from the source in a background thread (no-op without a source)."""
        if self.source is None or self._thread is not None:
            return
        self._capture = Reconnecting(self.source, on_event=self.on_capture_event)
        self._thread = threading.Thread(target=self._run, name="game-session", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._capture is not None:
            self._capture.stop()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        if self._capture is not None:
            self._capture.close()
            self._capture = None

    def _run(self) -> None:
        capture = self._capture
        assert capture is not None
        while True:
            try:
                frame = capture.read()
            except CaptureError as exc:
                self._set_status(CAMERA_LOST, exc.message)
                return
            if frame is None:
                if not capture.stopped:
                    self._source_ended(capture.name)
                return
            try:
                self.process_frame(frame)
            except Exception as exc:  # one bad frame must not end a live game: say so, go on
                self.frame_errors += 1
                self._emit(
                    {"type": "status", "status": self._status, "at": time.time(),
                     "message": f"frame {frame.index} skipped: {type(exc).__name__}: {exc}"}
                )  # fmt: skip

    def _source_ended(self, name: str) -> None:
        """A recording played to its end (a live source is reopened instead): the game stays as
        it is; the page says the recording ended, or the game's result when it has one."""
        name = Path(name).name or name  # a file or a folder: its name is enough
        with self._lock:
            game = self.game
            winner = game.winner if game.is_over else None
            if winner is not None:
                self._set_status(GAME_OVER, f"{winner} wins; {name} played to its end")
            else:  # the status itself says the recording ended: say where the game stands
                moves = len(game.moves)
                still_open = f". Still open: {self._waiting}" if self._waiting else ""
                self._set_status(
                    SOURCE_ENDED,
                    f"{name}: {moves} move{'' if moves == 1 else 's'} recorded, "
                    f"{game.color_to_move} to move{still_open}",
                )

    def on_capture_event(self, event: CaptureEvent) -> None:
        """A camera event (lost, retry, back, gave_up) from the :class:`Reconnecting` wrapper
        of the source: ``start()`` wires it, a caller that pulls frames itself passes them on.

        A lost camera interrupts the tracker (nothing seen before the gap counts after it) and
        marks a gap: the first board settled after it may be several turns ahead
        (:func:`~companion.tracking.interpret_catch_up`)."""
        self._emit({"type": "camera", **event.to_json()})
        if event.kind == "lost":
            with self._lock:
                self.tracker.interrupt()
                self._motion.reset()
                self._after_gap = True
        if event.kind in ("lost", "retry", "gave_up"):
            self._set_status(CAMERA_LOST, event.message)
        elif event.kind == "back":
            self._motion.reset()
            self._set_status(WATCHING, event.message)

    # -- the frame loop ------------------------------------------------------------------------

    def process_frame(self, frame: Frame) -> None:
        """Feed one frame (the background thread and ``companion replay`` both call this)."""
        motion = self._motion.measure(frame.image, self._watched_region())
        # the vision runs outside the lock so the web page is never kept waiting by it
        reading = None
        if self.tracker.wants_reading(frame.timestamp, motion.score, motion.spot):
            reading = self.reader.read(frame.image)
        with self._lock:
            if reading is not None:
                self._latest_reading = reading
            update = self.tracker.update(frame.timestamp, motion.score, reading, motion.spot)
            self._note_unseen(update.status, reading, update.hidden)
            if reading is not None:
                self._unreadable = [cell_name(c) for c in update.hidden]
            self._latest = frame
            if update.settled is not None:
                self._on_settled(update.settled, frame)
            elif reading is not None or update.status == WATCHING:
                self._follow_tracker(update.status, update.hidden)
        if frame.timestamp - self._last_tick >= FRAME_EVENT_INTERVAL:
            self._last_tick = frame.timestamp
            self._emit({"type": "frame", "index": frame.index, "timestamp": frame.timestamp})

    def _watched_region(self) -> np.ndarray | None:
        """The board's corners from the last reading that found it: motion beside the board
        does not count. ``None`` (the whole frame) until a board has been found."""
        reading = self._latest_reading
        if reading is None or not reading.board_found or reading.corners is None:
            return None
        return reading.corners

    def _note_unseen(self, status: str, reading: BoardReading | None, hidden: tuple) -> None:
        """Keep track of cells unreadable through a whole still spell (between hand visits)."""
        if reading is None:
            if status == WATCHING and self._unseen_now is not None:  # a hand: the spell ended
                self._unseen_since_move |= self._unseen_now
                self._unseen_now = None
        elif reading.board_found:
            seen_hidden = set(hidden)
            now = self._unseen_now
            self._unseen_now = seen_hidden if now is None else now & seen_hidden

    def _forget_unseen(self) -> None:
        self._unseen_now = None
        self._unseen_since_move = set()
        self._changed_since_move = set()

    @property
    def reader(self) -> Any:
        if self._reader is None:
            from companion.vision import BoardReader

            self._reader = BoardReader()
        return self._reader

    def _follow_tracker(self, status: str, hidden: tuple = ()) -> None:
        if self._status == GAME_OVER:
            return
        if status == NO_BOARD:
            # (a camera switched to its night mode sends grey frames: the table is told so)
            reading = self._latest_reading
            grey = reading is not None and NO_COLOUR in reading.notes
            self._set_status(
                NO_BOARD, f"no board in view: {NO_COLOUR}" if grey else "no board in view"
            )
        elif status == WATCHING:
            message = (
                "hands over the board"
                if not hidden
                else "cells hidden: " + ", ".join(cell_name(c) for c in hidden[:6])
            )
            self._set_status(WATCHING, message)
        elif self._waiting is not None:  # keep asking for the fix until the board shows it
            self._set_status(WAITING_FOR_BOARD, self._waiting)
        elif status == SETTLING:
            self._set_status(WATCHING, "board still, settling")
        elif status == STILL:
            unreadable = self._unreadable
            glimpses = [
                f"{COLOR_OF_SYMBOL[v]} seen on {cell_name(c)} for a moment"
                for c, v in self.tracker.glimpses().items()
                if v in COLOR_OF_SYMBOL
            ]
            self._set_status(
                STILL,
                "board is still"
                + (f"; cannot read {', '.join(unreadable[:6])}" if unreadable else "")
                + (f" ({'; '.join(glimpses[:2])})" if glimpses else ""),
            )

    def _on_settled(self, board: list[str], frame: Frame) -> None:
        game = self.game
        change = self._change_to(board)
        declared = self._declared
        just_cleared = None if declared else self._just_cleared
        meaning = interpret(change, game.color_to_move, just_cleared)
        after_gap, self._after_gap = self._after_gap, False
        unseen = self._unseen_cells()
        unexplained = meaning.kind == MISMATCH or (bool(unseen) and self._removes_own_chip(meaning))
        changed_now = self._changed_cells(board, change)
        changed_before = self._changed_since_move
        self._changed_since_move = changed_before | changed_now
        # a chip seen on a board settled since the last move and gone again: moves were made
        # that the board as it is now does not show; with cells unreadable, where such moves
        # may hide, no move is ruled from this board alone
        came_and_went = changed_before - changed_now
        doubtful = unexplained or (came_and_went and unseen and meaning.kind != NONE)
        if doubtful and declared is None and not game.is_over:
            plan = None if came_and_went else self._catch_up_plan(board, after_gap, just_cleared)
            if plan is not None:
                self._catch_up(plan, frame)
                return
            remover = game.moves[-1].color if game.moves else None
            if unseen and not _only_put_back(change, just_cleared, remover):
                self._ask_unseen(change, unseen)
                return
        if meaning.kind == NONE:
            self._changed_since_move = set()
            self._settled_frame = frame.image
            if self._waiting is not None:
                self._clear_wait()
                self._emit({"type": "mismatch", "cells": [], "message": "board matches again"})
            self._set_status(
                GAME_OVER if game.is_over else STILL,
                "game over" if game.is_over else "board matches the game",
            )
            return
        if game.is_over:
            self._set_status(GAME_OVER, "the game is over; start a new game to play again")
            return
        if meaning.kind == MISMATCH:
            self._rule_mismatch(list(meaning.cells), meaning.reason, frame)
            return
        cell = meaning.cell
        assert cell is not None
        if declared is not None:
            card, player = declared
            player = player or game.to_move.name
            move = (
                Move.play(player, card, cell)
                if meaning.kind == PLACE
                else Move.jack_remove(player, card, cell)
            )
        elif meaning.kind == PLACE:
            move = Move.board_place(game.color_to_move, cell)
        else:
            move = Move.board_remove(game.color_to_move, cell)
        self._push(move, frame)

    def _changed_cells(self, board: list[str], change: BoardChange | None = None) -> set[Cell]:
        """The cells where ``board`` differs from the game's (``change``: already worked out);
        those of ``_changed_since_move`` not among them showed a chip that is gone again."""
        return {ch.cell for ch in (change or self._change_to(board)).changes}

    def _change_to(self, board: list[str]) -> BoardChange:
        """How ``board`` differs from the game's; a chip read gone on a board settled since
        the last move and now of another colour is a replaced chip, not a misread."""
        expected = self.game.board_strings()
        emptied = emptied_between(
            expected, board, self._changed_since_move, self.tracker, self._ruled_at
        )
        return BoardChange.between(expected, board, emptied)

    def _removes_own_chip(self, meaning) -> bool:
        """A chip of the side to move is gone: never a legal move, but the sign of a move the
        camera missed when cells could not be read (the other side's removal came after it)."""
        if meaning.kind != REMOVE or meaning.cell is None:
            return False
        return self.game.chip_at(meaning.cell) == self.game.color_to_move

    @contextmanager
    def _keeping_unseen(self, corrected: Cell):
        """Rule a move inside the block without forgetting what was known of the board's
        unseen cells (a ruled move forgets it: :meth:`_forget_unseen`), as the rest of the
        board still holds, and so does the time of the last ruling before it, and whether the
        table was being asked (the moves seen one by one while it was are caught up in the
        order seen); ``corrected`` is no longer a cell that changed."""
        kept = (
            self._unseen_since_move,
            self._unseen_now,
            self._after_gap,
            self._changed_since_move - {corrected},
            self._ruled_at,
            self._asked,
        )
        self._changed_since_move = set()
        try:
            yield
        finally:
            (
                self._unseen_since_move,
                self._unseen_now,
                self._after_gap,
                self._changed_since_move,
                self._ruled_at,
                self._asked,
            ) = kept

    def _unseen_cells(self) -> set[Cell]:
        """Cells the vision could not read through a whole still spell since the last move,
        or in any reading of the current one: a move made there may have gone unseen."""
        return self._unseen_since_move | (self._unseen_now or set())

    def _catch_up_plan(
        self, board: list[str], after_gap: bool, just_cleared: Cell | None
    ) -> list | None:
        """Several moves the camera did not see one by one, in turn order, or ``None``.

        The settled board is tried as it is and with the tracker's glimpses (a chip read twice
        as the hand left, then lost under glare). An order of the moves is accepted only when
        it agrees with what was read when (:func:`~companion.tracking.catch_up.seen_in_order`),
        and exactly one may fit.
        """
        game = self.game
        glimpses = self.tracker.glimpses()
        boards = [(board, {})]
        if glimpses:
            boards.append((_with_cells(board, glimpses), glimpses))
        for candidate, glimpsed in boards:
            change = self._change_to(candidate)
            plan = interpret_catch_up(
                change,
                _turn_colors(game),
                just_cleared,
                lambda plan, change=change, glimpsed=glimpsed: seen_in_order(
                    plan,
                    change,
                    self.tracker,
                    self._unseen_cells() | set(glimpsed),
                    after_gap,
                    self._asked,
                ),
            )
            if plan is not None:
                for cell, value in glimpsed.items():
                    if any(m.cell == cell for m in plan):
                        self.tracker.adopt(cell, value)
                return plan
        return None

    def _ask_unseen(self, change: BoardChange, unseen: set[Cell]) -> None:
        """The board cannot be explained while some cells cannot be read: ask the table to
        make them readable or correct them, instead of ruling on a board only half seen."""
        game = self.game
        names = sorted((cell_name(c) for c in unseen), key=lambda n: (int(n[1:]), n[0]))
        seen = "; ".join(ch.describe() for ch in change.changes if not ch.is_recolored)
        reasons = self._unseen_reasons(names)
        shown = ", ".join(
            name + (f" ({KIND_WORDS[reasons[name]]})" if name in reasons else "")
            for name in names[:8]
        ) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
        message = (
            f"Cannot see {shown}: {game.color_to_move}'s move may be there"
            + (f" (seen: {seen})" if seen else "")
            + ". Move the lamp or tap the hidden cell to correct it."
        )
        if message != self._waiting:
            self._emit({"type": "unseen", "cells": names, "reasons": reasons, "message": message})
        now = self._latest.timestamp if self._latest is not None else 0.0
        self._wait(
            names,
            message,
            waits.QUESTION,
            changed=tuple(sorted(cell_name(c) for c in self._changed_since_move)),
            reads={
                cell_name(cell): tuple((v, first - now, last - now) for v, first, last in runs)
                for cell, runs in self.tracker.history().items()
            },
        )
        self._asked = True
        self._emit_state()

    def _unseen_reasons(self, names: list[str]) -> dict[str, str]:
        """Why the latest reading could not read each of ``names`` (``causes.cause_kind``:
        hand, cover, glare, unclear), for the cells it read ``?``."""
        reading = self._latest_reading
        if reading is None or not reading.board_found:
            return {}
        kinds = {name: cause_kind(reading.unknown_reasons.get(name, ())) for name in names}
        return {name: kind for name, kind in kinds.items() if kind is not None}

    def _catch_up(self, moves: list, frame: Frame) -> None:
        """Rule the moves the camera did not see one by one, in turn order; an illegal one stops
        the catch-up and the game waits for the board as after any illegal move."""
        for m in moves:
            move = (
                Move.board_place(m.color, m.cell)
                if m.kind == PLACE
                else Move.board_remove(m.color, m.cell)
            )
            ruling = self._push(move, frame)
            if not ruling["legal"] or self.game.is_over:
                return

    def _push(self, move: Move, frame: Frame | None) -> dict:
        game = self.game
        ruling = game.push(move)
        ruling_json = ruling.to_json()
        ruling_id = self.store.add_move(
            self.game_id, move.to_json(), ruling_json, self._ruling_evidence(frame)
        )
        ruling_json = {**ruling_json, "id": ruling_id}
        self._rulings.append(ruling_json)
        self._ruled_at = self._latest.timestamp if self._latest is not None else -math.inf
        if ruling.legal:
            self._declared = None
            self._forget_unseen()
            self._just_cleared = move.cell if move.kind == "remove" else None
            self._clear_wait()
            if frame is not None:
                self._settled_frame = frame.image
            if game.is_over:
                self.store.finish_game(self.game_id, game.winner)
                self._set_status(GAME_OVER, f"{game.winner} wins", emit=False)
            else:
                self._set_status(STILL, f"move {ruling.move_number}: {ruling.message}", emit=False)
        elif move.kind in ("place", "remove") and move.cell is not None:
            self._wait(
                [cell_name(move.cell)],
                f"Illegal: {ruling.message} Put the board back.",
                waits.ILLEGAL,
            )
        self._emit({"type": "ruling", "ruling": ruling_json})
        self._emit_state()
        return ruling_json

    def _wait(self, cells: list[str], message: str, kind: str, **question: Any) -> None:
        """Hold the game until a settled board matches it again; the page shows ``cells``.

        The wait is stored with the board it is about (``kind``: a ``question``, with
        ``question`` saying what the session knew when it asked, an ``illegal`` move, a
        ``mismatch``, an ``undo``), so a restarted session resumes it (:meth:`_restore_wait`).
        """
        self._mismatch = list(cells)
        self._waiting = message
        self._asked = False
        self._set_status(WAITING_FOR_BOARD, message, emit=False)
        wait = Wait(
            kind, tuple(cells), message, len(self.game.moves), tuple(self.tracker.stable_board),
            **question,
        )  # fmt: skip
        if wait != self._stored_wait:
            self.store.set_wait(self.game_id, wait)
            self._stored_wait = wait

    def _clear_wait(self) -> None:
        self._mismatch = []
        self._waiting = None
        self._asked = False
        if self._stored_wait is not None:
            self.store.set_wait(self.game_id, None)
            self._stored_wait = None

    def _ruling_evidence(self, frame: Frame | None) -> dict[str, bytes] | None:
        """The straightened board before (the last board that matched the game) and after (the
        board ruled on), for every ruling made from a camera frame."""
        if frame is None or not self._keep_evidence:
            return None
        evidence = {
            "before": self._evidence_jpeg(self._settled_frame),
            "after": self._evidence_jpeg(frame.image),
        }
        return {k: v for k, v in evidence.items() if v is not None} or None

    def _rule_mismatch(self, cells: list[str], reason: str, frame: Frame | None = None) -> None:
        ruling = {
            "move": None,
            "legal": False,
            "code": "board_mismatch",
            "message": f"The board does not match the game: {reason}. Fix the board: {', '.join(cells)}.",
            "rule": "board.mismatch",
            "new_sequences": [],
            "player": None,
            "color": None,
            "cells": cells,
        }
        ruling["id"] = self.store.add_ruling(self.game_id, ruling, self._ruling_evidence(frame))
        self._rulings.append(ruling)
        self._wait(cells, ruling["message"], waits.MISMATCH)
        self._emit({"type": "mismatch", "cells": cells, "message": ruling["message"]})
        self._emit({"type": "ruling", "ruling": ruling})
        self._emit_state()

    # -- corrections and declarations (called from the web layer) --------------------------------

    def new_game(self, setup: dict) -> None:
        with self._lock:
            self._declared = None
            self._begin(setup)
            self._status = WATCHING
            self._status_message = "new game"
        self._emit_state()

    def correct_cell(self, cell: str, value: str) -> None:
        """The table says what really lies on ``cell`` (``.``, ``B``, ``G`` or ``R``).

        The tracker believes it from now on. If the corrected cell on its own is a move the
        game missed (the vision did not see a chip), that move is ruled first, then the rest of
        the board: so a missed move and the moves played after it all get their rulings.
        """
        if value not in CELL_VALUES:
            raise SessionError("bad_value", f"a cell holds '.', 'B', 'G' or 'R', not {value!r}")
        try:
            where = parse_cell(cell)
        except ValueError as exc:
            raise SessionError("bad_cell", str(exc)) from None
        with self._lock:
            misread = self.tracker.current_read(where)  # kept so a restart restores the fix
            self.store.add_correction(
                self.game_id, "cell", {"cell": cell_name(where), "value": value, "misread": misread}
            )
            self.tracker.correct(where, value)
            if self.tracker.status == STILL and self._latest is not None:
                expected = self.game.board_strings()
                alone = _with_cells(expected, {where: value})
                missed = interpret(BoardChange.between(expected, alone), self.game.color_to_move)
                # a chip seen since the last move and gone again: moves were made that the board
                # does not show, and the corrected one need not be the next (the rest of the
                # board is judged as a whole instead)
                board = self.tracker.stable_board
                came_and_went = self._changed_since_move - self._changed_cells(board)
                if (
                    missed.kind not in (NONE, MISMATCH)
                    and not self._removes_own_chip(missed)
                    and not came_and_went - {where}
                ):
                    with self._keeping_unseen(where):
                        self._on_settled(alone, self._latest)
                self._on_settled(self.tracker.stable_board, self._latest)
                if self._waiting is None:
                    self._asked = False
                self.tracker.accept(self.tracker.stable_board)
        self._emit_state()

    def undo(self) -> None:
        with self._lock:
            if not self.game.moves:
                raise SessionError("nothing_to_undo", "there is no move to undo")
            number = next(r.move_number for r in reversed(self.game.rulings) if r.legal)
            was_over = self.game.is_over
            seen = self.tracker.stable_board
            self.game.pop()
            self.store.add_correction(self.game_id, "undo", {"move_number": number})
            self._rulings = _before_ruling(self._rulings, number)
            if was_over:
                self.store.reopen_game(self.game_id)
            self._after_game_change(reset_tracker=False)
            self._declared = None
            change = BoardChange.between(self.game.board_strings(), seen)
            if change:
                self._wait(
                    change.cells,
                    "Move undone: make the board match the game again ("
                    + ", ".join(change.cells)
                    + ").",
                    waits.UNDO,
                )
            else:
                self._set_status(STILL, "move undone", emit=False)
        self._emit_state()

    def declare_card(self, card: str, player: str | None = None) -> None:
        """The card the next move seen on the board was played with."""
        with self._lock:
            self._check_card_text(card)
            self._declared = (card, player)
            self.store.add_correction(self.game_id, "card", {"card": card, "player": player})
        self._emit_state()

    def declare_dead(self, card: str, player: str | None = None) -> dict:
        with self._lock:
            self._check_card_text(card)
            ruling = self._push(Move.dead_card(player or self.game.to_move.name, card), None)
        return ruling

    def choose_sequence(self, color: str, cells: list[str]) -> dict:
        with self._lock:
            try:
                move = Move.choose(color, cells)
            except ValueError as exc:
                raise SessionError("bad_cell", str(exc)) from None
            return self._push(move, None)

    def check_card(self, card: str) -> dict:
        with self._lock:
            parsed = self._check_card_text(card)
            dead = {str(c) for c in self.game.dead_cards()}
            cells = [cell_name(c) for c in self.game.card_cells(card)]
            return {
                "card": str(parsed),
                "dead": str(parsed) in dead,
                "cells": cells,
                "kind": parsed.kind,
            }

    def _check_card_text(self, card: str):
        try:
            return self.game.parse_card(card)
        except ValueError as exc:
            raise SessionError("bad_card", str(exc)) from None

    def calibrate(
        self,
        orientation: int | None = None,
        capture_empty: bool = False,
        corners: tuple | None = None,
    ) -> dict:
        """The page's calibration step: calibrate the camera from its latest frame (corners,
        orientation, empty-board reference, chip colours), write it to ``calibration_path`` if
        set (``companion serve --calibration PATH`` starts with it next time) and read every
        following frame with it. The orientation the table confirmed is kept for the empty-board
        capture that follows (``capture_empty``: the board is empty in this frame), and so are
        the ``corners`` the table marked on the camera picture (four frame pixels, any order,
        for a board the camera does not find; ``()``: found by itself again)."""
        from companion.calibration import CalibrationError, save
        from companion.calibration.build import calibrate_image
        from companion.vision import BoardReader

        with self._lock:
            frame = self._latest
            if orientation is not None:
                self._calibration_orientation = orientation
            orientation = self._calibration_orientation
            if corners is not None:
                self._calibration_corners = tuple(corners) or None
            corners = self._calibration_corners
        if frame is None:
            raise SessionError(
                "no_frame", "no camera frame yet: wait until the camera shows the board"
            )
        try:
            calibration = calibrate_image(
                frame.image,
                orientation=orientation,
                source="web page",
                corners=None if corners is None else np.asarray(corners, np.float64),
            )
            if self.calibration_path is not None:
                save(calibration, self.calibration_path)
        except (CalibrationError, OSError, ValueError) as exc:
            raise SessionError("calibration_failed", f"cannot calibrate: {exc}") from None
        self._reader = BoardReader(calibration=calibration)  # one swap: the loop sees old or new
        return {
            "orientation": calibration.orientation,
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in calibration.corners],
            "placed": calibration.placed,
            "empty_board": capture_empty,
            "file": str(self.calibration_path) if self.calibration_path else None,
            "in_use": True,
        }

    # -- images ---------------------------------------------------------------------------------

    def evidence(self, move_number: int, which: str) -> bytes | None:
        if which not in ("before", "after"):
            raise SessionError("bad_request", f"evidence is 'before' or 'after', not {which!r}")
        try:
            number = int(move_number)
        except (TypeError, ValueError):  # not a move number at all: no such evidence
            return None
        return self.store.evidence(self.game_id, number, which)

    def ruling_evidence(self, ruling_id: int, which: str) -> bytes | None:
        """The picture kept for a ruling (its ``id`` in ``state()["rulings"]``), refused or not."""
        if which not in ("before", "after"):
            raise SessionError("bad_request", f"evidence is 'before' or 'after', not {which!r}")
        try:
            number = int(ruling_id)
        except (TypeError, ValueError):
            return None
        return self.store.ruling_evidence(self.game_id, number, which)

    def latest_jpeg(self, annotated: bool = True) -> bytes | None:
        with self._lock:
            frame, reading = self._latest, self._latest_reading
        if frame is None:
            return None
        image = frame.image
        if (
            annotated
            and reading is not None
            and reading.board_found
            and reading.corners is not None
        ):
            image = draw_grid(image, reading.corners, self._mismatch, reading.lens)
        return _jpeg(image, 85)

    def board_jpeg(self) -> bytes | None:
        with self._lock:
            frame = self._latest
        if frame is None:
            return None
        return self._evidence_jpeg(frame.image)

    def _evidence_jpeg(self, image: np.ndarray | None) -> bytes | None:
        if image is None:
            return None
        try:
            board = self.reader.straighten(image)
        except Exception:  # vision could not straighten this frame: keep no evidence
            return None
        if board is None:
            return None
        if board.shape[1] > EVIDENCE_WIDTH:
            height = round(board.shape[0] * EVIDENCE_WIDTH / board.shape[1])
            board = cv2.resize(board, (EVIDENCE_WIDTH, height), interpolation=cv2.INTER_AREA)
        return _jpeg(board, EVIDENCE_QUALITY)

    # -- state and events -----------------------------------------------------------------------

    def export_record(self) -> dict:
        with self._lock:
            return self.game.to_record()

    def state(self) -> dict:
        with self._lock:
            game = self.game
            to_move = game.to_move
            return {
                "game_id": self.game_id,
                "board": game.board_strings(),
                "turn": len(game.moves) + 1,
                "to_move": to_move.to_json(),
                "sequences": dict(game.sequence_counts()),
                "sequence_cells": {
                    color: [[cell_name(c) for c in line] for line in lines]
                    for color, lines in game.sequences.items()
                },
                "needed": game.sequences_needed,
                "moves": [m.to_json() for m in game.moves],
                "rulings": list(self._rulings),
                "winner": game.winner,
                "status": self._status,
                "status_message": self._status_message,
                "mismatch": list(self._mismatch),
                "unreadable": list(self._unreadable),
                "declared_card": (
                    {"card": self._declared[0], "player": self._declared[1]}
                    if self._declared
                    else None
                ),
                "dead_cards": [str(c) for c in game.dead_cards()],
                "players": [dict(p) for p in self._setup["players"]],
                "variant": self._setup["variant"],
                "options": dict(self._setup.get("options") or {}),
            }

    def state_brief(self) -> str:
        """One short line for progress displays: ``move 9  still``."""
        with self._lock:
            return f"move {len(self.game.moves) + 1}  {self._status}"

    def subscribe(self) -> queue.Queue:
        q: queue.Queue = queue.Queue(maxsize=QUEUE_SIZE)
        with self._lock:
            self._subscribers.append(q)
        q.put({"type": "state", "state": self.state()})
        return q

    def unsubscribe(self, q: queue.Queue) -> None:
        with self._lock:
            if q in self._subscribers:
                self._subscribers.remove(q)

    def _emit(self, event: dict) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        for q in subscribers:
            try:
                q.put_nowait(event)
            except queue.Full:  # a slow reader loses its oldest events, never blocks the game
                try:
                    q.get_nowait()
                    q.put_nowait(event)
                except (queue.Empty, queue.Full):
                    pass

    def _emit_state(self) -> None:
        self._emit({"type": "state", "state": self.state()})

    def _set_status(self, status: str, message: str, emit: bool = True) -> None:
        changed = status != self._status or message != self._status_message
        self._status, self._status_message = status, message
        if changed and emit:
            self._emit({"type": "status", "status": status, "message": message, "at": time.time()})


def _turn_colors(game: Game) -> list[str]:
    """The teams of the next turns, the side to move first (one full round of the table)."""
    players = game.players
    first = players.index(game.to_move)
    return [players[(first + k) % len(players)].color for k in range(len(players))]


def _pending_declaration(actions) -> tuple[str, str | None] | None:
    """The card declared for the next move and not used yet, from a stored history."""
    declared = None
    for action in actions:
        if action.kind == "card":
            declared = (action.payload["card"], action.payload.get("player"))
        elif action.kind == "undo" or (action.kind == "move" and action.legal):
            declared = None
    return declared


def _standing_corrections(actions, game: Game) -> dict[Cell, tuple[str, str]]:
    """Cell corrections of a stored history that still hold: ``cell -> (misread, value)``.

    The last correction of each cell counts, and only if the game's board still shows its
    value there (a later move may have changed the cell). Corrections stored without the
    reading they fixed (older databases) cannot be restored and are skipped.
    """
    latest: dict[Cell, tuple[str, str]] = {}
    for action in actions:
        if action.kind != "cell":
            continue
        payload = action.payload
        try:
            where = parse_cell(payload["cell"])
        except (KeyError, ValueError, TypeError):
            continue
        if "misread" in payload:
            latest[where] = (str(payload["misread"]), str(payload.get("value")))
        else:
            latest.pop(where, None)
    board = game.board_strings()
    return {
        (r, c): (misread, value)
        for (r, c), (misread, value) in latest.items()
        if misread != value and board[r][c] == value
    }


def _with_cells(board: list[str], cells: dict[Cell, str]) -> list[str]:
    rows = list(board)
    for (r, c), symbol in cells.items():
        rows[r] = _with_symbol(rows[r], c, symbol)
    return rows


def _only_put_back(
    change: BoardChange, just_cleared: Cell | None, remover: str | None = None
) -> bool:
    """The only change is a chip back on the cell the last move cleared: a plain mismatch. A
    chip of the remover's own colour there is no chip put back (the remover took another
    side's chip off): it may be the remover's next move after one the camera could not see."""
    real = [ch for ch in change.changes if not ch.is_recolored]
    if len(real) != 1 or just_cleared is None or real[0].cell != just_cleared:
        return False
    return remover is None or COLOR_OF_SYMBOL.get(real[0].after) != remover


def _with_symbol(row: str, col: int, symbol: str) -> str:
    return row[:col] + symbol + row[col + 1 :]


def _before_ruling(rulings: list[dict], move_number: int) -> list[dict]:
    """The rulings given before the legal ruling of ``move_number`` (what an undo keeps)."""
    for i, ruling in enumerate(rulings):
        if ruling.get("move") == move_number and ruling.get("legal"):
            return rulings[:i]
    return rulings


def _normalise_setup(setup: dict) -> dict:
    players = setup.get("players") or DEFAULT_SETUP["players"]
    return {
        "variant": setup.get("variant") or "classic",
        "options": dict(setup.get("options") or {}),
        "players": [{"name": str(p["name"]), "team": str(p["team"])} for p in players],
    }


def parse_players(text: str) -> list[dict]:
    """``"Ann:blue,Bo:green"`` -> ``[{"name": "Ann", "team": "blue"}, ...]`` (seating order)."""
    players = []
    for part in text.split(","):
        name, sep, team = part.strip().partition(":")
        if not sep or not name.strip() or not team.strip():
            raise SessionError(
                "bad_players",
                f"{part.strip()!r}: write players as NAME:TEAM, e.g. Ann:blue,Bo:green",
            )
        team = team.strip().lower()
        if team not in COLORS:
            raise SessionError(
                "bad_players",
                f"{part.strip()!r}: team colour {team!r} is not allowed; "
                f"teams are {', '.join(COLORS)}",
            )
        players.append({"name": name.strip(), "team": team})
    return players


def draw_grid(
    image: np.ndarray, corners: np.ndarray, highlight: list[str] = (), lens: float = 0.0
) -> np.ndarray:
    """The camera frame with the 10x10 grid drawn over the board (mismatched cells in red),
    its lines bent as the camera's ``lens`` bends them (``BoardReading.lens``)."""
    out = image.copy()
    size = (image.shape[1], image.shape[0])
    steps = np.linspace(0.0, 10.0, 21) if lens else np.float64([0.0, 10.0])

    def to_image(points: np.ndarray) -> np.ndarray:
        return grid_to_frame(np.float64(corners), lens, size, np.float64(points)).round()

    for k in range(11):
        for line in (
            np.stack([np.full_like(steps, k), steps], axis=1),
            np.stack([steps, np.full_like(steps, k)], axis=1),
        ):
            cv2.polylines(
                out, [to_image(line).astype(np.int32)], False, (0, 255, 255), 1, cv2.LINE_AA
            )
    for name in highlight:
        r, c = parse_cell(name)
        side = np.linspace(0.0, 1.0, 6 if lens else 2)
        outline = np.concatenate(
            [
                np.stack([c + side, np.full_like(side, r)], axis=1),
                np.stack([np.full_like(side, c + 1), r + side], axis=1),
                np.stack([c + 1 - side, np.full_like(side, r + 1)], axis=1),
                np.stack([np.full_like(side, c), r + 1 - side], axis=1),
            ]
        )
        cv2.polylines(out, [to_image(outline).astype(np.int32)], True, (0, 0, 255), 3, cv2.LINE_AA)
    return out


def _jpeg(image: np.ndarray, quality: int) -> bytes | None:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return data.tobytes() if ok else None


__all__ = [
    "CAMERA_LOST",
    "SESSION_CODE_TEXTS",
    "SESSION_RULE_TEXTS",
    "DEFAULT_SETUP",
    "GAME_OVER",
    "WAITING_FOR_BOARD",
    "GameSession",
    "SessionError",
    "parse_players",
]
