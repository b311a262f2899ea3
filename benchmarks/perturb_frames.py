"""Copy a folder of rendered frames with one camera defect the renderer does not draw, for a
robustness sweep with ``companion eval``: the truth sidecars are copied unchanged (every
defect keeps the frame's geometry).

    python benchmarks/perturb_frames.py SRC DST KIND [--limit N]

KIND: ``jpeg25`` (JPEG quality 25), ``dark`` (under-exposed, gamma 1.8 at 0.6 gain),
``greencast`` (fluorescent light left uncorrected: B x0.8, G x1.15, R x0.75), ``motion``
(a 9-pixel horizontal motion blur), ``noisy`` (sensor noise, Gaussian sigma 12 per channel).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

import cv2
import numpy as np


def _noisy(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    noise = rng.normal(0.0, 12.0, image.shape)
    return np.clip(image.astype(np.float32) + noise, 0, 255).astype(np.uint8)


KINDS = {
    "jpeg25": lambda im, rng: cv2.imdecode(
        cv2.imencode(".jpg", im, [cv2.IMWRITE_JPEG_QUALITY, 25])[1], cv2.IMREAD_COLOR
    ),
    "dark": lambda im, rng: np.clip(255 * (im / 255.0) ** 1.8 * 0.6, 0, 255).astype(np.uint8),
    "greencast": lambda im, rng: np.clip(
        im.astype(np.float32) * np.float32([0.8, 1.15, 0.75]), 0, 255
    ).astype(np.uint8),
    "motion": lambda im, rng: cv2.filter2D(im, -1, np.ones((1, 9), np.float32) / 9),
    "noisy": _noisy,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("src", type=Path)
    parser.add_argument("dst", type=Path)
    parser.add_argument("kind", choices=sorted(KINDS))
    parser.add_argument("--limit", type=int, default=0, help="first N frames only")
    args = parser.parse_args(argv)
    frames = sorted(p for p in args.src.glob("*.jpg") if p.with_suffix(".json").exists())
    if args.limit:
        frames = frames[: args.limit]
    if not frames:
        print(f"no rendered frames (JPEG + JSON sidecar) in {args.src}", file=sys.stderr)
        return 2
    args.dst.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(1)
    for path in frames:
        image = cv2.imread(str(path))
        cv2.imwrite(str(args.dst / f"{path.stem}.png"), KINDS[args.kind](image, rng))
        shutil.copy(path.with_suffix(".json"), args.dst / f"{path.stem}.json")
    print(f"{len(frames)} frames -> {args.dst}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
