"""The calibration file: a fixed camera's board geometry, orientation and colours.

JSON (version 1)::

    {"version": 1,
     "image_size": [1920, 1080],          # frames this calibration was measured on
     "corners": [[x, y], ...4],           # A1, J1, J10, A10 outer grid corners, image pixels
     "orientation": 90,                   # clockwise rotation of the layout on screen
     "reference": {"B": 10x10, "G": 10x10, "R": 10x10},  # chip-colour fractions the empty
                                          # board's own art shows per canonical cell (or null)
     "profile": {"chips": {"B": [lo, hi], ...}, "skin": [lo, hi], ...},  # OpenCV hue bands
     "source": "empty.jpg",
     "unreferenced": ["B1", "E5"],        # cells that held a chip or were unreadable when
                                          # calibrating: read as without a calibration
     "lens": -0.12,                       # optional: the camera lens bending the grid between
                                          # its corners (companion.vision.lens division model,
                                          # frame half-diagonal units); absent or 0: none
     "placed": true}                      # optional: the corners were given by the user
                                          # (``calibrate --corners``): the board is read there
                                          # however faint its lines; absent: false
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from companion.vision.colour import CHIP_SYMBOLS, ColourProfile
from companion.vision.geometry import ORIENTATIONS

VERSION = 1
MAX_LENS = 0.5  # a stronger lens than this folds the frame: no real camera


class CalibrationError(ValueError):
    """A calibration file that is missing, unreadable or malformed; the message says why."""


@dataclass(slots=True)
class Calibration:
    corners: np.ndarray  # 4x2 canonical A1, J1, J10, A10
    orientation: int
    image_size: tuple[int, int] = (0, 0)
    reference: dict[str, np.ndarray] | None = None  # canonical 10x10 per chip symbol
    profile: ColourProfile = field(default_factory=ColourProfile)
    source: str = ""
    unreferenced: list[str] = field(default_factory=list)  # cells without an empty reference
    lens: float = 0.0  # the lens bending the grid between its corners (vision.lens), 0: none
    placed: bool = False  # the corners were given by the user (``calibrate --corners``)

    def to_json(self) -> dict:
        data = {
            "version": VERSION,
            "image_size": list(self.image_size),
            "corners": [[round(float(x), 3), round(float(y), 3)] for x, y in self.corners],
            "orientation": self.orientation,
            "reference": (
                {k: np.round(np.asarray(v, float), 4).tolist() for k, v in self.reference.items()}
                if self.reference is not None
                else None
            ),
            "profile": self.profile.to_json(),
            "source": self.source,
            "unreferenced": list(self.unreferenced),
            "lens": round(float(self.lens), 5),
        }
        if self.placed:
            data["placed"] = True
        return data

    @classmethod
    def from_json(cls, data: dict) -> Calibration:
        if not isinstance(data, dict):
            raise CalibrationError("a calibration must be a JSON object")
        if data.get("version") != VERSION:
            raise CalibrationError(f"unsupported calibration version {data.get('version')!r}")
        try:
            corners = np.array(data["corners"], dtype=np.float64)
            if corners.shape != (4, 2) or not np.all(np.isfinite(corners)):
                raise CalibrationError("'corners' must be 4 [x, y] points (A1, J1, J10, A10)")
            orientation = int(data["orientation"])
            if orientation not in ORIENTATIONS:
                raise CalibrationError(f"'orientation' must be one of {ORIENTATIONS}")
            lens = float(data.get("lens") or 0.0)
            if not (np.isfinite(lens) and abs(lens) <= MAX_LENS):
                raise CalibrationError(
                    f"'lens' must be a number between -{MAX_LENS} and {MAX_LENS}"
                )
            reference = None
            if data.get("reference") is not None:
                reference = {}
                for sym in CHIP_SYMBOLS:
                    arr = np.array(data["reference"][sym], dtype=np.float32)
                    if arr.shape != (10, 10):
                        raise CalibrationError(f"'reference.{sym}' must be 10x10 numbers")
                    reference[sym] = arr
            return cls(
                corners=corners,
                orientation=orientation,
                image_size=tuple(int(v) for v in data.get("image_size", (0, 0))),
                reference=reference,
                profile=ColourProfile.from_json(data["profile"])
                if data.get("profile")
                else ColourProfile(),
                source=str(data.get("source", "")),
                unreferenced=[str(c) for c in data.get("unreferenced") or []],
                lens=lens,
                placed=bool(data.get("placed", False)),
            )
        except CalibrationError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise CalibrationError(f"malformed calibration: {exc!r}") from exc


def load(path: str | Path) -> Calibration:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CalibrationError(f"no such calibration file: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CalibrationError(f"cannot read calibration file {path}: {exc}") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CalibrationError(f"{path} is not JSON: {exc}") from exc
    try:
        return Calibration.from_json(data)
    except CalibrationError as exc:
        raise CalibrationError(f"{path}: {exc}") from exc


def save(calibration: Calibration, path: str | Path) -> Path:
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_suffix(p.suffix + ".tmp")
    data = calibration.to_json()
    body = ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in data.items())
    tmp.write_text("{\n" + body + "\n}\n", encoding="utf-8")
    tmp.replace(p)
    return p
