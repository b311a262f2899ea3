"""What the vision pipeline says about one frame. No rules knowledge here."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

# Cell symbols, shared with ``companion analyze`` output.
CORNER = "*"
EMPTY = "."
BLUE = "B"
GREEN = "G"
RED = "R"
UNKNOWN = "?"
SYMBOLS = CORNER + EMPTY + BLUE + GREEN + RED + UNKNOWN
COLOR_OF_SYMBOL = {BLUE: "blue", GREEN: "green", RED: "red"}
SYMBOL_OF_COLOR = {v: k for k, v in COLOR_OF_SYMBOL.items()}
# the note of a reading that found no board because the frame has no colour (a greyscale
# image, a camera in its night mode): worth telling the table, unlike a locator's notes
NO_COLOUR = (
    "the frame is greyscale: without colour the chips and the board's red printing "
    "cannot be told apart"
)


@dataclass(slots=True)
class BoardReading:
    """One frame's reading of the board, in canonical orientation (row 1 first, column A first).

    - ``orientation``: clockwise rotation of the canonical layout as seen on screen: 0 when
      canonical row 1 runs along the top of the image, 90 along the right side, 180 bottom,
      270 left.
    - ``cells``: 10 strings of 10 symbols from ``*.BGR?``; ``None`` when no board was found.
    - ``confidence``: 10x10 float array in [0, 1]; ``None`` when no board was found.
    - ``corners``: 4x2 float array of image points of the board's playing-area corners in canonical
      order: outer corner of A1, of J1, of J10, of A10.
    - ``unknown_reasons``: for each cell read ``?`` (canonical name such as ``"D4"``), the
      causes found there, most telling first (``companion.vision.causes``: codes such as
      ``"boundaries_gone"``, ``"glare"``; ``causes.cause_text`` gives the words).
    - ``lens``: the camera lens the grid was located through (the one-parameter division model
      about the frame centre, ``companion.vision.lens``); 0.0 for a straight grid. The grid's
      lines between the corners are bent by it (``companion.vision.lens.grid_to_frame``).
    """

    board_found: bool
    orientation: int | None = None
    cells: list[str] | None = None
    confidence: np.ndarray | None = None
    corners: np.ndarray | None = None
    lens: float = 0.0
    unknown_reasons: dict[str, tuple[str, ...]] = field(default_factory=dict)
    elapsed_ms: float = 0.0
    notes: list[str] = field(default_factory=list)

    def symbol(self, row: int, col: int) -> str:
        if self.cells is None:
            return UNKNOWN
        return self.cells[row][col]

    def to_json(self, image: str | None = None) -> dict:
        out: dict = {}
        if image is not None:
            out["image"] = image
        out["board_found"] = self.board_found
        out["orientation"] = self.orientation if self.board_found else None
        out["cells"] = list(self.cells) if self.board_found and self.cells is not None else None
        out["confidence"] = (
            [[round(float(v), 3) for v in row] for row in self.confidence]
            if self.board_found and self.confidence is not None
            else None
        )
        return out
