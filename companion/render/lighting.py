"""Light and camera effects: colour temperature, brightness, gradient, vignetting and glare
(static per scene, as maps), then blur, sensor noise and JPEG (per frame)."""

from __future__ import annotations

import math
import threading

import cv2
import numpy as np

GAIN_ONE = 128.0  # gain maps are uint8 with 128 = x1.0


def soft_mask(mask: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian-blurred uint8 mask as float32 0..1; wide blurs run at a lower resolution."""
    h, w = mask.shape
    k = max(1, int(sigma // 3))
    if k > 1 and min(h, w) // k >= 4:
        small = cv2.resize(mask, (max(1, w // k), max(1, h // k)), interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small, (0, 0), sigma / k)
        out = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    else:
        out = cv2.GaussianBlur(mask, (0, 0), max(1.0, sigma))
    return out.astype(np.float32) / 255


def kelvin_gains(kelvin: float, white_balance: float = 0.65) -> np.ndarray:
    """BGR channel gains of a light of ``kelvin`` after a camera's partial auto white balance
    (``white_balance`` = 1 leaves the cast entirely, 0 removes it)."""
    t = kelvin / 100.0
    r = 255.0 if t <= 66 else 329.7 * (t - 60) ** -0.1332
    g = 99.47 * math.log(t) - 161.1 if t <= 66 else 288.1 * (t - 60) ** -0.0755
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5 * math.log(t - 10) - 305.0)
    rgb = np.clip([r, g, b], 1, 255) / 255.0
    gains = (rgb / rgb[1]) ** white_balance
    return gains[::-1].astype(np.float32)  # BGR


def gain_map(
    size,
    *,
    kelvin,
    brightness,
    gradient,
    gradient_angle_deg,
    vignette,
    shading=None,
    kelvin_far: float = 0.0,
) -> np.ndarray:
    """HxWx3 uint8 multiplicative light map (128 = unchanged); ``shading`` is an optional HxW
    float32 factor (board wrinkles, a person's shadow). With ``kelvin_far`` the light's colour
    changes along the gradient direction, from ``kelvin`` to ``kelvin_far`` (a window on one side,
    a lamp on the other)."""
    w, h = size
    sw, sh = max(8, w // 8), max(8, h // 8)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    xn, yn = (xx + 0.5) / sw - 0.5, (yy + 0.5) / sh - 0.5
    a = math.radians(gradient_angle_deg)
    ramp = 1 + gradient * (xn * math.cos(a) + yn * math.sin(a))
    r2 = (xn**2 + yn**2) / 0.5
    vig = 1 - vignette * r2
    light = (brightness * ramp * vig)[..., None] * kelvin_gains(kelvin)[None, None, :]
    if kelvin_far > 0:
        t = np.clip(0.5 + (xn * math.cos(a) + yn * math.sin(a)) * 1.2, 0, 1)[..., None]
        light = (
            light * (1 - t)
            + (brightness * ramp * vig)[..., None] * t * kelvin_gains(kelvin_far)[None, None, :]
        )
    light = cv2.resize(light, (w, h), interpolation=cv2.INTER_LINEAR)
    if shading is not None:
        light *= shading[..., None]
    light *= GAIN_ONE  # in place: a 4K map is large (same values as np.clip, light >= 0)
    np.maximum(light, 0, out=light)
    np.minimum(light, 255, out=light)
    return light.astype(np.uint8)


def person_shadow(size, strength: float, rng) -> np.ndarray | None:
    """A large soft shadow (someone leaning over the table) entering from a frame edge."""
    if strength <= 0:
        return None
    w, h = size
    sw, sh = max(8, w // 8), max(8, h // 8)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    side = rng.integers(0, 4)
    cx = [rng.uniform(0, sw), sw, rng.uniform(0, sw), 0][side]
    cy = [0, rng.uniform(0, sh), sh, rng.uniform(0, sh)][side]
    r = rng.uniform(0.25, 0.5) * max(sw, sh)
    d = np.hypot(xx - cx, yy - cy) / r
    dark = np.clip(1.2 - d, 0, 1) ** 0.8
    dark = cv2.GaussianBlur(dark, (0, 0), max(1.0, 0.08 * max(sw, sh)))
    out = 1 - strength * dark
    return cv2.resize(out, (w, h), interpolation=cv2.INTER_LINEAR)


def glare_map(size, spots: int, strength: float, region, rng) -> np.ndarray | None:
    """Soft additive highlights (uint8) centred inside ``region`` = (x0, y0, x1, y1)."""
    if spots <= 0 or strength <= 0:
        return None
    w, h = size
    sw, sh = max(8, w // 4), max(8, h // 4)
    acc = np.zeros((sh, sw), np.float32)
    x0, y0, x1, y1 = region
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    for _ in range(spots):
        cx, cy = rng.uniform(x0, x1) / 4, rng.uniform(y0, y1) / 4
        rx = rng.uniform(0.03, 0.12) * sw
        ry = rx * rng.uniform(0.4, 1.0)
        ang = rng.uniform(0, math.pi)
        dx, dy = xx - cx, yy - cy
        u = dx * math.cos(ang) + dy * math.sin(ang)
        v = -dx * math.sin(ang) + dy * math.cos(ang)
        acc += np.exp(-0.5 * ((u / rx) ** 2 + (v / ry) ** 2))
    acc = cv2.resize(np.clip(acc, 0, 1.5), (w, h), interpolation=cv2.INTER_LINEAR)
    return np.clip(acc * strength * 150, 0, 255).astype(np.uint8)[..., None].repeat(3, 2)


def apply_light(
    img: np.ndarray, gains: np.ndarray, glare: np.ndarray | None, exposure: float = 1.0
) -> np.ndarray:
    out = cv2.multiply(img, gains, scale=exposure / GAIN_ONE)
    if glare is not None:
        out = cv2.add(out, glare)
    return out


NOISE_MARGIN = 97


def noise_bank(shape: tuple[int, int], sigma: float, seed: int) -> np.ndarray:
    """Zero-mean sensor noise (int16) a little larger than a frame; frames take shifted windows
    of it, which costs a slice instead of drawing fresh Gaussian numbers every frame."""
    h, w = shape
    cv2.setRNGSeed(int(seed) % 2**31)
    bank = np.empty((h + NOISE_MARGIN, w + NOISE_MARGIN, 3), np.int16)
    cv2.randn(bank, 0, sigma)
    return bank


_BANKS: dict[tuple, np.ndarray] = {}
_BANKS_LOCK = threading.Lock()


def add_noise(img: np.ndarray, sigma: float, seed: int) -> np.ndarray:
    h, w = img.shape[:2]
    key = (h, w, round(sigma, 3))
    with _BANKS_LOCK:
        bank = _BANKS.get(key)
        if bank is None:
            _BANKS.clear()  # one camera at a time
            bank = _BANKS[key] = noise_bank((h, w), sigma, 12345)
    rng = np.random.default_rng(seed)
    dy, dx = rng.integers(0, NOISE_MARGIN, 2)
    window = bank[dy : dy + h, dx : dx + w]
    if rng.random() < 0.5:
        window = window[::-1]
    return cv2.add(img, np.ascontiguousarray(window), dtype=cv2.CV_8U)  # saturating


def defocus_map(size, corners: np.ndarray, scales: np.ndarray, falloff: float) -> np.ndarray:
    """HxW float32 0..1: how far out of focus each pixel is. The camera focuses on the board's
    middle; the side that looks smaller (farther away) and the nearer side blur."""
    w, h = size
    near, far = corners[int(np.argmax(scales))], corners[int(np.argmin(scales))]
    axis = far - near
    length = float(np.linalg.norm(axis)) or 1.0
    axis = axis / length
    centre = corners.mean(axis=0)
    sw, sh = max(8, w // 8), max(8, h // 8)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    d = ((xx + 0.5) * w / sw - centre[0]) * axis[0] + ((yy + 0.5) * h / sh - centre[1]) * axis[1]
    contrast = float(np.clip(scales.max() / max(scales.min(), 1e-6) - 1, 0, 1))
    weight = np.clip(np.abs(d) / (0.5 * length) - 0.25, 0, 1) * falloff * contrast
    return cv2.resize(weight.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)


def apply_camera(
    img: np.ndarray,
    *,
    blur: float,
    noise: float,
    jpeg: int | None,
    seed: int,
    defocus: np.ndarray | None = None,
) -> np.ndarray:
    """Per-frame camera effects: depth of field, optics blur, sensor noise, JPEG round trip."""
    if defocus is not None:
        soft = cv2.GaussianBlur(img, (0, 0), 1.2 + 0.002 * max(img.shape[:2]))
        img = cv2.blendLinear(soft, img, defocus, 1 - defocus)
    if blur > 0.05:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    if noise > 0:
        img = add_noise(img, noise, seed)
    if jpeg is not None:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg)])
        if ok:
            img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return img
