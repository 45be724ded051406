#!/usr/bin/env python3
"""Where a crop was cut from: the offset of CROP inside FILL (the same picture before the crop).

Usage: python3 Benchmarks/peers/crop_window.py FILL CROP [FILL CROP ...]

Prints one line a pair, "X Y MEAN_ABS_DIFF": the top left corner of the window of FILL that CROP
matches best (least mean absolute difference over every channel, 0 to 255), found on a 1/4 scale
first and refined at full scale. The images need not come from one resampler: smartcrop.sh
matches vipsthumbnail's crop against vips's own fill and imgcache's against its own. Needs
Pillow and numpy.
"""

from __future__ import annotations

import sys

import numpy as np
from PIL import Image


def load(path: str) -> np.ndarray:
    with Image.open(path) as im:
        return np.asarray(im.convert("RGB"), dtype=np.float32)


def best(fill: np.ndarray, crop: np.ndarray, xs: range, ys: range) -> tuple[int, int, float]:
    h, w = crop.shape[:2]
    found = (0, 0, float("inf"))
    for y in ys:
        for x in xs:
            diff = float(np.abs(fill[y : y + h, x : x + w] - crop).mean())
            if diff < found[2]:
                found = (x, y, diff)
    return found


def window(fill: np.ndarray, crop: np.ndarray) -> tuple[int, int, float]:
    fh, fw = fill.shape[:2]
    h, w = crop.shape[:2]
    if w > fw or h > fh:
        raise SystemExit(f"crop_window.py: the crop {w}x{h} is larger than the fill {fw}x{fh}")
    # A quarter scale: every 4th pixel of both, every 4th offset.
    x0, y0, _ = best(fill[::4, ::4], crop[::4, ::4][: (h + 3) // 4, : (w + 3) // 4],
                     range(0, (fw - w) // 4 + 1), range(0, (fh - h) // 4 + 1))
    x0, y0 = 4 * x0, 4 * y0
    return best(fill, crop, range(max(0, x0 - 4), min(fw - w, x0 + 4) + 1), range(max(0, y0 - 4), min(fh - h, y0 + 4) + 1))


def main() -> int:
    args = sys.argv[1:]
    if not args or len(args) % 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    for fill, crop in zip(args[::2], args[1::2]):
        x, y, diff = window(load(fill), load(crop))
        print(f"{x} {y} {diff:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
