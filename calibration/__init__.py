"""companion.calibration: calibration files (corners, orientation, empty-board reference, chip
colours) for a fixed camera. Profiles live in ``calibration/profiles/*.json``."""

from companion.calibration.model import Calibration, CalibrationError, load, save

__all__ = ["Calibration", "CalibrationError", "load", "save"]
