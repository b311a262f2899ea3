"""``random_spec``: a random but plausible frame, for datasets and tests.

Scene fields (camera, art, table, light, noise level) are drawn from a generator seeded by
``camera_seed``; frame fields (chips, hands, per-frame noise seed) from ``rng``. So
``random_spec(rng, camera_seed=7)`` called repeatedly gives frames of one fixed camera.
Overrides: any ``RenderSpec`` field, plus ``hand=True/False`` (at least one hand / none),
``art="mixed"`` (the ``text`` or ``cards`` art; the held-out ``mat`` art only when asked for),
``lens=P`` (the share of cameras with lens distortion: ``True`` = 1, default ``False`` = 0, so
that older seeds keep their frames; ``companion render`` uses ``LENS_SHARE``),
``fold=True`` (a folding board whose halves do not lie flat, often a bump on the crease) and
``waves=True`` (a wrinkled soft mat); folds and waves are off unless asked for. The lens, fold
and wave draws come from their own stream of ``camera_seed``, so every other field of a seed is
what it was before they existed.
"""

from __future__ import annotations

import math

import numpy as np

from companion.cells import CORNERS, SIZE
from companion.render.art import palette_count
from companion.render.spec import ARTS, MIXED_ARTS, TABLES, HandSpec, RenderSpec, SpecError

SIZES = [(640, 480), (640, 480), (800, 600), (1024, 768), (1280, 720), (1280, 720), (1920, 1080)]
LARGE_SIZES = [(2560, 1440), (3840, 2160), (1080, 1920)]  # 4K and a phone held upright
SKINS = [
    (175, 195, 236),
    (140, 170, 222),
    (105, 140, 190),
    (75, 105, 150),
    (50, 70, 105),
    (38, 52, 80),
]
SLEEVES = [
    (40, 40, 40),
    (120, 80, 40),
    (200, 200, 200),
    (50, 50, 140),
    (60, 110, 60),
    (150, 150, 150),
    None,
]


def random_cells(
    rng: np.random.Generator, chips: int | None = None, colors: str | None = None
) -> tuple[str, ...]:
    """A random board: ``chips`` chips (default 0..75) of 2 or 3 colours, corners ``*``."""
    colors = colors or ("BG" if rng.random() < 0.6 else "BGR")
    free = [(r, c) for r in range(SIZE) for c in range(SIZE) if (r, c) not in CORNERS]
    n = int(rng.integers(0, 76)) if chips is None else chips
    grid = [["*" if (r, c) in CORNERS else "." for c in range(SIZE)] for r in range(SIZE)]
    for i in rng.permutation(len(free))[:n]:
        r, c = free[i]
        grid[r][c] = colors[int(rng.integers(0, len(colors)))]
    return tuple("".join(row) for row in grid)


def random_hand(rng: np.random.Generator, tip: tuple[float, float] | None = None) -> HandSpec:
    """A hand whose fingertips touch a point of the board (or near it), arm at any angle."""
    if tip is None:
        tip = (float(rng.uniform(-0.5, 10.5)), float(rng.uniform(-0.5, 10.5)))
    # the arm comes from the nearer half of the board's surroundings, roughly outward
    out = math.degrees(math.atan2(tip[1] - 5, tip[0] - 5)) if tip != (5, 5) else rng.uniform(0, 360)
    sleeve = SLEEVES[int(rng.integers(0, len(SLEEVES)))]
    return HandSpec(
        tip=tip,
        angle_deg=float(out + rng.normal(0, 35)),
        scale=float(rng.uniform(0.85, 1.15)),
        skin=SKINS[int(rng.integers(0, len(SKINS)))],
        sleeve=sleeve,
        sleeve_at=float(rng.uniform(0.3, 1.5)),
        spread=float(rng.uniform(0, 0.8)),
        holding="BGR"[int(rng.integers(0, 3))] if rng.random() < 0.3 else None,
        right_hand=bool(rng.random() < 0.85),
        motion=(
            (float(rng.normal(0, 0.4)), float(rng.normal(0, 0.4)))
            if rng.random() < 0.25
            else (0.0, 0.0)
        ),
    )


def _size(s: np.random.Generator) -> tuple[int, int]:
    if s.random() < 0.06:
        return LARGE_SIZES[int(s.integers(0, len(LARGE_SIZES)))]
    return SIZES[int(s.integers(0, len(SIZES)))]


LENS_SHARE = 0.6  # most cheap webcams and many phones show some radial distortion


def random_lens(s: np.random.Generator) -> tuple[float, float]:
    """``(k1, k2)``: mostly barrel (to -0.15 at the half-diagonal), sometimes pincushion."""
    k1 = -s.uniform(0.02, 0.15) if s.random() < 0.8 else s.uniform(0.02, 0.08)
    return float(k1), float(k1 * s.uniform(-0.3, 0.3))


def random_fold(s: np.random.Generator) -> tuple[float, float]:
    """``(fold_deg, fold_bump)``: the halves 2-10 degrees apart (mostly edges up), and half the
    time a bump along the crease."""
    fold = s.uniform(2, 10) * (1 if s.random() < 0.75 else -1)
    bump = s.uniform(0.05, 0.25) if s.random() < 0.5 else 0.0
    return float(fold), float(bump)


def _realism(camera_seed: int, lens: float, fold: bool, waves: bool) -> dict:
    """Lens, fold and wave fields, from their own stream so that older fields stay the same."""
    s = np.random.default_rng([camera_seed, 23])
    lens_on = s.random() < float(lens)
    k1, k2 = random_lens(s)
    fold_deg, fold_bump = random_fold(s)
    wave = float(s.uniform(0.05, 0.3))
    out = {}
    if lens_on:
        out.update(lens_k1=k1, lens_k2=k2)
    if fold:
        out.update(fold_deg=fold_deg, fold_bump=fold_bump)
    if waves:
        out.update(waves=wave)
    return out


def random_spec(rng: np.random.Generator | int | None = None, **overrides) -> RenderSpec:
    if not isinstance(rng, np.random.Generator):
        if rng is not None and (not isinstance(rng, int) or rng < 0):
            raise SpecError(f"random_spec needs a numpy Generator or a seed >= 0, not {rng!r}")
        rng = np.random.default_rng(rng)
    hand = overrides.pop("hand", None)
    lens, fold = overrides.pop("lens", False), overrides.pop("fold", False)
    if not 0 <= float(lens) <= 1:
        raise SpecError(f"lens is a share of cameras within 0..1, not {lens!r}")
    waves = overrides.pop("waves", False)
    if not isinstance(waves, bool):  # a numeric ``waves`` is the RenderSpec field itself
        overrides["waves"], waves = waves, False
    camera_seed = overrides.get("camera_seed")
    if camera_seed is None:
        camera_seed = int(rng.integers(0, 2**31))
    s = np.random.default_rng(camera_seed)  # scene randomness
    art = overrides.get("art", "mixed")
    if art == "mixed":
        art = MIXED_ARTS[int(s.integers(0, len(MIXED_ARTS)))]
    if art not in ARTS:
        raise SpecError(f"art must be one of {ARTS} or 'mixed', not {art!r}")
    aspects = {"text": (1.0, 1.3), "cards": (1.4, 1.55), "mat": (1.3, 1.5)}[art]
    tilt = float(s.uniform(0, 40) if s.random() < 0.6 else min(40.0, abs(s.normal(0, 12))))
    quality = int(s.integers(60, 96)) if s.random() < 0.8 else None
    kelvin = float(s.choice([2700, 3200, 4000, 5000, 5500, 6500, 7500]) * s.uniform(0.95, 1.05))
    scene = dict(
        board=True,
        art=art,
        palette=int(s.integers(0, palette_count(art))),
        # in steps of 0.05, so that frames of a dataset share cached board textures
        cell_aspect=round(float(s.uniform(*aspects)) * 20) / 20,
        size=_size(s),
        orientation=int(s.choice([0, 90, 180, 270])),
        rotation_jitter=float(np.clip(s.normal(0, 7), -20, 20)),
        tilt_deg=tilt,
        tilt_azimuth_deg=float(s.uniform(0, 360)),
        camera_distance=float(s.uniform(1.2, 3.0)),
        board_fraction=float(s.uniform(0.3, 0.95)),
        board_offset=(float(s.uniform(-1, 1)), float(s.uniform(-1, 1))),
        table=TABLES[int(s.integers(0, len(TABLES)))],
        clutter=int(s.integers(0, 7)),
        table_edge=bool(s.random() < 0.15),
        board_cards=int(s.random() < 0.08),
        chip_jitter=float(s.uniform(0.04, 0.2)),
        light_angle_deg=float(s.uniform(0, 360)),
        brightness=float(s.uniform(0.65, 1.15)),
        color_temp=kelvin,
        color_temp_far=float(s.choice([2700, 3200, 6500, 7500])) if s.random() < 0.2 else 0.0,
        gradient=float(s.uniform(0, 0.6)),
        gradient_angle_deg=float(s.uniform(0, 360)),
        vignette=float(s.uniform(0, 0.5)),
        glare=float(s.uniform(0.2, 1.2)) if s.random() < 0.35 else 0.0,
        glare_spots=int(s.integers(1, 3)),
        shadow=float(s.uniform(0.15, 0.5)) if s.random() < 0.25 else 0.0,
        wrinkles=float(s.uniform(0, 1)),
        noise=float(s.uniform(0.5, 6)),
        blur=float(s.uniform(0, 1.2)) if s.random() < 0.6 else 0.0,
        focus_falloff=float(s.uniform(0.4, 1.0)) if s.random() < 0.25 else 0.0,
        jpeg=quality,
        camera_seed=camera_seed,
        **_realism(camera_seed, lens, fold, waves),
    )
    n_hands = 0
    if hand is True:
        n_hands = 1 + int(rng.random() < 0.25)
    elif hand is None:
        n_hands = int(rng.random() < 0.2)
    frame = dict(
        cells=random_cells(rng),
        hands=tuple(random_hand(rng) for _ in range(n_hands)),
        seed=int(rng.integers(0, 2**31)),
    )
    values = {**scene, **frame, **overrides}
    values["art"] = art
    for key in ("size", "board_offset"):
        values[key] = tuple(values[key])
    values["cells"] = tuple(values["cells"])
    values["hands"] = tuple(values["hands"])
    return RenderSpec(**values)
