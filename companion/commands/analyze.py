"""``companion analyze [--calibration FILE] [--json] IMAGE...``: read the board in each image.

With ``--json`` one JSON object per image, one line each, in the order given::

    {"image": "<path as given>", "board_found": true, "orientation": 90,
     "cells": ["*........*", ...10 strings], "confidence": [[...10 floats...], ...10 rows]}

``cells`` and ``confidence`` are null when no board was found. An image that cannot be read
gets ``{"image": ..., "error": "..."}`` and the remaining images are still processed.

Exit codes: 0 every image was read (a board found or not); 1 at least one image could not be
read or analysed; 2 bad arguments or an unusable calibration file.
"""

from __future__ import annotations

import argparse
import json
import sys

from companion.cells import COLUMNS
from companion.vision.causes import describe
from companion.vision.imageio import ImageReadError, read_image

EXIT_OK, EXIT_UNREADABLE, EXIT_USAGE = 0, 1, 2


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "analyze",
        help="read the board and its chips from camera frames",
        description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("images", nargs="+", metavar="IMAGE", help="image files (jpg, png, ...)")
    p.add_argument("--json", action="store_true", help="one JSON object per image and line")
    p.add_argument(
        "--calibration", metavar="FILE", help="calibration file from `companion calibrate`"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from companion.calibration import CalibrationError, load
    from companion.vision import BoardReader

    calibration = None
    if args.calibration:
        try:
            calibration = load(args.calibration)
        except CalibrationError as exc:
            print(f"companion analyze: {exc}", file=sys.stderr)
            return EXIT_USAGE
    code = EXIT_OK
    for path in args.images:
        try:
            bgr = read_image(path)
            reading = BoardReader(calibration).read(bgr)
        except (ImageReadError, ValueError) as exc:
            code = EXIT_UNREADABLE
            if args.json:
                print(json.dumps({"image": path, "error": str(exc)}), flush=True)
            else:
                print(f"{path}: error: {exc}\n", flush=True)
            continue
        if args.json:
            print(json.dumps(reading.to_json(image=path)), flush=True)
        else:
            print(format_reading(path, reading), flush=True)
    return code


def format_reading(path: str, reading) -> str:
    """A readable board: column letters, row numbers, ``?`` for unknown cells."""
    if not reading.board_found:
        why = f" ({'; '.join(reading.notes)})" if reading.notes else ""
        return f"{path}: no board found{why}\n"
    low = float(reading.confidence.min()) if reading.confidence is not None else 0.0
    unknown = sum(row.count("?") for row in reading.cells)
    lines = [
        f"{path}: board found, orientation {reading.orientation}, "
        f"{unknown} unknown cell(s), lowest confidence {low:.2f}, {reading.elapsed_ms:.0f} ms",
        "     " + " ".join(COLUMNS),
    ]
    for i, row in enumerate(reading.cells):
        lines.append(f"  {i + 1:>2} " + " ".join(row))
    for name, codes in reading.unknown_reasons.items():
        lines.append(f"  {name}: ? {describe(codes)}")
    return "\n".join(lines) + "\n"
