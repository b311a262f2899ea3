"""A chip pushed off its cell's centre is still that cell's chip.

Players place chips sloppily, and a board that does not lie flat (a wrinkled or warped board)
moves its cards and chips away from a grid that is right on average. A chip a third of a cell
off keeps too little of its colour inside its cell's eroded middle to read as a chip, and spills
the rest over the cell's border: the reading tells neither a chip nor an empty card and leaves
the cell unknown (``undecided``). A neighbour's chip spilling over the line looks much the same
from inside the cell; where the chip's *centre* lies tells them apart. The chip-sized discs of
the grid image's eroded mask of each chip colour give each chip's centre: a cell left unknown
for that doubt alone, whose colour is one chip's blue or green, reads that chip when the centre
of a chip-sized disc of that colour lies inside it.

Blue and green only: printing is never blue or green, while a big red pip can be as broad as a
chip's disc. Measured before choosing, on the stored readings of 62 seen sets (8,748 in-range
frames): of the cells unknown for this doubt alone with blue or green over >= 0.15 of them and on
their border, 14 held that chip and 8 were empty cards beside an off-centre chip (4 hidden).
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.causes import held_only_by

OFF_CENTRE_DOUBT = frozenset({"undecided"})
OFF_CENTRE_COLOUR = 0.15  # of the cell in the chip's colour (before the erosion) at least ...
OFF_CENTRE_OTHER = 0.05  # ... and in the other of blue and green at most
OFF_CENTRE_CONF = 0.6  # what such a reading claims: less than a chip seen in its cell's middle
# a chip's eroded disc covers this share of a cell (a small board's chips keep 0.13 and more
# through the erosion; a card's blue picture keeps less), and spans at most a cell each way
DISC_AREA = (0.1, 0.9)
DISC_SPAN = 1.1


def disc_centres(mask: np.ndarray) -> np.ndarray:
    """The cells (10x10 bool) holding the centre of a chip-sized blob of an eroded colour
    mask (uint8 0/255, a grid image of 10x10 cells)."""
    h, w = mask.shape[0] / 10.0, mask.shape[1] / 10.0
    _, _, stats, centres = cv2.connectedComponentsWithStats(mask)
    area = stats[1:, cv2.CC_STAT_AREA]
    disc = (
        (DISC_AREA[0] * w * h <= area)
        & (area <= DISC_AREA[1] * w * h)
        & (stats[1:, cv2.CC_STAT_WIDTH] <= DISC_SPAN * w)
        & (stats[1:, cv2.CC_STAT_HEIGHT] <= DISC_SPAN * h)
    )
    out = np.zeros((10, 10), bool)
    rows = np.minimum((centres[1:, 1][disc] / h).astype(int), 9)
    cols = np.minimum((centres[1:, 0][disc] / w).astype(int), 9)
    out[rows, cols] = True
    return out


def off_centre_chips(
    symbols: np.ndarray,
    why: dict[str, np.ndarray],
    raw: dict[str, np.ndarray],
    eroded: dict[str, np.ndarray],
) -> np.ndarray:
    """Per cell (10x10 str, screen order): ``"B"`` or ``"G"`` where an unknown cell held only by
    ``OFF_CENTRE_DOUBT`` (``why``: the reading's cause masks) shows that colour (``raw``: each
    chip colour's share of the cell before the erosion) and the centre of a chip-sized disc of
    it (``eroded``: each colour's eroded mask of the grid image) lies inside it; ``""``
    elsewhere."""
    out = np.full((10, 10), "", dtype="<U1")
    unknown = np.asarray(symbols) == "?"
    shows = {
        colour: unknown & (raw[colour] >= OFF_CENTRE_COLOUR) & (raw[other] < OFF_CENTRE_OTHER)
        for colour, other in (("B", "G"), ("G", "B"))
    }
    if not (shows["B"] | shows["G"]).any():
        return out  # (the causes are asked about only for such cells: most frames have none)
    doubted = held_only_by(why, OFF_CENTRE_DOUBT)
    for colour, cells in shows.items():
        cells = cells & doubted
        if cells.any():
            out[cells & disc_centres(eroded[colour])] = colour
    return out
