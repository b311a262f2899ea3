"""``companion bench vision``: reading speed against one BGR->Lab conversion, on one core.

In one run, on the same 1080p frame (rendered with a fixed seed): the milliseconds to convert
the frame once from BGR to Lab, to read its 100 cells with the board already located (the
``BoardReader`` fast path of a fixed camera), their ratio (target <= 0.5), and the milliseconds
to locate and orient the board from scratch (target < 100; wall time, and the process's CPU
time, which other work on a shared machine does not inflate; the conversion and the reading
are given as CPU time too, with their ratio). Medians over ``--repeat`` runs,
interleaved so that machine load affects all figures alike. Prints one JSON object.
``--fixed-cameras N`` adds a calibration check on N rendered fixed cameras.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--repeat", type=int, default=30, help="timed runs per figure (30)")
    parser.add_argument("--seed", type=int, default=2024, help="render seed of the frame")
    parser.add_argument("--art", choices=("text", "cards"), default="cards")
    parser.add_argument("--size", default="1920x1080", help="frame size WxH (1920x1080)")
    parser.add_argument("--image", help="bench on this image file instead of a rendered frame")
    parser.add_argument(
        "--fixed-cameras",
        type=int,
        default=0,
        metavar="N",
        help="also render N fixed cameras (an empty board, then 6 frames with chips each), "
        "calibrate on the empty board and compare reading with and without the calibration",
    )


def _cpu_timed(fn) -> tuple[float, float]:
    """(wall ms, this process's CPU ms): on a machine shared with other work, the CPU time is
    what one core spends on ``fn`` (one thread), the wall time adds the waits for a core."""
    t0, c0 = time.perf_counter(), time.process_time()
    fn()
    return (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000


def run(args: argparse.Namespace) -> int:
    import cv2

    from companion.vision import BoardReader, analyze_image

    cv2.setNumThreads(1)
    if args.repeat < 1:
        print("companion bench vision: --repeat must be at least 1", file=sys.stderr)
        return 2
    try:
        frame, source = _frame(args)
    except ValueError as exc:
        print(f"companion bench vision: {exc}", file=sys.stderr)
        return 2
    reader = BoardReader()
    first = reader.read(frame)
    if not first.board_found:
        print("companion bench vision: no board found in the bench frame", file=sys.stderr)
        return 1
    lab, read, locate, lab_cpu, read_cpu, locate_cpu = [], [], [], [], [], []
    readings = []
    for _ in range(args.repeat):
        wall, cpu = _cpu_timed(lambda: cv2.cvtColor(frame, cv2.COLOR_BGR2Lab))
        lab.append(wall)
        lab_cpu.append(cpu)
        wall, cpu = _cpu_timed(lambda: readings.append(reader.read(frame)))
        read.append(wall)
        read_cpu.append(cpu)
        wall, cpu = _cpu_timed(lambda: analyze_image(frame))
        locate.append(wall)
        locate_cpu.append(cpu)
    fast_path = not any(reading.notes for reading in readings)
    lab_ms, read_ms, locate_ms, cpu_ms, lab_cpu_ms, read_cpu_ms = (
        float(np.median(v)) for v in (lab, read, locate, locate_cpu, lab_cpu, read_cpu)
    )
    extra = {"fixed_cameras": fixed_camera_check(args.fixed_cameras, args.seed)}
    if not args.fixed_cameras:
        extra = {}
    print(
        json.dumps(
            {
                **extra,
                "frame": source,
                "size": [int(frame.shape[1]), int(frame.shape[0])],
                "threads": 1,
                "repeat": args.repeat,
                "bgr_to_lab_ms": round(lab_ms, 3),
                "read_located_ms": round(read_ms, 3),
                "read_to_lab_ratio": round(read_ms / lab_ms, 3),
                "read_target_ratio": 0.5,
                # the same as CPU time of this process: other work on a shared machine
                # inflates it far less than the wall time
                "bgr_to_lab_cpu_ms": round(lab_cpu_ms, 3),
                "read_located_cpu_ms": round(read_cpu_ms, 3),
                "read_to_lab_cpu_ratio": round(read_cpu_ms / lab_cpu_ms, 3),
                "locate_and_orient_ms": round(locate_ms, 2),
                "locate_and_orient_cpu_ms": round(cpu_ms, 2),
                "locate_target_ms": 100,
                "fast_path_every_run": fast_path,
                "cells_read": first.cells,
            }
        )
    )
    return 0


def _frame(args):
    if args.image:
        from companion.vision.imageio import read_image

        return read_image(args.image), args.image
    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        raise ValueError(f"--size must look like 1920x1080, not {args.size!r}") from None
    from companion.render import random_spec, render_frame

    spec = random_spec(
        np.random.default_rng(args.seed), art=args.art, hand=False, size=(w, h), tilt_deg=20.0
    )
    image, _ = render_frame(spec)
    return image, f"render seed {args.seed} art {args.art}"


EMPTY_CELLS = ("*........*",) + ("..........",) * 8 + ("*........*",)


def fixed_camera_check(cameras: int, seed: int, frames: int = 6) -> dict:
    """Per art: cell error, abstention and exact boards without and with a calibration taken
    from a picture of the empty board by the same (fixed) camera."""
    from companion.calibration import CalibrationError
    from companion.calibration.build import calibrate_image
    from companion.render import random_cells, random_spec, render_frame
    from companion.vision import BoardReader
    from companion.vision.evaluate import score_frame, summarize

    rng = np.random.default_rng(seed + 1)
    scores: dict[str, list] = {"without": [], "with": []}
    uncalibrated = 0
    for cam in range(cameras):
        art = ("text", "cards")[cam % 2]
        base = random_spec(rng, art=art, hand=False, board_fraction=float(rng.uniform(0.5, 0.9)))
        empty, _ = render_frame(base.with_frame(cells=EMPTY_CELLS, hands=(), seed=cam))
        try:
            cal = calibrate_image(empty)
        except CalibrationError:
            uncalibrated += 1
            cal = None
        for i in range(frames):
            cells = tuple(random_cells(rng))
            image, truth = render_frame(base.with_frame(cells=cells, hands=(), seed=1000 + i))
            for key, calibration in (("without", None), ("with", cal)):
                if key == "with" and calibration is None:
                    continue
                t0 = time.perf_counter()
                reading = BoardReader(calibration).read(image)
                ms = (time.perf_counter() - t0) * 1000
                scores[key].append(score_frame(f"cam{cam}/{i}", reading, truth, ms))
    keys = ("boards_found", "confident_cell_error", "abstention_rate", "full_board_exact")
    out = {"cameras": cameras, "frames_per_camera": frames, "not_calibrated": uncalibrated}
    for key, values in scores.items():
        summary = summarize(values)
        out[key] = {k: summary[k] for k in keys + ("ms_per_frame_median",)}
    return out
