"""``companion calibrate IMAGE --out calibration/NAME.json``: measure a fixed camera's board.

Stores the grid corners (A1, J1, J10, A10), the orientation, the empty board's own colour
response per cell and the chips' hues. Take the picture with the camera where it will stay,
ideally of the empty board. Chips on it are fine (calibrating mid-game): the cells holding a chip
or unreadable get no empty-board reference, are listed in the output and in the file
("unreferenced"), and are read as without a calibration. A picture with more than 20 unreadable
cells (a hand over the board) is refused with the cells named.

Exit codes: 0 saved; 1 the image cannot be read, shows no board or too many unreadable cells; 2 bad arguments or the
output file cannot be written.
"""

from __future__ import annotations

import argparse
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
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from companion.calibration import CalibrationError, save
    from companion.calibration.build import calibrate_image
    from companion.vision.imageio import ImageReadError, read_image

    try:
        bgr = read_image(args.image)
        cal = calibrate_image(bgr, orientation=args.orientation, source=args.image)
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
        f"saved {path}: orientation {cal.orientation}, corners "
        + " ".join(f"({x:.1f},{y:.1f})" for x, y in cal.corners)
        + f", image {w}x{h}"
    )
    if cal.unreferenced:
        print(
            f"{len(cal.unreferenced)} cell(s) held a chip or could not be read and have no "
            "empty-board reference: " + " ".join(cal.unreferenced)
        )
    return 0
