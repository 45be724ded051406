#!/usr/bin/env python3
"""Generate imgcache's benchmark corpus: large, photo-like stills and long animations.

Usage:
    python3 Benchmarks/make-corpus.py [DIR] [--force] [--only NAME ...] [--list]
    python3 Benchmarks/make-corpus.py [DIR] --smartcrop [--force]

DIR defaults to $IMGCACHE_BENCH_DIR, else ${TMPDIR:-/tmp}/imgcache-bench. It must lie outside the
repository: the corpus is about 60 MB and is never committed.

Every file is drawn from fixed seeds with Pillow alone, so a run gives the same bytes every time
for a given Pillow build (its libjpeg and zlib decide the exact bytes); SHA256SUMS in DIR records
them. --smartcrop writes the smart-crop photo set instead, to DIR/smartcrop: twelve synthetic
photos (six landscape, six portrait) of a sharp subject, a person or flowers, well off the centre
of a blurred, low-contrast landscape without a sun, and subjects.json with each subject's box. A file that already exists with the right dimensions (and frame count) is kept unless
--force is given. Files are written to a temporary name and renamed, so an interrupted run never
leaves a truncated file behind that a later run would keep.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import sys
import time
from pathlib import Path

try:
    from PIL import Image, ImageChops, ImageDraw, ImageEnhance, ImageFilter, ImageOps
except ImportError:  # pragma: no cover - depends on the machine
    sys.exit(
        "make-corpus.py needs Pillow: run `make setup`, or "
        "`python3 -m pip install -r Benchmarks/requirements.txt`"
    )

BICUBIC = Image.Resampling.BICUBIC
BILINEAR = Image.Resampling.BILINEAR
NEAREST = Image.Resampling.NEAREST


# --------------------------------------------------------------------------------------------
# Building blocks. Randomness comes only from random.Random(seed): its byte stream is stable
# across Python versions, unlike Pillow's effect_noise (C rand()) or hash-ordered containers.
# --------------------------------------------------------------------------------------------


def noise_image(rng: random.Random, size: tuple[int, int], amplitude: int) -> Image.Image:
    """An 'L' image of uniform noise in 0...2*amplitude (add with offset=-amplitude)."""
    w, h = size
    raw = Image.frombytes("L", size, rng.randbytes(w * h))
    lut = [v * (2 * amplitude) // 255 for v in range(256)]
    return raw.point(lut)


def smooth_field(rng: random.Random, size: tuple[int, int], cells: tuple[int, int], mode: str) -> Image.Image:
    """Low-frequency random variation: a few random cells upscaled with a bicubic filter."""
    cw, ch = cells
    bands = len(mode)
    small = Image.frombytes(mode, (cw, ch), rng.randbytes(cw * ch * bands))
    return small.resize(size, BICUBIC)


def mix(rng: random.Random, base: tuple[int, int, int], spread: int) -> tuple[int, int, int]:
    return tuple(max(0, min(255, c + rng.randint(-spread, spread))) for c in base)  # type: ignore[return-value]


def vertical_gradient(size: tuple[int, int], top: tuple[int, int, int], bottom: tuple[int, int, int]) -> Image.Image:
    ramp = Image.linear_gradient("L").resize(size, BILINEAR)  # black at the top, white at the bottom
    return ImageOps.colorize(ramp, black=top, white=bottom)


def scene(rng: random.Random, size: tuple[int, int], sun: bool = True) -> Image.Image:
    """A landscape at a small size: sky, sun (unless `sun` is false), hills, water, buildings and
    trees, soft-edged."""
    w, h = size
    horizon = int(h * rng.uniform(0.42, 0.55))
    sky_top = mix(rng, (40, 90, 170), 25)
    sky_low = mix(rng, (225, 200, 170), 20)
    img = vertical_gradient((w, h), sky_top, sky_low)

    # Clouds: a smooth random field, thresholded softly and blended into the sky.
    clouds = smooth_field(rng, (w, horizon), (9, 5), "L").point(lambda v: max(0, v - 120) * 2)
    img.paste((245, 245, 250), (0, 0, w, horizon), clouds.filter(ImageFilter.GaussianBlur(w / 150)))

    draw = ImageDraw.Draw(img)
    if sun:
        sun_r = int(w * rng.uniform(0.03, 0.05))
        sx, sy = int(w * rng.uniform(0.6, 0.85)), int(horizon * rng.uniform(0.3, 0.7))
        for k in range(6, 0, -1):  # halo rings, outermost first
            r = sun_r * (1 + k * 0.35)
            glow = mix(rng, (255, 225, 170), 6)
            draw.ellipse((sx - r, sy - r, sx + r, sy + r), fill=tuple(int(c * 0.5 + s * 0.5) for c, s in zip(glow, sky_low)))
        draw.ellipse((sx - sun_r, sy - sun_r, sx + sun_r, sy + sun_r), fill=(255, 244, 214))

    # Ranges of hills, far (pale) to near (dark), each a jagged polygon.
    for layer in range(4):
        base_y = horizon - int(h * (0.12 - layer * 0.03))
        colour = mix(rng, (70 + 25 * (3 - layer), 100 + 20 * (3 - layer), 80 + 15 * (3 - layer)), 12)
        points = [(0, h)]
        steps = 24
        for i in range(steps + 1):
            x = w * i / steps
            y = base_y - rng.uniform(0, h * 0.12) * (1 - layer * 0.15)
            points.append((x, y))
        points.append((w, h))
        draw.polygon(points, fill=colour)

    # Water below the horizon, with a gradient of its own.
    water = vertical_gradient((w, h - horizon), mix(rng, (60, 110, 140), 10), mix(rng, (20, 40, 60), 8))
    img.paste(water, (0, horizon))

    # A town along the shore: blocks of varied height and colour.
    x = rng.randint(0, w // 10)
    while x < w * 0.7:
        bw = rng.randint(w // 60, w // 25)
        bh = rng.randint(h // 30, h // 8)
        draw.rectangle((x, horizon - bh, x + bw, horizon + 2), fill=mix(rng, (150, 130, 115), 50))
        x += bw + rng.randint(0, w // 80)

    # Trees on the near shore.
    for _ in range(40):
        tx = rng.uniform(0, w)
        ty = rng.uniform(horizon + h * 0.02, h * 0.75)
        r = rng.uniform(h * 0.01, h * 0.04)
        draw.ellipse((tx - r, ty - r * 1.6, tx + r, ty + r * 0.6), fill=mix(rng, (40, 80, 40), 20))
    return img


def photo(seed: int, size: tuple[int, int], noise: int = 5) -> Image.Image:
    """A photo-like RGB image: a soft scene, fine details with hard edges, texture and sensor noise."""
    rng = random.Random(seed)
    w, h = size
    img = scene(rng, (max(1, w // 8), max(1, h // 8))).resize(size, BICUBIC)

    # Hard-edged detail at full resolution: lit windows, masts, a boat, wires.
    draw = ImageDraw.Draw(img)
    for _ in range(900):
        x, y = rng.uniform(0, w * 0.7), rng.uniform(h * 0.30, h * 0.52)
        ww, wh = rng.uniform(w / 900, w / 300), rng.uniform(h / 500, h / 200)
        draw.rectangle((x, y, x + ww, y + wh), fill=mix(rng, (240, 215, 150), 30))
    for _ in range(30):
        x = rng.uniform(0, w)
        top = rng.uniform(h * 0.25, h * 0.45)
        draw.line((x, top, x + rng.uniform(-w / 200, w / 200), h * 0.6), fill=mix(rng, (40, 40, 45), 10), width=max(1, w // 1500))
    bx, by = rng.uniform(w * 0.2, w * 0.6), h * rng.uniform(0.6, 0.7)
    draw.polygon([(bx, by), (bx + w * 0.12, by), (bx + w * 0.1, by + h * 0.03), (bx + w * 0.02, by + h * 0.03)], fill=(200, 60, 40))
    draw.rectangle((bx + w * 0.04, by - h * 0.05, bx + w * 0.07, by), fill=(235, 235, 230))
    for _ in range(3):
        y0 = rng.uniform(0, h * 0.2)
        draw.line((0, y0, w, y0 + rng.uniform(-h * 0.05, h * 0.05)), fill=(30, 30, 30), width=max(1, w // 2000))

    # Mid-frequency texture (foliage, ripples) and per-pixel luminance and colour noise.
    texture = smooth_field(rng, size, (w // 16, h // 16), "L")
    img = ImageChops.add(img, Image.merge("RGB", (texture.point(lambda v: v // 16),) * 3), offset=-8)
    if noise:
        luma = noise_image(rng, size, noise)
        img = ImageChops.add(img, Image.merge("RGB", (luma, luma, luma)), offset=-noise)
        chroma = Image.merge("RGB", [noise_image(rng, size, max(1, noise // 2)) for _ in range(3)])
        img = ImageChops.add(img, chroma, offset=-max(1, noise // 2))
    return img


def nearest_index(palette: list[int], rgb: tuple[int, int, int]) -> int:
    best, best_d = 0, 1 << 30
    for i in range(len(palette) // 3):
        r, g, b = palette[3 * i : 3 * i + 3]
        d = (r - rgb[0]) ** 2 + (g - rgb[1]) ** 2 + (b - rgb[2]) ** 2
        if d < best_d:
            best, best_d = i, d
    return best


# --------------------------------------------------------------------------------------------
# The files.
# --------------------------------------------------------------------------------------------


def make_photo_jpeg(path: Path, size: tuple[int, int], seed: int) -> None:
    img = photo(seed, size, noise=8)  # about 0.25 byte per pixel, like a phone camera's JPEG
    # Baseline (not progressive), 4:2:0 chroma subsampling, quality 90, no EXIF.
    img.save(path, "JPEG", quality=90, subsampling=2, progressive=False, optimize=False)


def make_rgba_png(path: Path, size: tuple[int, int], seed: int) -> None:
    rng = random.Random(seed)
    w, h = size
    rgb = photo(seed + 1, size, noise=2)
    # Alpha: a soft radial vignette, fully transparent corners, opaque and half-transparent shapes.
    alpha = ImageOps.invert(Image.radial_gradient("L")).resize(size, BICUBIC)
    alpha = alpha.point(lambda v: min(255, v * 2))
    draw = ImageDraw.Draw(alpha)
    corner = min(w, h) // 6
    for cx, cy in ((0, 0), (w, 0), (0, h), (w, h)):
        draw.ellipse((cx - corner, cy - corner, cx + corner, cy + corner), fill=0)
    for _ in range(60):
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(min(w, h) / 60, min(w, h) / 12)
        shape = draw.ellipse if rng.random() < 0.5 else draw.rectangle
        shape((x - r, y - r, x + r, y + r), fill=rng.choice((0, 64, 128, 192, 255)))
    alpha = ImageChops.multiply(alpha, smooth_field(rng, size, (12, 9), "L").point(lambda v: 128 + v // 2))
    rgb.putalpha(alpha)
    rgb.save(path, "PNG", compress_level=6, optimize=False)


def make_palette_png(path: Path, size: tuple[int, int], seed: int) -> None:
    rng = random.Random(seed)
    w, h = size
    img = vertical_gradient(size, mix(rng, (30, 60, 120), 20), mix(rng, (240, 180, 120), 20))
    draw = ImageDraw.Draw(img)
    for _ in range(120):  # an illustration: flat shapes with outlines
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(w / 80, w / 10)
        fill = tuple(rng.randrange(256) for _ in range(3))
        if rng.random() < 0.5:
            draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=(20, 20, 20), width=3)
        else:
            draw.regular_polygon((x, y, r), rng.randint(3, 8), rotation=rng.uniform(0, 360), fill=fill, outline=(20, 20, 20))
    img = img.filter(ImageFilter.GaussianBlur(0.8))
    pal = img.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.FLOYDSTEINBERG)
    pal.save(path, "PNG", compress_level=9, optimize=False)


def make_sticker_gif(path: Path, size: tuple[int, int], frames: int, seed: int) -> None:
    """A sticker-like loop on a transparent background: spinning, bouncing shapes (disposal 2)."""
    rng = random.Random(seed)
    w, h = size
    colours = [tuple(rng.randrange(40, 256) for _ in range(3)) for _ in range(12)]
    images = []
    for f in range(frames):
        t = f / frames
        frame = Image.new("RGB", size, (255, 0, 255))  # magenta becomes the transparent index
        draw = ImageDraw.Draw(frame)
        for i, colour in enumerate(colours):
            phase = t * 2 * math.pi + i * 0.52
            cx = w / 2 + math.cos(phase) * w * (0.18 + 0.02 * (i % 4))
            cy = h / 2 + math.sin(phase * (1 + i % 3)) * h * 0.25
            r = w * (0.05 + 0.015 * math.sin(phase * 2))
            draw.regular_polygon((cx, cy, r), 3 + i % 5, rotation=f * 6 + i * 30, fill=colour, outline=(0, 0, 0))
        images.append(frame)
    # One shared palette: quantize the first frame, keep slot 255 for transparency.
    palette_img = Image.new("P", (1, 1))
    pal = [c for colour in colours for c in colour] + [0, 0, 0]  # the shapes' colours, then black outlines
    pal += [0, 0, 0] * (255 - len(pal) // 3)  # unused entries
    pal += [255, 0, 255]  # index 255: the transparent background
    palette_img.putpalette(pal)
    quantized = [im.quantize(palette=palette_img, dither=Image.Dither.NONE) for im in images]
    quantized[0].save(
        path, "GIF", save_all=True, append_images=quantized[1:], duration=40, loop=0,
        disposal=2, transparency=255, optimize=False, palette=bytes(pal),
    )


def make_video_gif(path: Path, size: tuple[int, int], frames: int, seed: int) -> None:
    """A video-like clip with one global palette: a camera that holds, pans and holds, over a
    landscape with moving boats, birds and a blinking sign, so every frame differs."""
    rng = random.Random(seed)
    w, h = size
    pan = w // 2
    world = photo(seed, (w + pan, h + h // 8), noise=0)
    # A global palette of 256 colours from the scene, no dithering: flat regions compress.
    world_p = world.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    palette = world_p.getpalette()[: 3 * 256]
    red = nearest_index(palette, (200, 50, 40))
    white = nearest_index(palette, (240, 240, 235))
    dark = nearest_index(palette, (25, 25, 30))
    yellow = nearest_index(palette, (250, 220, 90))
    boats = [(rng.uniform(0, w + pan), rng.uniform(h * 0.62, h * 0.9), rng.uniform(0.5, 2.5), rng.uniform(0.6, 1.4)) for _ in range(6)]
    birds = [(rng.uniform(0, w), rng.uniform(h * 0.05, h * 0.3), rng.uniform(2, 5), rng.uniform(0, 6.28)) for _ in range(14)]

    images = []
    third = frames // 3
    for f in range(frames):
        # Camera: hold, pan to the right while sinking a little, hold.
        if f < third:
            ox, oy = 0, 0
        elif f < 2 * third:
            k = (f - third) / third
            ox, oy = int(pan * k), int(h // 8 * k)
        else:
            ox, oy = pan, h // 8
        frame = world_p.crop((ox, oy, ox + w, oy + h))
        draw = ImageDraw.Draw(frame)
        for bx, by, speed, scale in boats:  # world coordinates, drifting right
            x = (bx + f * speed) % (w + pan) - ox
            y = by - oy + math.sin(f * 0.2 + bx) * 2
            s = 30 * scale
            draw.polygon([(x, y), (x + 2 * s, y), (x + 1.7 * s, y + 0.5 * s), (x + 0.3 * s, y + 0.5 * s)], fill=red)
            draw.polygon([(x + s, y - 1.6 * s), (x + s, y - 0.1 * s), (x + 1.8 * s, y - 0.1 * s)], fill=white)
        for bx, by, speed, phase in birds:  # screen coordinates, flapping
            x = (bx + f * speed) % (w + 40) - 20
            y = by + math.sin(f * 0.1 + phase) * 10
            flap = 6 * math.sin(f * 0.9 + phase)
            draw.line([(x - 8, y - flap), (x, y), (x + 8, y - flap)], fill=dark, width=2)
        if (f // 6) % 2 == 0:  # a blinking sign in the corner of the screen
            draw.rectangle((w - 90, 20, w - 20, 50), fill=yellow, outline=dark, width=2)
        images.append(frame)
    # Passing the palette makes Pillow write it once, as the global colour table, and no local ones.
    images[0].save(
        path, "GIF", save_all=True, append_images=images[1:], duration=40, loop=0,
        optimize=False, palette=bytes(palette),
    )


# --------------------------------------------------------------------------------------------
# The smart-crop photo set (--smartcrop): synthetic photos with one subject off the centre.
# --------------------------------------------------------------------------------------------

SKIN_TONES = [(241, 194, 167), (224, 172, 140), (198, 134, 96), (160, 104, 70), (120, 76, 50)]
CLOTHES = [(200, 40, 50), (30, 70, 170), (230, 180, 30), (40, 140, 70), (150, 50, 150), (240, 110, 30)]


def draw_person(img: Image.Image, rng: random.Random, cx: float, cy: float, head: float) -> tuple[float, float, float, float]:
    """A person seen from the chest up, head of radius `head` centred at (cx, cy): striped
    clothes, skin, hair, eyes and mouth with hard edges. Returns the head's box."""
    draw = ImageDraw.Draw(img)
    skin = mix(rng, rng.choice(SKIN_TONES), 8)
    cloth = mix(rng, rng.choice(CLOTHES), 15)
    h = img.size[1]
    # Shoulders and chest, down to the bottom of the frame, with stripes.
    top = cy + head * 1.5
    body = [(cx - head * 2.6, h + 10), (cx - head * 2.4, top + head * 0.6), (cx - head * 1.2, top),
            (cx + head * 1.2, top), (cx + head * 2.4, top + head * 0.6), (cx + head * 2.6, h + 10)]
    draw.polygon(body, fill=cloth)
    stripe = tuple(max(0, c - 70) for c in cloth)
    y = top + head * 0.4
    while y < min(h, top + head * 6):
        draw.line((cx - head * 2.5, y, cx + head * 2.5, y), fill=stripe, width=max(1, int(head / 12)))
        y += head * 0.35
    draw.polygon(body, outline=(30, 30, 30))
    # Neck, head, hair.
    draw.rectangle((cx - head * 0.4, cy + head * 0.6, cx + head * 0.4, top + head * 0.2), fill=tuple(int(c * 0.85) for c in skin))
    draw.ellipse((cx - head, cy - head * 1.25, cx + head, cy + head * 1.1), fill=skin)
    hair = mix(rng, rng.choice([(40, 30, 25), (90, 60, 30), (20, 20, 20), (160, 120, 60)]), 10)
    draw.chord((cx - head * 1.05, cy - head * 1.35, cx + head * 1.05, cy + head * 0.4), 180, 360, fill=hair)
    for _ in range(60):  # strands
        x0 = cx + rng.uniform(-head, head)
        draw.line((x0, cy - head * rng.uniform(0.6, 1.3), x0 + rng.uniform(-head * 0.2, head * 0.2), cy - head * 0.3),
                  fill=tuple(min(255, c + 30) for c in hair), width=max(1, int(head / 40)))
    # Eyes, brows, nose, mouth.
    for side in (-1, 1):
        ex, ey = cx + side * head * 0.38, cy + head * 0.05
        draw.ellipse((ex - head * 0.17, ey - head * 0.09, ex + head * 0.17, ey + head * 0.09), fill=(245, 245, 240))
        draw.ellipse((ex - head * 0.07, ey - head * 0.07, ex + head * 0.07, ey + head * 0.07), fill=(50, 35, 25))
        draw.line((ex - head * 0.2, ey - head * 0.2, ex + head * 0.2, ey - head * 0.22), fill=hair, width=max(1, int(head / 18)))
    draw.line((cx, cy + head * 0.1, cx - head * 0.08, cy + head * 0.45), fill=tuple(int(c * 0.75) for c in skin), width=max(1, int(head / 25)))
    draw.arc((cx - head * 0.35, cy + head * 0.45, cx + head * 0.35, cy + head * 0.75), 10, 170, fill=(170, 60, 60), width=max(1, int(head / 15)))
    return (cx - head, cy - head * 1.35, cx + head, cy + head * 1.1)


def draw_flowers(img: Image.Image, rng: random.Random, cx: float, cy: float, radius: float) -> tuple[float, float, float, float]:
    """A bunch of saturated flowers on stems around (cx, cy). Returns its box."""
    draw = ImageDraw.Draw(img)
    h = img.size[1]
    for _ in range(14):
        fx, fy = cx + rng.uniform(-radius, radius), cy + rng.uniform(-radius * 0.8, radius * 0.8)
        draw.line((fx, fy, cx + rng.uniform(-radius * 0.2, radius * 0.2), min(h, cy + radius * 3)), fill=(40, 110, 40), width=max(1, int(radius / 30)))
    for _ in range(14):
        fx, fy = cx + rng.uniform(-radius, radius), cy + rng.uniform(-radius * 0.8, radius * 0.8)
        r = rng.uniform(radius * 0.12, radius * 0.25)
        petal = mix(rng, rng.choice([(220, 30, 60), (250, 200, 20), (240, 120, 180), (250, 90, 20)]), 15)
        for k in range(6):
            a = k * math.pi / 3 + rng.uniform(0, 0.3)
            px, py = fx + math.cos(a) * r * 0.8, fy + math.sin(a) * r * 0.8
            draw.ellipse((px - r * 0.55, py - r * 0.55, px + r * 0.55, py + r * 0.55), fill=petal, outline=tuple(c // 2 for c in petal))
        draw.ellipse((fx - r * 0.35, fy - r * 0.35, fx + r * 0.35, fy + r * 0.35), fill=(90, 60, 20))
    return (cx - radius * 1.25, cy - radius * 1.05, cx + radius * 1.25, cy + radius * 1.05)


def make_subject_photo(path: Path, size: tuple[int, int], seed: int) -> tuple[float, float, float, float]:
    """A photo with a shallow depth of field: a landscape without a sun, out of focus (blurred,
    its contrast lowered) behind one sharp subject (a person, or a bunch of flowers) placed well
    off the centre. Returns the subject's box in pixels (left, top, right, bottom)."""
    rng = random.Random(seed)
    w, h = size
    img = scene(rng, (max(1, w // 12), max(1, h // 12)), sun=False).resize(size, BICUBIC).filter(ImageFilter.GaussianBlur(w / 120))
    img = ImageEnhance.Contrast(img).enhance(0.7)
    side = rng.choice((-1, 1))
    if rng.random() < 0.75:
        head = min(w, h) * rng.uniform(0.07, 0.10)
        cx = w * (0.5 + side * rng.uniform(0.2, 0.3))
        cy = h * rng.uniform(0.3, 0.45) if h > w else h * rng.uniform(0.3, 0.5)
        box = draw_person(img, rng, cx, cy, head)
    else:
        radius = min(w, h) * rng.uniform(0.12, 0.16)
        cx, cy = w * (0.5 + side * rng.uniform(0.2, 0.3)), h * (0.5 + rng.choice((-1, 1)) * rng.uniform(0.1, 0.25))
        box = draw_flowers(img, rng, cx, cy, radius)
    luma = noise_image(rng, size, 4)
    img = ImageChops.add(img, Image.merge("RGB", (luma, luma, luma)), offset=-4)
    img.save(path, "JPEG", quality=90, subsampling=2, progressive=False, optimize=False)
    return box


# Six landscape and six portrait photos, 3:2 and 4:3.
SMARTCROP_FILES = {
    f"{'landscape' if w > h else 'portrait'}-{index:02}.jpg": (w, h, 9000 + index)
    for index, (w, h) in enumerate([(2400, 1600), (2400, 1800), (3000, 2000), (2400, 1600), (2000, 1500), (3000, 2000),
                                    (1600, 2400), (1800, 2400), (2000, 3000), (1600, 2400), (1500, 2000), (2000, 3000)])
}


def make_smartcrop_set(out: Path, force: bool) -> int:
    """Writes SMARTCROP_FILES into out/smartcrop with subjects.json (each file's subject box)."""
    folder = out / "smartcrop"
    folder.mkdir(parents=True, exist_ok=True)
    boxes = {}
    for name, (w, h, seed) in SMARTCROP_FILES.items():
        path = folder / name
        tmp = path.with_name(f".{name}.tmp-{os.getpid()}{path.suffix}")
        try:
            # The box comes from the drawing, so every file is drawn; only its write is skipped.
            boxes[name] = [round(v) for v in make_subject_photo(tmp, (w, h), seed)]
            if force or not path.is_file() or sha256(path) != sha256(tmp):
                os.replace(tmp, path)
        finally:
            if tmp.exists():
                tmp.unlink()
        print(f"{name:18} {w}x{h}  subject {boxes[name]}")
    with open(folder / "subjects.json", "w") as fh:
        json.dump(boxes, fh, indent=1, sort_keys=True)
    print(f"smart-crop set in {folder}")
    return 0


# name -> (maker, width, height, frames or None, format, mode or None)
FILES = {
    "photo-6000x4000.jpg": (lambda p: make_photo_jpeg(p, (6000, 4000), 6000), 6000, 4000, None, "JPEG", "RGB"),
    "photo-4000x3000.jpg": (lambda p: make_photo_jpeg(p, (4000, 3000), 4000), 4000, 3000, None, "JPEG", "RGB"),
    "rgba-4000x3000.png": (lambda p: make_rgba_png(p, (4000, 3000), 4300), 4000, 3000, None, "PNG", "RGBA"),
    "palette-1000x1000.png": (lambda p: make_palette_png(p, (1000, 1000), 1000), 1000, 1000, None, "PNG", "P"),
    "anim-500x500x120.gif": (lambda p: make_sticker_gif(p, (500, 500), 120, 500), 500, 500, 120, "GIF", None),
    "anim-800x600x300.gif": (lambda p: make_video_gif(p, (800, 600), 300, 800), 800, 600, 300, "GIF", None),
}


def is_complete(path: Path, name: str) -> bool:
    """True when path exists and has the format, dimensions and frame count that name promises."""
    _, w, h, frames, fmt, mode = FILES[name]
    if not path.is_file():
        return False
    try:
        with Image.open(path) as im:
            if im.format != fmt or im.size != (w, h) or (mode and im.mode != mode):
                return False
            if frames is not None and getattr(im, "n_frames", 1) != frames:
                return False
    except Exception:
        return False
    return True


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def default_dir() -> Path:
    env = os.environ.get("IMGCACHE_BENCH_DIR")
    if env:
        return Path(env)
    return Path(os.environ.get("TMPDIR") or "/tmp") / "imgcache-bench"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", nargs="?", type=Path, help="output directory (default: $IMGCACHE_BENCH_DIR or ${TMPDIR:-/tmp}/imgcache-bench)")
    parser.add_argument("--force", action="store_true", help="regenerate files even when they exist")
    parser.add_argument("--only", action="append", choices=sorted(FILES), metavar="NAME", help="generate only NAME (repeatable)")
    parser.add_argument("--list", action="store_true", help="list the file names and exit")
    parser.add_argument("--smartcrop", action="store_true", help="write the smart-crop photo set to DIR/smartcrop instead")
    args = parser.parse_args()

    if args.list:
        print("\n".join(FILES))
        return 0

    out = (args.dir or default_dir()).expanduser().resolve()
    repo = Path(__file__).resolve().parent.parent
    if out == repo or repo in out.parents:
        print(f"make-corpus.py: {out} is inside the repository {repo}; choose a directory outside it", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    if args.smartcrop:
        return make_smartcrop_set(out, args.force)

    names = args.only or list(FILES)
    started = time.monotonic()
    print(f"corpus directory: {out}")
    for name in names:
        path = out / name
        t0 = time.monotonic()
        if not args.force and is_complete(path, name):
            status = "kept"
        else:
            tmp = path.with_name(f".{name}.tmp-{os.getpid()}{path.suffix}")
            try:
                FILES[name][0](tmp)
                os.replace(tmp, path)
            finally:
                if tmp.exists():
                    tmp.unlink()
            if not is_complete(path, name):
                print(f"make-corpus.py: {name} came out wrong", file=sys.stderr)
                return 1
            status = "wrote"
        _, w, h, frames, fmt, _ = FILES[name]
        shape = f"{w}x{h}" + (f"x{frames}" if frames else "")
        print(f"{status:5} {name:24} {fmt:4} {shape:12} {path.stat().st_size / 1e6:8.2f} MB  {time.monotonic() - t0:6.1f} s")
        sys.stdout.flush()

    # Record the bytes of every file present, so two runs (or two machines) can be compared.
    with open(out / "SHA256SUMS", "w") as sums:
        for name in FILES:
            if (out / name).is_file():
                sums.write(f"{sha256(out / name)}  {name}\n")
    print(f"done in {time.monotonic() - started:.1f} s; checksums in {out / 'SHA256SUMS'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
