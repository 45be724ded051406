#!/usr/bin/env python3
"""Pillow filling a box with a centre crop, many files in one process: a peer for throughput.sh.

Usage:
    python3 Benchmarks/peers/pillow_fill_batch.py WxH OUTDIR IN... [--quality Q]

For every IN, in order: scale to cover WxH (aspect ratio kept), cut the centre WxH and write
OUTDIR/<IN's name without extension>.jpg as a JPEG at quality Q (85) with optimised Huffman tables.
A JPEG is first reduced in the DCT domain with draft(), to the smallest libjpeg scale that still
covers the box (so never below the target); resize() then reads only the centre window
(ImageOps.fit's geometry) with Pillow's LANCZOS filter, the one thumbnail() uses. Prints the
number of files written. Fails on the first file it cannot read or write.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from PIL import Image, ImageOps


def parse_box(text: str) -> tuple[int, int]:
    width, _, height = text.partition("x")
    try:
        return int(width), int(height)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WxH, e.g. 510x510, not {text!r}") from None


def covering(size: tuple[int, int], box: tuple[int, int]) -> tuple[int, int]:
    """The smallest size with size's aspect ratio that covers box."""
    scale = max(box[0] / size[0], box[1] / size[1])
    return max(box[0], round(size[0] * scale)), max(box[1], round(size[1] * scale))


def fill(source: Path, output: Path, box: tuple[int, int], quality: int) -> None:
    with Image.open(source) as im:
        if im.format == "JPEG":
            im.draft("RGB", covering(im.size, box))
        image = ImageOps.exif_transpose(im) if "exif" in im.info else im
        if image.mode != "RGB":
            image = image.convert("RGB")
        filled = ImageOps.fit(image, box, method=Image.Resampling.LANCZOS, centering=(0.5, 0.5))
    filled.save(output, "JPEG", quality=quality, optimize=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("box", type=parse_box, metavar="WxH")
    parser.add_argument("outdir", type=Path)
    parser.add_argument("inputs", nargs="+", type=Path, metavar="IN")
    parser.add_argument("--quality", type=int, default=85, help="JPEG quality (default 85)")
    args = parser.parse_args()

    for source in args.inputs:
        fill(source, args.outdir / f"{source.stem}.jpg", args.box, args.quality)
    print(len(args.inputs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
