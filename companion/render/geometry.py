"""Where board points appear in the frame: the flat board's homography, then the board's relief
(a fold, a bump, wrinkles) and the lens. Truth (corners, chip centres, hidden cells) goes through
the same maps as the pixels.

Two image spaces: *scene* points are where the pinhole camera sees a point (hands, glare and
loose cards are drawn there), *frame* points where the lens finally puts it (the output image).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.render.camera import project
from companion.render.lens import Lens
from companion.render.relief import Relief, View, seen_on_plane


@dataclass(frozen=True)
class BoardGeometry:
    tex_to_image: np.ndarray  # flat board: texture pixels -> scene pixels
    grid_to_texture: np.ndarray  # grid units -> texture pixels
    relief: Relief | None = None
    view: View | None = None
    lens: Lens | None = None

    @property
    def grid_to_image(self) -> np.ndarray:
        """The flat board's homography from grid units to scene pixels."""
        return self.tex_to_image @ self.grid_to_texture

    @property
    def is_plain(self) -> bool:
        """A flat board seen through a distortion-free lens: one homography says it all."""
        return self.relief is None and self.lens is None

    def texture_to_scene(self, points) -> np.ndarray:
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        if self.relief is not None:
            pts = seen_on_plane(self.relief, self.view, pts)
        return project(self.tex_to_image, pts)

    def scene_to_frame(self, points) -> np.ndarray:
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        return self.lens.distort(pts) if self.lens is not None else pts

    def texture_to_frame(self, points) -> np.ndarray:
        return self.scene_to_frame(self.texture_to_scene(points))

    def grid_to_scene(self, points) -> np.ndarray:
        return self.texture_to_scene(project(self.grid_to_texture, points))

    def grid_to_frame(self, points) -> np.ndarray:
        return self.scene_to_frame(self.grid_to_scene(points))


def plain(grid_to_image: np.ndarray) -> BoardGeometry:
    """The geometry of a flat board without lens distortion, from its grid homography."""
    return BoardGeometry(np.asarray(grid_to_image, np.float64), np.eye(3))
