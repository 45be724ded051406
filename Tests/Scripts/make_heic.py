"""Writes a HEIC like a phone's: a grid of tile x tile HEVC tiles (an iPhone uses 512x512) over a
width x height photo-like picture (gradients, shapes and sensor-like noise), 4:2:0, quality 85,
with pillow-heif. Used by tests and benchmarks; nothing binary is kept in the repository.
With ORIENTATION (an EXIF orientation, 1-8), the picture is stored as drawn and shown turned
that way: pillow-heif writes the turn as the grid's irot/imir.

Usage: python3 make_heic.py WIDTH HEIGHT TILE OUTPUT [ORIENTATION]
"""
import sys

import numpy as np
import pillow_heif
from PIL import Image


def picture(width: int, height: int) -> Image.Image:
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    u, v = x / width, y / height
    red = 255 * u
    green = 255 * v
    blue = 128 + 100 * np.sin(12 * u + 7 * v)
    disc = (u - 0.6) ** 2 + (v - 0.4) ** 2 < 0.04
    red[disc], green[disc], blue[disc] = 240, 200, 60
    noise = np.random.default_rng(1).normal(0, 2, (height, width)).astype(np.float32)
    rgb = np.stack([red + noise, green + noise, blue - noise], axis=-1)
    return Image.fromarray(np.clip(rgb, 0, 255).astype(np.uint8), "RGB")


def main() -> None:
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__)
    width, height, tile = (int(value) for value in sys.argv[1:4])
    heif = pillow_heif.from_pillow(picture(width, height))
    if len(sys.argv) == 6:
        exif = Image.Exif()
        exif[0x0112] = int(sys.argv[5])
        heif.info["exif"] = exif.tobytes()
    heif.save(sys.argv[4], quality=85, tile_size=tile, chroma=420)


if __name__ == "__main__":
    main()
