"""``companion eval DIR``: measure the vision pipeline on frames with ground truth.

Reads every image in DIR that has a truth sidecar ``NAME.json`` (written by
``companion render``), analyses it from scratch and prints per-cell error, abstention rate,
full-board exact rate, orientation accuracy, boards found, false boards on board-free frames,
confident-wrong rate on cells under hands and milliseconds per frame, overall, per board art
and per board size (the playing grid's share of the frame: under 10 %, 10-30 %, 30 % and more).

Exit codes: 0 measured; 1 no frame with a truth sidecar in DIR, or a sidecar is malformed;
2 bad arguments (DIR missing, unusable calibration file).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "eval",
        help="measure the vision pipeline on frames with ground truth",
        description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("dir", metavar="DIR", help="folder of images with NAME.json truth sidecars")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument("--calibration", metavar="FILE", help="calibration file to use for all frames")
    p.add_argument(
        "--limit", type=positive_int, metavar="N", help="only the first N frames (N >= 1)"
    )
    p.add_argument(
        "--failures", action="store_true", help="list the frames with any mistake and why"
    )
    p.set_defaults(func=run)


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1 (``--limit 0`` or ``-1`` is an error)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def run(args: argparse.Namespace) -> int:
    import cv2

    from companion.calibration import CalibrationError, load
    from companion.render.truth import TruthError, image_files
    from companion.render.truth import load as load_truth
    from companion.vision import analyze_image
    from companion.vision.evaluate import (
        SPEC_RANGE_LABEL,
        area_bucket,
        format_summary,
        in_spec_range,
        score_frame,
        summarize,
    )
    from companion.vision.imageio import ImageReadError, read_image

    folder = Path(args.dir)
    if not folder.is_dir():
        print(f"companion eval: not a folder: {args.dir}", file=sys.stderr)
        return 2
    calibration = None
    if args.calibration:
        try:
            calibration = load(args.calibration)
        except CalibrationError as exc:
            print(f"companion eval: {exc}", file=sys.stderr)
            return 2
    files = image_files(folder)
    if args.limit is not None:
        files = files[: args.limit]
    if not files:
        print(f"companion eval: no images with truth sidecars in {args.dir}", file=sys.stderr)
        return 1
    cv2.setNumThreads(1)
    scores = []
    for path in files:
        try:
            truth = load_truth(path)
            bgr = read_image(path)
        except (TruthError, ImageReadError) as exc:
            print(f"companion eval: {exc}", file=sys.stderr)
            return 1
        t0 = time.perf_counter()
        reading = analyze_image(bgr, calibration)
        ms = (time.perf_counter() - t0) * 1000
        scores.append(score_frame(path.name, reading, truth, ms))
    result = {"dir": str(folder), "overall": summarize(scores)}
    for art in sorted({s.art for s in scores if s.art}):
        result[f"art:{art}"] = summarize([s for s in scores if s.art in (art, None)])
    for bucket in sorted({area_bucket(s.area) for s in scores} - {None}):
        result[bucket] = summarize([s for s in scores if area_bucket(s.area) == bucket])
    in_range = [s for s in scores if in_spec_range(s.board_share)]
    if in_range:
        result[SPEC_RANGE_LABEL] = summarize(in_range)
    bad = [s for s in scores if _is_failure(s)]
    if args.json:
        if args.failures:
            result["failures"] = [_failure_json(s) for s in bad]
        print(json.dumps(result))
        return 0
    print(format_summary(result["overall"], f"{args.dir}: all frames"))
    for key, summary in result.items():
        if key.startswith("art:"):
            print()
            print(format_summary(summary, f"board art {key[4:]} (and board-free frames)"))
        elif key.startswith("grid ") or key == SPEC_RANGE_LABEL:
            print()
            print(format_summary(summary, f"frames where the {key} (board frames only)"))
    if args.failures:
        print("\nframes with mistakes:")
        for s in bad:
            print("  " + json.dumps(_failure_json(s)))
    return 0


def _is_failure(s) -> bool:
    return (
        (s.has_board != s.found)
        or (s.found and s.orientation_ok is False)
        or bool(s.wrong_cells)
        or s.visible_unknown > 0
    )


def _failure_json(s) -> dict:
    return {
        "frame": s.name,
        "has_board": s.has_board,
        "found": s.found,
        "orientation_ok": s.orientation_ok,
        "wrong": s.wrong_cells[:12],
        "unknown_visible": s.visible_unknown,
        "unknown": s.unknown_causes,
        "corner_px": None if s.corner_px is None else round(s.corner_px, 1),
    }
