#!/usr/bin/env python3
"""Pillow filling a box exactly (centre crop), with HEIC through pillow-heif, as a peer for
Benchmarks/heif.sh.

Usage:
    python3 Benchmarks/peers/pillow_fill.py IN OUT WxH [--quality Q]

Opens IN (HEIC through pillow-heif's opener; AVIF, JPEG, PNG, WebP through Pillow itself),
scales it so that it covers WxH and crops the centre, then writes OUT as JPEG at quality Q (85).
Neither HEIC nor AVIF scales while decoding, so the whole image is decoded; the resize then takes
Pillow's fast path (reduce() by whole factors first, reducing_gap 3, then Lanczos), as thumbnail()
does.
"""

from __future__ import annotations

import argparse
import sys

from PIL import Image
from pillow_heif import register_heif_opener


def cover_box(size: tuple[int, int], box: tuple[int, int]) -> tuple[float, float, float, float]:
    """The centred part of an image of `size` with the aspect ratio of `box`."""
    width, height = size
    scale = max(box[0] / width, box[1] / height)
    crop_width, crop_height = min(width, box[0] / scale), min(height, box[1] / scale)
    left, top = (width - crop_width) / 2, (height - crop_height) / 2
    return left, top, left + crop_width, top + crop_height


def parse_box(text: str) -> tuple[int, int]:
    width, _, height = text.partition("x")
    try:
        return int(width), int(height)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WxH, e.g. 1032x486, not {text!r}") from None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("box", type=parse_box)
    parser.add_argument("--quality", type=int, default=85)
    arguments = parser.parse_args()
    register_heif_opener()
    with Image.open(arguments.input) as image:
        image = image.convert("RGB")
        filled = image.resize(arguments.box, Image.Resampling.LANCZOS,
                              box=cover_box(image.size, arguments.box), reducing_gap=3.0)
    filled.save(arguments.output, quality=arguments.quality)
    return 0


if __name__ == "__main__":
    sys.exit(main())
