"""What to render: ``RenderSpec`` (one frame) and ``HandSpec`` (one hand/arm over the board).

Every field is plain data, so a spec can be stored in a truth sidecar and rendered again.
Fields split in two groups:

- *scene* fields (camera pose, board art, table, light, camera noise level, ``camera_seed``)
  are static for one camera; frames whose scene fields are equal share one cached scene, which
  is what makes a video fast;
- *frame* fields: ``cells``, ``hands``, ``seed`` (per-frame noise) and ``exposure`` (the
  camera's auto-exposure drift) change from frame to frame.

Board coordinates (used by ``HandSpec``) are canonical grid units: ``(0, 0)`` is the outer
corner of A1, ``(10, 0)`` the outer corner of J1, ``(10, 10)`` of J10; x runs along the columns
and y along the rows, one unit per cell, whatever the cell's aspect ratio.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace

from companion.cells import CORNERS, SIZE
from companion.render.lens import MAX_K1, MAX_K2, is_monotonic

# boards of other games that a board-free table may hold (companion.render.other_games)
OTHER_GAMES = ("draughts", "chess", "go", "hundred")

ARTS = ("text", "cards", "mat")
MIXED_ARTS = ("text", "cards")  # what "mixed" draws from: the mat is held out from tuning
TABLES = ("wood", "cloth", "felt", "laminate", "dark_wood")
ORIENTATIONS = (0, 90, 180, 270)
EMPTY_BOARD = tuple(
    "".join("*" if (r, c) in CORNERS else "." for c in range(SIZE)) for r in range(SIZE)
)
FRAME_FIELDS = ("cells", "hands", "seed", "exposure")


class SpecError(ValueError):
    """A render spec that cannot be rendered; the message says which field and why."""


@dataclass(frozen=True, slots=True)
class HandSpec:
    """A hand reaching over the board, fingertips at ``tip`` (board coordinates).

    ``angle_deg`` is the direction from the fingertips back along the arm, in board
    coordinates (0 = towards +x / column J, 90 = towards +y / row 10); the arm runs from the
    tip out to the edge of the frame. ``scale`` multiplies the default hand size (a palm about
    three cells wide). ``skin`` is a BGR colour; ``sleeve`` a BGR colour or ``None`` for a bare
    arm; ``sleeve_at`` is where the sleeve starts, in palm lengths from the tip.
    """

    tip: tuple[float, float]
    angle_deg: float
    scale: float = 1.0
    skin: tuple[int, int, int] = (120, 150, 200)
    sleeve: tuple[int, int, int] | None = (90, 60, 40)
    sleeve_at: float = 2.6
    spread: float = 0.3  # 0 = fingers together, 1 = spread wide
    holding: str | None = None  # "B" / "G" / "R": a chip pinched at the fingertips
    motion: tuple[float, float] = (0.0, 0.0)  # travel during the exposure (board units): blur
    right_hand: bool = True  # which side the thumb is on

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> HandSpec:
        data = dict(data)
        data["tip"] = tuple(data["tip"])
        if "motion" in data:
            data["motion"] = tuple(data["motion"])
        data["skin"] = tuple(data["skin"])
        if data.get("sleeve") is not None:
            data["sleeve"] = tuple(data["sleeve"])
        return cls(**data)


@dataclass(frozen=True, slots=True)
class RenderSpec:
    """One synthetic camera frame. Defaults give a clean, square-on 640x480 view."""

    # frame content
    cells: tuple[str, ...] = EMPTY_BOARD
    hands: tuple[HandSpec, ...] = ()
    seed: int = 0
    exposure: float = 1.0  # per-frame auto-exposure drift (multiplies the light)
    # board
    board: bool = True  # False: a table with no Sequence board
    other_game: str = ""  # on a board-free table: another game's board ("" none; OTHER_GAMES)
    art: str = "cards"
    palette: int = 0  # board colour scheme variant of the art
    cell_aspect: float = 1.0  # cell width / height; 0 = the art's default
    # camera
    size: tuple[int, int] = (640, 480)
    orientation: int = 0
    rotation_jitter: float = 0.0
    tilt_deg: float = 0.0
    tilt_azimuth_deg: float = 0.0
    camera_distance: float = 2.0  # in board diagonals; smaller = stronger perspective
    board_fraction: float = 0.7
    board_offset: tuple[float, float] = (0.0, 0.0)  # -1..1 within the free space; beyond: cut off
    # table
    table: str = "wood"
    clutter: int = 0
    table_edge: bool = False  # the table ends in the frame (floor beyond a straight edge)
    chip_jitter: float = 0.11  # how far off-centre players put chips, in cells (0..0.3)
    board_cards: int = 0  # loose playing cards lying on the board (cover cells)
    # light and camera
    light_angle_deg: float = 45.0  # direction the light comes from, in the image
    brightness: float = 1.0
    color_temp: float = 5500.0  # Kelvin; warm < 5000 < cool
    color_temp_far: float = 0.0  # > 0: mixed light, the colour shifts to this along the gradient
    gradient: float = 0.0  # 0..1 brightness ramp across the frame
    gradient_angle_deg: float = 0.0
    vignette: float = 0.0  # 0..1
    glare: float = 0.0  # 0..2 strength of glare spots (above ~0.95 they wash chips out)
    glare_spots: int = 0
    shadow: float = 0.0  # 0..1 depth of a large soft shadow from someone at the table
    wrinkles: float = 0.0  # 0..1 unevenness of the board surface (vinyl mat, paper)
    fold_deg: float = 0.0  # angle of the halves at the crease: > 0 edges up, < 0 crease up
    fold_bump: float = 0.0  # height of a ridge along the crease, in cell heights (0..0.5)
    waves: float = 0.0  # wrinkles of a soft mat: crest height in cell heights (0..0.5)
    noise: float = 0.0  # sigma in grey levels
    blur: float = 0.0  # Gaussian sigma in pixels
    focus_falloff: float = 0.0  # 0..1 depth of field: near and far board edges blur (with tilt)
    jpeg: int | None = None  # JPEG quality of the round trip, None for none
    lens_k1: float = 0.0  # radial distortion at the half-diagonal: < 0 barrel, > 0 pincushion
    lens_k2: float = 0.0  # its fourth-order term
    camera_seed: int = 0  # static scene details: table grain, clutter, chip jitter, glare

    def __post_init__(self) -> None:
        validate(self)

    def scene_key(self) -> tuple:
        """Everything static for one camera: equal keys share one cached scene."""
        return tuple(getattr(self, f.name) for f in fields(self) if f.name not in FRAME_FIELDS)

    def with_frame(self, **changes) -> RenderSpec:
        """Same camera, new frame content (``cells``, ``hands``, ``seed``, ``exposure``)."""
        unknown = set(changes) - set(FRAME_FIELDS)
        if unknown:
            raise SpecError(f"with_frame only changes {FRAME_FIELDS}, not {sorted(unknown)}")
        if "hands" in changes:
            changes["hands"] = tuple(changes["hands"])
        if "cells" in changes:
            changes["cells"] = tuple(changes["cells"])
        return replace(self, **changes)

    def to_json(self) -> dict:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["cells"] = list(self.cells)
        data["hands"] = [h.to_json() for h in self.hands]
        data["size"] = list(self.size)
        data["board_offset"] = list(self.board_offset)
        return data

    @classmethod
    def from_json(cls, data: dict) -> RenderSpec:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise SpecError(f"unknown render spec fields: {sorted(unknown)}")
        data = dict(data)
        if "cells" in data:
            data["cells"] = tuple(data["cells"])
        if "hands" in data:
            data["hands"] = tuple(HandSpec.from_json(h) for h in data["hands"])
        for key in ("size", "board_offset"):
            if key in data:
                data[key] = tuple(data[key])
        return cls(**data)


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise SpecError(message)


def validate(spec: RenderSpec) -> None:
    _check(spec.art in ARTS, f"art must be one of {ARTS}, not {spec.art!r}")
    _check(
        spec.other_game == "" or (spec.other_game in OTHER_GAMES and not spec.board),
        f"other_game must be '' or one of {OTHER_GAMES} on a board-free table",
    )
    _check(spec.table in TABLES, f"table must be one of {TABLES}, not {spec.table!r}")
    _check(
        spec.orientation in ORIENTATIONS,
        f"orientation must be one of {ORIENTATIONS}, not {spec.orientation!r}",
    )
    _check(abs(spec.rotation_jitter) <= 30, "rotation_jitter must be within +-30 degrees")
    _check(0 <= spec.tilt_deg <= 60, "tilt_deg must be within 0..60")
    _check(spec.camera_distance >= 0.8, "camera_distance must be at least 0.8 board diagonals")
    _check(0.1 <= spec.board_fraction <= 1.0, "board_fraction must be within 0.1..1.0")
    _check(
        len(spec.size) == 2 and all(isinstance(v, int) for v in spec.size),
        "size must be (width, height) in whole pixels",
    )
    w, h = spec.size
    _check(64 <= w <= 8192 and 64 <= h <= 8192, f"size {w}x{h} is outside 64..8192 pixels")
    _check(spec.cell_aspect == 0 or 0.5 <= spec.cell_aspect <= 2.5, "cell_aspect: 0 or 0.5..2.5")
    _check(spec.jpeg is None or 5 <= spec.jpeg <= 100, "jpeg quality must be within 5..100")
    _check(spec.noise >= 0 and spec.blur >= 0, "noise and blur must not be negative")
    _check(0 <= spec.shadow <= 1 and 0 <= spec.wrinkles <= 1, "shadow and wrinkles: 0..1")
    _check(0 <= spec.glare <= 2, "glare strength must be within 0..2")
    _check(0 <= spec.focus_falloff <= 1, "focus_falloff must be within 0..1")
    _check(abs(spec.fold_deg) <= 20, "fold_deg must be within -20..20 degrees")
    _check(0 <= spec.fold_bump <= 0.5, "fold_bump must be within 0..0.5 cell heights")
    _check(0 <= spec.waves <= 0.5, "waves must be within 0..0.5 cell heights")
    _check(
        abs(spec.lens_k1) <= MAX_K1 and abs(spec.lens_k2) <= MAX_K2,
        f"lens_k1 must be within +-{MAX_K1} and lens_k2 within +-{MAX_K2}",
    )
    _check(
        is_monotonic(spec.lens_k1, spec.lens_k2),
        "lens_k1 and lens_k2 fold the image over itself; use a weaker distortion",
    )
    _check(1500 <= spec.color_temp <= 12000, "color_temp must be within 1500..12000 K")
    _check(
        spec.color_temp_far == 0 or 1500 <= spec.color_temp_far <= 12000,
        "color_temp_far must be 0 (one light) or within 1500..12000 K",
    )
    _check(
        len(spec.board_offset) == 2 and all(abs(v) <= 2 for v in spec.board_offset),
        "board_offset must be (x, y) within -2..2",
    )
    _check(
        isinstance(spec.seed, int)
        and isinstance(spec.camera_seed, int)
        and spec.seed >= 0
        and spec.camera_seed >= 0,
        "seed and camera_seed must be whole numbers >= 0",
    )
    _check(spec.clutter >= 0 and spec.glare_spots >= 0, "clutter and glare_spots >= 0")
    _check(0 <= spec.board_cards <= 6, "board_cards must be within 0..6")
    _check(0 <= spec.chip_jitter <= 0.3, "chip_jitter must be within 0..0.3 cells")
    _check(0.3 <= spec.exposure <= 2.0, "exposure must be within 0.3..2.0")
    _check(
        len(spec.cells) == SIZE and all(len(row) == SIZE for row in spec.cells),
        "cells must be 10 strings of 10 symbols",
    )
    for r, row in enumerate(spec.cells):
        for c, symbol in enumerate(row):
            if (r, c) in CORNERS:
                _check(symbol == "*", f"cell row {r + 1} col {c + 1} is a free corner: use '*'")
            else:
                _check(
                    symbol in ".BGR",
                    f"cell row {r + 1} col {c + 1} is {symbol!r}; use one of . B G R",
                )
    for hand in spec.hands:
        _check(isinstance(hand, HandSpec), "hands must be HandSpec values")
        _check(0.2 <= hand.scale <= 3, "hand scale must be within 0.2..3")
        _check(hand.holding in (None, "B", "G", "R"), "a hand holds None, 'B', 'G' or 'R'")
