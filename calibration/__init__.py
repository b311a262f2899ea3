"""companion.calibration: calibration code and profiles (top-level calibration/ folder)."""
