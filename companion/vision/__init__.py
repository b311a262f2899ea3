"""companion.vision: find the board in a camera frame, orient it and read the 100 cells."""

from companion.vision.pipeline import BoardReader, analyze_image
from companion.vision.reading import BoardReading

__all__ = ["BoardReader", "BoardReading", "analyze_image"]
