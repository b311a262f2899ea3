"""companion.capture: frame sources (camera, video, frame folder, stream URL) and motion scores."""

from companion.capture.frame import Frame
from companion.capture.motion import Motion, MotionMeter, is_spot, motion_score, small_grey
from companion.capture.reconnect import CaptureEvent, Reconnecting, backoff_delays
from companion.capture.sources import (
    CameraSource,
    CaptureError,
    FolderSource,
    FrameSource,
    StreamSource,
    VideoFileSource,
    open_source,
)

__all__ = [
    "CameraSource",
    "CaptureError",
    "CaptureEvent",
    "FolderSource",
    "Frame",
    "FrameSource",
    "Motion",
    "MotionMeter",
    "Reconnecting",
    "StreamSource",
    "VideoFileSource",
    "backoff_delays",
    "is_spot",
    "motion_score",
    "open_source",
    "small_grey",
]
