"""Frame sources behind one interface: webcam index, video file, folder of frames, stream URL.

Every source yields :class:`~companion.capture.frame.Frame` objects through ``read()`` and returns
``None`` when it has nothing (end of a file, or a lost camera). Files and folders stamp frames with
``index / fps`` so a replay is deterministic; live sources stamp them with the monotonic clock.

``open_source(spec)`` turns a command-line string into the right source and raises
:class:`CaptureError` (with a ``code`` and a message saying what to do) when it cannot.
"""

from __future__ import annotations

import contextlib
import math
import os
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from companion.capture.frame import Frame

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mov", ".mkv", ".webm", ".m4v", ".mpg", ".mpeg", ".wmv")
URL_SCHEMES = ("http://", "https://", "rtsp://", "rtmp://", "udp://", "tcp://")
DEFAULT_FOLDER_FPS = 15.0
DEFAULT_LIVE_FPS = 30.0
DEFAULT_STREAM_TIMEOUT = 5.0  # seconds a stream may stay silent (opening or between frames)
# before it counts as lost: ffmpeg's own default is 30 s, long enough to look like a freeze
# ffmpeg prints its own decoding complaints ("[mjpeg @ 0x...] No JPEG data") on stderr, where
# they would bury our one-line messages. OpenCV reads this once, when it first uses ffmpeg, so
# it is set as soon as the capture layer is imported (-8 is AV_LOG_QUIET; a user value is kept).
os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")


class CaptureError(Exception):
    """A frame source that cannot be opened or read. ``code`` is stable, ``message`` for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class FrameSource:
    """Common interface. Subclasses implement ``_open``, ``_read`` and ``_close``."""

    live: bool = False  # live sources are reopened with back-off when they fail

    def __init__(self, name: str) -> None:
        self.name = name
        self.fps: float = DEFAULT_LIVE_FPS
        self.frame_count: int | None = None  # known for files and folders
        self._index = 0
        self._opened = False

    def open(self) -> FrameSource:
        if not self._opened:
            self._open()
            self._opened = True
        return self

    def read(self) -> Frame | None:
        """The next frame, or ``None`` at the end of a file or when a live source failed."""
        if not self._opened:
            self.open()
        image = self._read()
        if image is None:
            return None
        timestamp = time.monotonic() if self.live else self._index / self.fps
        frame = Frame(image=image, timestamp=timestamp, index=self._index, source=self.name)
        self._index += 1
        return frame

    def close(self) -> None:
        if self._opened:
            self._close()
            self._opened = False

    def __iter__(self) -> Iterator[Frame]:
        while (frame := self.read()) is not None:
            yield frame

    def __enter__(self) -> FrameSource:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _open(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _read(self) -> np.ndarray | None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _close(self) -> None:
        pass


class _CvCaptureSource(FrameSource):
    """Shared code for everything ``cv2.VideoCapture`` opens."""

    def __init__(self, name: str, target: int | str) -> None:
        super().__init__(name)
        self._target = target
        self._cap: cv2.VideoCapture | None = None

    def _new_capture(self) -> cv2.VideoCapture:
        return cv2.VideoCapture(self._target)

    def _open(self) -> None:
        _quiet_opencv()
        cap = self._new_capture()
        if not cap.isOpened():
            cap.release()
            raise CaptureError("unreadable", self._open_failure_message())
        self._cap = cap
        fps = cap.get(cv2.CAP_PROP_FPS)
        if fps and 1.0 <= fps <= 240.0:
            self.fps = float(fps)
        count = int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        self.frame_count = count if count > 0 and not self.live else None

    def _open_failure_message(self) -> str:
        return f"cannot open {self.name}"

    def _read(self) -> np.ndarray | None:
        if self._cap is None:
            return None
        ok, image = self._cap.read()
        return image if ok and image is not None else None

    def _close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class VideoFileSource(_CvCaptureSource):
    """A recorded video (or a single image); timestamps are ``index / fps`` of the file.

    Opening decodes the first frame: a file OpenCV "opens" but cannot decode (a text file named
    ``.jpg``, a truncated video) is refused at once instead of replaying as zero frames.
    """

    def __init__(self, path: str | Path) -> None:
        path = Path(path)
        super().__init__(str(path), str(path))
        self.path = path
        self._first: np.ndarray | None = None

    def _open(self) -> None:
        if not self.path.is_file():
            raise CaptureError("not_found", f"video file {self.path} does not exist")
        super()._open()
        first = super()._read()
        if first is None:
            super()._close()
            raise CaptureError(
                "no_frames",
                f"{self.path} holds no frame OpenCV can decode: not a video or image it reads "
                "(try an .mp4 or .avi file)",
            )
        self._first = first

    def _read(self) -> np.ndarray | None:
        if self._first is not None:
            first, self._first = self._first, None
            return first
        return super()._read()

    def _close(self) -> None:
        self._first = None
        super()._close()

    def _open_failure_message(self) -> str:
        return f"{self.path} is not a video OpenCV can decode (try an .mp4 or .avi file)"


class CameraSource(_CvCaptureSource):
    """A local webcam by index (``--camera 0``)."""

    live = True

    def __init__(self, index: int) -> None:
        super().__init__(f"camera {index}", index)
        self.index = index

    def _open_failure_message(self) -> str:
        return f"camera {self.index} cannot be opened: is it connected and not used by another program?"


class StreamSource(_CvCaptureSource):
    """A network stream (phone camera apps: MJPEG over HTTP, RTSP), read by OpenCV's ffmpeg.

    A stream that stays silent for ``timeout`` seconds (a server that accepts and sends nothing,
    a phone on a dropped Wi-Fi) fails its open or read, so the caller reopens it with back-off
    instead of freezing for ffmpeg's default 30 s.
    """

    live = True

    def __init__(self, url: str, timeout: float = DEFAULT_STREAM_TIMEOUT) -> None:
        super().__init__(url, url)
        if not (math.isfinite(timeout) and timeout > 0):
            raise CaptureError("bad_timeout", f"a stream timeout is seconds above 0, not {timeout}")
        self.url = url
        self.timeout = float(timeout)

    def _new_capture(self) -> cv2.VideoCapture:
        if not _has_ffmpeg():  # an OpenCV built without ffmpeg may still open it another way
            return cv2.VideoCapture(self._target)
        ms = max(1, round(self.timeout * 1000))
        params = [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, ms, cv2.CAP_PROP_READ_TIMEOUT_MSEC, ms]
        return cv2.VideoCapture(self._target, cv2.CAP_FFMPEG, params)

    def _open_failure_message(self) -> str:
        return f"stream {self.url} cannot be opened: check the address and that the phone app is running"


class FolderSource(FrameSource):
    """A folder of still frames, read in name order, stamped ``index / fps``.

    With ``follow`` the folder is a live camera instead (a phone app dropping JPEGs into it):
    frames are stamped with the monotonic clock, files that appear later are read as they come
    (in name order, after the last one read), a file still being written is waited for (a JPEG
    must end with its end-of-image marker, a PNG with its IEND chunk, and decode), and when no
    new frame has come for ``idle_timeout`` seconds ``read()`` returns ``None``, so
    :class:`~companion.capture.reconnect.Reconnecting` reports the camera lost and keeps
    looking. Names starting with ``.`` (temporary files) are ignored.
    """

    def __init__(
        self,
        path: str | Path,
        fps: float = DEFAULT_FOLDER_FPS,
        follow: bool = False,
        idle_timeout: float = 5.0,
        poll: float = 0.05,
    ) -> None:
        path = Path(path)
        super().__init__(str(path))
        if not (math.isfinite(fps) and fps > 0):
            raise CaptureError(
                "bad_fps", f"frames per second must be a finite number above 0, not {fps}"
            )
        self.path = path
        self.fps = float(fps)
        self.follow = follow
        self.live = follow  # a followed folder is reopened like a camera, never "ends"
        self.idle_timeout = idle_timeout
        self.poll = poll
        self.skipped: list[str] = []  # followed files that never became a readable image
        self._files: list[Path] = []
        self._position = 0
        self._last_name: str | None = None
        self._opened_before = False

    def _scan(self) -> list[Path]:
        """The frames after the last one read, in name order. A followed folder is scanned
        whenever the reader catches up: names are compared before any file is looked at, and
        ``scandir`` gives the file type without another system call."""
        after = self._last_name
        with os.scandir(self.path) as entries:
            names = [
                e.name
                for e in entries
                if (after is None or e.name > after)
                and not e.name.startswith(".")
                and os.path.splitext(e.name)[1].lower() in IMAGE_SUFFIXES
                and e.is_file()
            ]
        return [self.path / name for name in sorted(names)]

    def _open(self) -> None:
        if not self.path.is_dir():
            raise CaptureError("not_found", f"frame folder {self.path} does not exist")
        self._files = self._scan()
        self._position = 0
        if self.follow:
            if self._opened_before and not self._files:  # reopened after going idle
                raise CaptureError("unreadable", f"no new frame in {self.path} yet")
            self._opened_before = True
            return  # the first open may come before the first frame
        if not self._files:
            raise CaptureError(
                "empty", f"frame folder {self.path} holds no images ({', '.join(IMAGE_SUFFIXES)})"
            )
        self.frame_count = len(self._files)

    def _read(self) -> np.ndarray | None:
        if self.follow:
            return self._read_followed()
        while self._index < len(self._files):
            image = cv2.imread(str(self._files[self._index]), cv2.IMREAD_COLOR)
            if image is not None:
                return image
            raise CaptureError("unreadable", f"{self._files[self._index]} is not a readable image")
        return None

    def _read_followed(self) -> np.ndarray | None:
        last_new = time.monotonic()
        waiting_since: float | None = None  # for the file being written
        while True:
            if self._position >= len(self._files):
                try:
                    self._files, self._position = self._scan(), 0
                except OSError:  # the folder itself went away: the "camera" is lost
                    return None
            if self._position < len(self._files):
                path = self._files[self._position]
                image = read_complete_image(path)
                now = time.monotonic()
                if image is not None or (
                    waiting_since is not None and now - waiting_since > self.idle_timeout
                ):
                    self._position += 1
                    self._last_name = path.name
                    if image is not None:
                        return image
                    self.skipped.append(path.name)  # never completed: go on with the next
                    waiting_since = None
                    continue
                waiting_since = waiting_since or now
                last_new = now
            elif time.monotonic() - last_new > self.idle_timeout:
                return None
            time.sleep(self.poll)


def read_complete_image(path: Path) -> np.ndarray | None:
    """The image in ``path``, or ``None`` while it is missing, empty or still being written."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    suffix = path.suffix.lower()
    if suffix in (".jpg", ".jpeg") and not data.rstrip(b"\0").endswith(b"\xff\xd9"):
        return None  # no end-of-image marker yet
    if suffix == ".png" and b"IEND" not in data[-12:]:
        return None
    if not data:
        return None
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)


def _has_ffmpeg() -> bool:
    try:
        return bool(cv2.videoio_registry.hasBackend(cv2.CAP_FFMPEG))
    except AttributeError:  # pragma: no cover - very old builds
        return False


def _quiet_opencv() -> None:
    """OpenCV's own warnings about failed opens would bury our one-line message."""
    with contextlib.suppress(AttributeError):  # older builds have no logging module
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)


def open_source(spec: str | int, fps: float | None = None, follow: bool = False) -> FrameSource:
    """Build (and open) the source a command-line string names.

    ``0`` or ``camera:0`` -> webcam; ``http://...``/``rtsp://...`` -> stream; a folder -> its
    frames (``follow``: frames still arriving, read live); anything else -> a video file.
    Raises :class:`CaptureError` when it cannot be opened.
    """
    if fps is not None and not (math.isfinite(fps) and fps > 0):
        raise CaptureError(
            "bad_fps", f"frames per second must be a finite number above 0, not {fps}"
        )
    if isinstance(spec, int):
        if follow:
            raise CaptureError(
                "bad_source", f"camera {spec}: only a folder of frames can be followed"
            )
        source: FrameSource = CameraSource(spec)
    else:
        text = str(spec).strip()
        if not text:
            raise CaptureError("bad_source", "no source given: pass a video, a folder, a URL or 0")
        lower = text.lower()
        if follow and not Path(text).is_dir():
            raise CaptureError("bad_source", f"{text}: only a folder of frames can be followed")
        if lower.startswith("camera:"):
            number = text.split(":", 1)[1]
            if not number.isdigit():
                raise CaptureError("bad_source", f"{text!r}: a camera index is a number (camera:0)")
            source = CameraSource(int(number))
        elif text.isdigit() and not Path(text).exists():
            source = CameraSource(int(text))
        elif lower.startswith(URL_SCHEMES):
            source = StreamSource(text)
        elif Path(text).is_dir():
            source = FolderSource(
                text, fps=DEFAULT_FOLDER_FPS if fps is None else fps, follow=follow
            )
        elif Path(text).exists():
            source = VideoFileSource(text)
        else:
            raise CaptureError(
                "not_found",
                f"{text} does not exist; give a video file, a folder of frames, "
                "a stream URL (http://, rtsp://) or a camera index",
            )
    source.open()
    if fps is not None and not isinstance(source, FolderSource):
        source.fps = float(fps)
    return source
