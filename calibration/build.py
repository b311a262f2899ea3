"""Measure a calibration from one picture of the board (best: the empty board, fixed camera)."""

from __future__ import annotations

import cv2
import numpy as np
from companion.calibration.model import Calibration, CalibrationError

from companion.vision import chips
from companion.vision.colour import CHIP_SYMBOLS, ColourProfile, HueBand
from companion.vision.geometry import screen_quad, to_canonical_grid
from companion.vision.pipeline import BoardReader, warp_grid
from companion.vision.reading import CORNER

COLUMNS = "ABCDEFGHIJ"
MAX_UNKNOWN = 20  # more unreadable cells than this: the calibration picture is refused


def calibrate_image(
    bgr: np.ndarray,
    orientation: int | None = None,
    source: str = "",
    corners: np.ndarray | None = None,
) -> Calibration:
    """Locate and orient the board, then store its corners, the empty cells' own colour
    response (so printed red ink is never taken for a red chip) and the chips' hues.

    ``orientation`` overrides the ink-pattern vote (for boards without red/black suits).
    ``corners`` (4 screen points in any order: the outer corners of the 10x10 cells, as the
    user marked them) replaces locating the board, for a board the locator does not find; they
    are moved onto the grid lines found within about a third of a cell of them
    (``BoardReader.place``), and the calibration is marked ``placed``.
    The board may hold chips (calibrating mid-game): cells holding a chip or unreadable get no
    empty-board reference (listed in ``unreferenced``) and are read as without a calibration.
    Raises :class:`CalibrationError` when no board is found or more than ``MAX_UNKNOWN`` cells
    cannot be read (the message names them).
    """
    reader = BoardReader()
    if orientation is not None:
        reader.hold_orientation(orientation)  # the given orientation wins over the ink vote
    if corners is not None:
        reader.place(corners, bgr)
    reading = reader.read(bgr)
    if not reading.board_found or reader.quad is None:
        why = "; ".join(reading.notes) or "no 10x10 grid found"
        if corners is not None:
            raise CalibrationError(
                f"no board read at the given corners ({why}): give the outer corners of the "
                "10x10 cards, and the orientation if the board prints no red and black suits"
            )
        raise CalibrationError(
            f"no board found in the calibration image ({why}); if the board is in view, give "
            "its corners (companion calibrate --corners, or tap them on the page's calibration "
            "step)"
        )
    symbols = np.array([list(r) for r in reading.cells])
    unknown = [cell_name(r, c) for r, c in np.argwhere(symbols == "?")]
    if len(unknown) > MAX_UNKNOWN:
        raise CalibrationError(
            f"{len(unknown)} cells cannot be read in the calibration image (a hand, an arm, "
            f"a card lying on the board or glare?): {' '.join(unknown)}; take the picture "
            "again with the board in clear view"
        )
    quad = screen_quad(reading.corners, reading.orientation)
    grid = warp_grid(bgr, quad, lens=reader.lens)
    feats = chips.measure(grid, reader.profile)
    k = reading.orientation // 90
    # only the cells read confidently empty show the art's own response; a chip or an unsure
    # cell (perhaps a chip under a hand) would hide that cell's chips from every later frame
    referenced = symbols == "."
    reference = {}
    for sym in CHIP_SYMBOLS:
        canon = to_canonical_grid(feats.chip[sym], reading.orientation).astype(np.float32)
        reference[sym] = np.where(referenced, canon, 0.0).astype(np.float32)
    unreferenced = [cell_name(r, c) for r, c in np.argwhere(~referenced & (symbols != CORNER))]
    profile = measure_chip_hues(grid, np.rot90(symbols, -k), reader.profile)
    h, w = bgr.shape[:2]
    return Calibration(
        corners=np.asarray(reading.corners, np.float64),
        orientation=int(reading.orientation),
        image_size=(w, h),
        reference=reference,
        profile=profile,
        source=source,
        unreferenced=unreferenced,
        lens=float(reader.lens),
        placed=corners is not None,
    )


def cell_name(row: int, col: int) -> str:
    """Canonical cell name: column letter then row number (row 0, column 1 -> "B1")."""
    return f"{COLUMNS[col]}{row + 1}"


def measure_chip_hues(
    grid_bgr: np.ndarray, screen_symbols: np.ndarray, base: ColourProfile
) -> ColourProfile:
    """Narrow each chip colour's hue band around the chips seen (at least 3 of a colour)."""
    img = chips.normalise(grid_bgr).img  # the same light-flattened image the reading classifies
    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
    shape = chips.shape_of(grid_bgr)
    cw, ch = shape.w, shape.h
    iy, ix = chips._border(ch), chips._border(cw)
    bands = dict(base.chips)
    for sym in CHIP_SYMBOLS:
        cells = np.argwhere(screen_symbols == sym)
        if len(cells) < 3:
            continue
        hues = []
        for r, col in cells:
            patch = hsv[r * ch + iy : (r + 1) * ch - iy, col * cw + ix : (col + 1) * cw - ix]
            patch = patch.reshape(-1, 3)
            m = bands[sym].mask(patch[:, 0]) & (patch[:, 1] >= base.min_saturation)
            hues.append(patch[m, 0].astype(np.int32))
        h = np.concatenate(hues)
        if len(h) < 50:
            continue
        shifted = (h + 90) % 180 if sym == "R" else h  # keep red's wrap-around contiguous
        lo, hi, mid = np.percentile(shifted, [2, 98, 50])
        # pad, and keep at least +-12 around the median so a change of light is tolerated
        lo, hi = int(min(lo - 6, mid - 12)), int(max(hi + 6, mid + 12))
        if sym == "R":
            lo, hi = (lo - 90) % 180, (hi - 90) % 180
        else:
            lo, hi = max(0, lo), min(179, hi)
        bands[sym] = HueBand(lo, hi)
    return ColourProfile(
        chips=bands, skin=base.skin, min_saturation=base.min_saturation, min_value=base.min_value
    )
