"""Ground truth of a rendered frame and its JSON sidecar (``NAME.jpg`` -> ``NAME.json``).

Sidecar format (version 1)::

    {"version": 1, "board_found": true, "orientation": 90,
     "cells": ["*.B......*", ...10 strings],           # canonical, as the spec placed them
     "corners": [[x, y], ...4],                        # A1, J1, J10, A10 outer grid corners
     "occluded": ["..........", "...##.....", ...],    # '#' = cell hidden (see below)
     "covered": [[0.0, 0.12, ...], ...10 rows],        # share of each cell hidden, 0..1
     "chips": {"C1": [305.2, 96.8], ...},              # each chip's top-face centre (pixels)
     "size": [640, 480], "art": "cards", "spec": {...}, # spec: to render the frame again
     "board_share": 0.41,                              # frame share the board covers (margin in)
     "lattice": [[[x, y], ...21], ...21]}              # only for a bent board or a lens


With ``board_found`` false, ``orientation``, ``cells``, ``corners``, ``occluded``,
``covered`` and ``board_share`` are null (``board_share`` is also null in older sidecars). A cell is *hidden* where a hand or arm, a held chip, a loose card lying on
the board, or a glare spot adding more than 140 grey levels lies over it; it is ``occluded``
when at least 8 % of it is hidden (``cells`` still gives the chip underneath).
The corners are the outer corners of the 10x10 playing grid (not of the board's margin): the
grid is uniform in the board plane, so cell (row, col) is the quad between grid lines
``col..col+1`` and ``row..row+1`` mapped through ``Truth.homography()``. When the board is not
flat (a fold, wrinkles) or the lens distorts, no homography is exact: ``lattice`` then gives the
image points of grid point ``(x, y) = (j / 2, i / 2)`` at ``lattice[i][j]`` (grid lines and cell
centres), ``cell_centers()`` reads them, and ``homography()`` is the corners' approximation.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.cells import SIZE

VERSION = 1
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")


class TruthError(ValueError):
    """A truth sidecar that is missing or malformed; the message names the file."""


@dataclass(slots=True)
class Truth:
    board_found: bool
    orientation: int | None = None
    cells: list[str] | None = None
    corners: np.ndarray | None = None  # 4x2 float image points: A1, J1, J10, A10
    occluded: np.ndarray | None = None  # 10x10 bool
    covered: np.ndarray | None = None  # 10x10 float: share of the cell hidden (0..1)
    chips: dict[str, tuple[float, float]] | None = None  # cell name -> chip centre in the image
    size: tuple[int, int] = (0, 0)
    art: str | None = None
    spec: dict | None = field(default=None, repr=False)
    lattice: np.ndarray | None = field(default=None, repr=False)  # 21x21x2, see module doc
    board_share: float | None = None  # share of the frame the whole board covers, margin included

    def homography(self) -> np.ndarray:
        """3x3 map from grid units (x = column 0..10, y = row 0..10) to image pixels."""
        if self.corners is None:
            raise TruthError("no board in this frame, so no grid homography")
        grid = np.float32([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]])
        return cv2.getPerspectiveTransform(grid, np.float32(self.corners))

    def cell_centers(self) -> np.ndarray:
        """10x10x2 image points of the cell centres (canonical row, col)."""
        if self.lattice is not None:
            return np.asarray(self.lattice[1::2, 1::2], dtype=np.float64)
        ys, xs = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32) + 0.5
        pts = np.stack([xs, ys], axis=-1).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography()).reshape(SIZE, SIZE, 2)

    def to_json(self) -> dict:
        found = self.board_found
        return {
            "version": VERSION,
            "board_found": found,
            "orientation": self.orientation if found else None,
            "cells": list(self.cells) if found and self.cells is not None else None,
            "corners": (
                [[round(float(x), 3), round(float(y), 3)] for x, y in self.corners]
                if found and self.corners is not None
                else None
            ),
            "occluded": (
                ["".join("#" if v else "." for v in row) for row in self.occluded]
                if found and self.occluded is not None
                else None
            ),
            "covered": (
                [[round(float(v), 2) for v in row] for row in self.covered]
                if found and self.covered is not None
                else None
            ),
            "chips": (
                {k: [float(x), float(y)] for k, (x, y) in self.chips.items()}
                if found and self.chips is not None
                else None
            ),
            "size": list(self.size),
            "board_share": (
                round(float(self.board_share), 4)
                if found and self.board_share is not None
                else None
            ),
            "art": self.art,
            "spec": self.spec,
            **(
                {"lattice": np.round(np.asarray(self.lattice), 2).tolist()}
                if found and self.lattice is not None
                else {}
            ),
        }

    @classmethod
    def from_json(cls, data: dict) -> Truth:
        try:
            found = bool(data["board_found"])
            corners = data.get("corners")
            occluded = data.get("occluded")
            covered = data.get("covered")
            truth = cls(
                board_found=found,
                orientation=data.get("orientation"),
                cells=list(data["cells"]) if data.get("cells") is not None else None,
                corners=np.array(corners, dtype=np.float64) if corners is not None else None,
                occluded=(
                    np.array([[ch == "#" for ch in row] for row in occluded], dtype=bool)
                    if occluded is not None
                    else None
                ),
                covered=np.array(covered, dtype=np.float64) if covered is not None else None,
                chips=(
                    {k: (float(v[0]), float(v[1])) for k, v in data["chips"].items()}
                    if data.get("chips") is not None
                    else None
                ),
                size=tuple(data.get("size", (0, 0))),
                board_share=(
                    float(data["board_share"]) if data.get("board_share") is not None else None
                ),
                art=data.get("art"),
                spec=data.get("spec"),
                lattice=(
                    np.array(data["lattice"], dtype=np.float64)
                    if data.get("lattice") is not None
                    else None
                ),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise TruthError(f"malformed truth: {exc}") from exc
        if found:
            if truth.cells is None or len(truth.cells) != SIZE:
                raise TruthError("a truth with a board needs 10 cell strings")
            if truth.corners is None or truth.corners.shape != (4, 2):
                raise TruthError("a truth with a board needs 4 corners [x, y]")
            if truth.occluded is None:
                truth.occluded = np.zeros((SIZE, SIZE), dtype=bool)
            if truth.occluded.shape != (SIZE, SIZE):
                raise TruthError("occluded must be 10 strings of 10 '.'/'#'")
            if truth.lattice is not None and truth.lattice.shape != (2 * SIZE + 1, 2 * SIZE + 1, 2):
                raise TruthError("lattice must be 21 rows of 21 points [x, y]")
        return truth


def annotate(image: np.ndarray, truth: Truth) -> np.ndarray:
    """A copy of ``image`` with the truth drawn on it: the grid (A1 corner ringed, row 1 in
    yellow), hidden cells crossed out in magenta and each chip's centre dotted."""
    out = image.copy()
    if not truth.board_found or truth.corners is None:
        cv2.putText(out, "no board", (10, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 255), 2)
        return out
    h = truth.homography()
    lattice = truth.lattice

    def pt(x: float, y: float) -> tuple[int, int]:
        """Image point of grid point (x, y), given in half cells when there is a lattice."""
        if lattice is not None:
            p = lattice[round(2 * y), round(2 * x)]
        else:
            p = cv2.perspectiveTransform(np.array([[[x, y]]], np.float64), h)[0, 0]
        return int(round(p[0])), int(round(p[1]))

    def line(a, b, color) -> None:  # through the lattice's half-cell points when it has one
        steps = 2 * SIZE if lattice is not None else 1
        pts = [
            pt(a[0] + k * (b[0] - a[0]) / steps, a[1] + k * (b[1] - a[1]) / steps)
            for k in range(steps + 1)
        ]
        cv2.polylines(out, [np.array(pts, np.int32)], False, color, 1, cv2.LINE_AA)

    for i in range(SIZE + 1):
        color = (0, 230, 255) if i == 0 else (255, 200, 0)
        line((0, i), (SIZE, i), color)
        line((i, 0), (i, SIZE), (255, 200, 0))
    cv2.circle(out, pt(0, 0), 8, (0, 230, 255), 2, cv2.LINE_AA)
    if truth.occluded is not None:
        for r, c in zip(*np.nonzero(truth.occluded), strict=True):
            cv2.line(out, pt(c, r), pt(c + 1, r + 1), (255, 0, 255), 1, cv2.LINE_AA)
            cv2.line(out, pt(c + 1, r), pt(c, r + 1), (255, 0, 255), 1, cv2.LINE_AA)
    for x, y in (truth.chips or {}).values():
        cv2.circle(out, (int(round(x)), int(round(y))), 2, (255, 255, 255), -1)
    return out


def sidecar_path(path: str | Path) -> Path:
    """``frames/x.jpg`` -> ``frames/x.json`` (a ``.json`` path is returned unchanged)."""
    path = Path(path)
    return path if path.suffix.lower() == ".json" else path.with_suffix(".json")


def save(truth: Truth, path: str | Path) -> Path:
    """Write the sidecar of an image (or to an explicit ``.json`` path); returns the path."""
    out = sidecar_path(path)
    out.write_text(json.dumps(truth.to_json(), separators=(",", ":")) + "\n", encoding="utf-8")
    return out


def load(path: str | Path) -> Truth:
    """Read the sidecar of an image path (or a ``.json`` path). Raises ``TruthError``."""
    src = sidecar_path(path)
    try:
        data = json.loads(src.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise TruthError(f"{src}: no truth sidecar") from exc
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise TruthError(f"{src}: unreadable truth sidecar ({exc})") from exc
    if not isinstance(data, dict):
        raise TruthError(f"{src}: a truth sidecar is a JSON object")
    try:
        return Truth.from_json(data)
    except TruthError as exc:
        raise TruthError(f"{src}: {exc}") from exc


def image_files(directory: str | Path) -> list[Path]:
    """Images in a folder that have a truth sidecar, sorted by name."""
    folder = Path(directory)
    return sorted(
        p
        for p in folder.iterdir()
        if p.suffix.lower() in IMAGE_SUFFIXES and sidecar_path(p).exists()
    )
