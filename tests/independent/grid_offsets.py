#!/usr/bin/env python
"""How far the located grid lies off the board's own, per frame of render_foreign.py.

python tests/independent/grid_offsets.py DIR [--worst N]

Reads every DIR/*.jpg from scratch (a fresh ``BoardReader`` per frame, as ``companion analyze``
does) and compares the grid it located with the truth's ``grid`` (the playing area's outer
lattice on screen in canonical order, A1 corner first, written by render_foreign.py since
2ce00f5; older truth files lack it and are skipped). The offset of a frame is the largest
distance over the 121 lattice points, in cells of the truth grid, between the truth and the
grid as read: its canonical corners (``BoardReading.corners``) bent by the lens it fitted
(``lens.lattice_offset``; the renderer draws none), so a board turned wrong is far off too.
Not part of the package and not run by the test suite.
"""

import argparse
import glob
import json
import os
from multiprocessing import Pool

from companion.vision import BoardReader
from companion.vision.imageio import read_image
from companion.vision.lens import lattice_offset


def one(path: str):
    with open(path[:-4] + ".json") as f:
        truth = json.load(f)
    if not truth.get("grid"):
        return None
    image = read_image(path)
    reader = BoardReader()
    reading = reader.read(image)
    name = os.path.basename(path)
    if not reading.board_found:
        return name, None, None, 0.0
    size = (image.shape[1], image.shape[0])
    offset = lattice_offset(reading.corners, reader.lens, truth["grid"], size)
    return name, round(offset, 3), reader.located_by, reader.lens


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
