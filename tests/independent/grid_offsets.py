#!/usr/bin/env python
"""How far the located grid lies off the board's own, per frame of render_foreign.py.

python tests/independent/grid_offsets.py DIR [--worst N]

Reads every DIR/*.jpg from scratch (a fresh ``BoardReader`` per frame, as ``companion analyze``
does) and compares the grid it located with the truth's ``grid`` (the playing area's outer
lattice on screen, written by render_foreign.py since 2ce00f5; older truth files lack it and
are skipped). The offset of a frame is the largest distance over the grid's 121 lattice
points, in cells of the truth grid, under the best of the 8 ways to pair the corners. A grid
with a lens fitted is compared by its corners and the homography between them (the renderer
draws no lens). Not part of the package and not run by the test suite.
"""

import argparse
import glob
import json
import os
from multiprocessing import Pool

import cv2
import numpy as np

from companion.vision import BoardReader
from companion.vision.imageio import read_image

UNIT = np.float32([[0, 0], [10, 0], [10, 10], [0, 10]])
LATTICE = np.float32([[x, y] for y in range(11) for x in range(11)]).reshape(-1, 1, 2)


def lattice(quad) -> np.ndarray:
    hom = cv2.getPerspectiveTransform(UNIT, np.float32(quad))
    return cv2.perspectiveTransform(LATTICE, hom)[:, 0]


def grid_offset(found, truth) -> float:
    """The largest distance between the two grids' lattice points, in the truth's cells."""
    truth = np.float32(truth)
    cell = min(np.linalg.norm(truth[1] - truth[0]), np.linalg.norm(truth[3] - truth[0])) / 10
    want = lattice(truth)
    best = np.inf
    for turn in range(4):
        for flip in (False, True):
            quad = np.roll(np.float32(found), turn, axis=0)
            quad = quad[::-1] if flip else quad
            best = min(best, float(np.linalg.norm(lattice(quad) - want, axis=1).max()))
    return float(best / cell)


def one(path: str):
    with open(path[:-4] + ".json") as f:
        truth = json.load(f)
    if not truth.get("grid"):
        return None
    reader = BoardReader()
    reading = reader.read(read_image(path))
    name = os.path.basename(path)
    if not reading.board_found:
        return name, None, None, 0.0
    return (
        name,
        round(float(grid_offset(reader.quad, truth["grid"])), 3),
        reader.located_by,
        reader.lens,
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--worst", type=int, default=10)
    a = ap.parse_args()
    paths = sorted(glob.glob(os.path.join(a.dir, "*.jpg")))
    with Pool(2) as pool:
        results = [r for r in pool.map(one, paths, chunksize=4) if r is not None]
    offsets = [r[1] for r in results if r[1] is not None]
    print(
        f"{len(results)} frames with a grid in their truth, {len(offsets)} boards found; "
        + ", ".join(f"off by > {t} cell: {sum(o > t for o in offsets)}" for t in (0.1, 0.2, 0.35))
    )
    for name, off, source, lens in sorted(results, key=lambda r: -(r[1] or 0))[: a.worst]:
        print(f"  {name}: {off} cells off, located by {source}, lens {lens:.3f}")


if __name__ == "__main__":
    main()
