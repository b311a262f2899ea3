"""``companion bench render``: frame cost of the renderer.

Two figures per frame size, on one core:
- ``video_ms``: a frame of an already-built scene (fixed camera) with new chips, a moving hand and
  fresh noise, as the live-game replays render them (target <= 40 ms at 640x480, <= 100 ms at
  1280x720);
- ``fresh_ms``: a random frame from scratch (new camera, table, art resolution, light).

``--realism`` gives every camera a lens distortion, a folded board and mat wrinkles (the
per-pixel surface and lens maps), to price them against the flat, distortion-free default.

``*_ms`` are wall-clock; ``*_cpu_ms`` count this process's CPU time only, which stays honest
when other jobs share the machine.
"""

from __future__ import annotations

import argparse
import json
import time

import cv2
import numpy as np


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--frames", type=int, default=40, help="video frames per size (default 40)")
    parser.add_argument("--fresh", type=int, default=8, help="fresh random frames per size")
    parser.add_argument("--sizes", default="640x480,1280x720,1920x1080")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--realism", action="store_true", help="lens, fold and wrinkles on every camera"
    )


def measure(
    size: tuple[int, int], frames: int, fresh: int, seed: int, realism: bool = False
) -> dict:
    from companion.render import random_cells, random_spec, render_frame
    from companion.render.spec import HandSpec

    rng = np.random.default_rng(seed)
    bends = dict(lens=True, fold=True, waves=True) if realism else {}
    # a typical webcam: cards art, noise, slight blur and a JPEG round trip in every frame
    spec = random_spec(
        rng,
        size=size,
        hand=False,
        camera_seed=seed + 1,
        art="cards",
        jpeg=85,
        noise=3.0,
        blur=0.6,
        **bends,
    )
    render_frame(spec)  # build the scene once
    times, cpu_times = [], []
    for i in range(frames):
        t = i / max(1, frames - 1)
        hand = HandSpec(tip=(11 - 7 * np.sin(np.pi * t), 4.0 + 2 * t), angle_deg=10.0)
        frame_spec = spec.with_frame(
            cells=random_cells(rng, chips=int(10 + 60 * t)), hands=(hand,) if i % 2 else (), seed=i
        )
        start, cpu = time.perf_counter(), time.process_time()
        render_frame(frame_spec)
        times.append((time.perf_counter() - start) * 1000)
        cpu_times.append((time.process_time() - cpu) * 1000)
    fresh_times, fresh_cpu = [], []
    for _ in range(fresh):
        fresh_spec = random_spec(rng, size=size, **bends)
        start, cpu = time.perf_counter(), time.process_time()
        render_frame(fresh_spec)
        fresh_times.append((time.perf_counter() - start) * 1000)
        fresh_cpu.append((time.process_time() - cpu) * 1000)
    return {
        "size": f"{size[0]}x{size[1]}",
        "video_ms_median": round(float(np.median(times)), 1),
        "video_ms_p90": round(float(np.percentile(times, 90)), 1),
        "video_cpu_ms_median": round(float(np.median(cpu_times)), 1),
        "video_cpu_ms_p90": round(float(np.percentile(cpu_times, 90)), 1),
        "fresh_ms_median": round(float(np.median(fresh_times)), 1) if fresh_times else None,
        "fresh_cpu_ms_median": round(float(np.median(fresh_cpu)), 1) if fresh_cpu else None,
    }


def run(args: argparse.Namespace) -> int:
    cv2.setNumThreads(1)  # one core, as the targets say
    sizes = [tuple(int(v) for v in s.split("x")) for s in args.sizes.split(",") if s]
    results = [measure(size, args.frames, args.fresh, args.seed, args.realism) for size in sizes]
    report = {"area": "render", "threads": 1, "realism": args.realism, "results": results}
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    add_arguments(parser)
    raise SystemExit(run(parser.parse_args()))
