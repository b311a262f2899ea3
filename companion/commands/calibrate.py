"""``companion calibrate IMAGE --out calibration/NAME.json``: measure a fixed camera's board.

Stores the grid corners (A1, J1, J10, A10), the orientation, the empty board's own colour
response per cell and the chips' hues. Take the picture with the camera where it will stay,
ideally of the empty board. Chips on it are fine (calibrating mid-game): the cells holding a chip
or unreadable get no empty-board reference, are listed in the output and in the file
("unreferenced"), and are read as without a calibration. A picture with more than 20 unreadable
cells (a hand over the board) is refused with the cells named.

When the board is in view but not found (a busy tablecloth around it, an unusual board), give
its corners: --corners X1,Y1,X2,Y2,X3,Y3,X4,Y4, the outer corners of the 10x10 cards in image
pixels, in any order (read them off in any image viewer). They are moved onto the grid lines
found within about a third of a cell, and every frame is then read there.

Exit codes: 0 saved; 1 the image cannot be read, shows no board or too many unreadable cells; 2 bad arguments or the
output file cannot be written.
"""

from __future__ import annotations

import argparse
import math
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "calibrate",
        help="store a fixed camera's board geometry and colours",
        description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("image", metavar="IMAGE", help="a picture of the board from the fixed camera")
    p.add_argument("--out", required=True, metavar="FILE", help="calibration JSON to write")
    p.add_argument(
        "--orientation",
        type=int,
        choices=(0, 90, 180, 270),
        help="override the orientation (for boards without red/black suits)",
    )
    p.add_argument(
        "--corners",
        type=_corners,
        metavar="X1,Y1,...,X4,Y4",
        help="the outer corners of the 10x10 cards in image pixels, any order, for a board "
        "that is not found",
    )
    p.set_defaults(func=run)


def _corners(text: str) -> list[tuple[float, float]]:
    """``--corners``: 8 numbers, comma or space separated, as 4 (x, y) points."""
    try:
        values = [float(v) for v in text.replace(",", " ").split()]
    except ValueError:
        values = []
    if len(values) != 8 or not all(math.isfinite(v) for v in values):
        raise argparse.ArgumentTypeError(
            "--corners takes 8 numbers, x and y of 4 corners: X1,Y1,X2,Y2,X3,Y3,X4,Y4"
        )
    return [(values[i], values[i + 1]) for i in range(0, 8, 2)]


def run(args: argparse.Namespace) -> int:
    from companion.calibration import CalibrationError, save
    from companion.calibration.build import calibrate_image
    from companion.vision.imageio import ImageReadError, read_image

    try:
        bgr = read_image(args.image)
        cal = calibrate_image(
            bgr, orientation=args.orientation, source=args.image, corners=args.corners
        )
    except (ImageReadError, CalibrationError, ValueError) as exc:
        print(f"companion calibrate: {exc}", file=sys.stderr)
        return 1
    try:
        path = save(cal, args.out)
    except OSError as exc:
        print(
            f"companion calibrate: cannot write {args.out}: {exc.strerror or exc}", file=sys.stderr
        )
        return 2
    w, h = cal.image_size
    print(
        f"saved {path}: orientation {cal.orientation}, "
        + ("given corners " if cal.placed else "corners ")
        + " ".join(f"({x:.1f},{y:.1f})" for x, y in cal.corners)
        + f", image {w}x{h}"
    )
    if cal.unreferenced:
        print(
            f"{len(cal.unreferenced)} cell(s) held a chip or could not be read and have no "
            "empty-board reference: " + " ".join(cal.unreferenced)
        )
    return 0
