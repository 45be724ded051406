#!/usr/bin/env python3
"""Pillow's fastest thumbnail path, as a peer for Benchmarks/compare.sh.

Usage:
    python3 Benchmarks/peers/pillow_thumbnail.py IN OUT WxH [--frames N] [--quality Q]

Fits IN inside WxH (aspect ratio kept, never enlarged) and writes OUT in the format of its
extension: JPEG at quality Q (85) with optimised Huffman tables, PNG at zlib level 6, or GIF.
A JPEG is first reduced in the DCT domain with draft(), asking for twice the fitted size, then
thumbnail() finishes. For GIF, only the first N frames (default 8) are read: Pillow decodes
frames in order on seek(), so the rest of the file is never decoded; each frame is composited
(Pillow's default), fitted and quantised again by Pillow's GIF writer.
"""

from __future__ import annotations

import argparse
import sys

from PIL import Image


def fitted(size: tuple[int, int], box: tuple[int, int]) -> tuple[int, int]:
    """The largest size inside box with size's aspect ratio, never larger than size."""
    scale = min(box[0] / size[0], box[1] / size[1], 1.0)
    return max(1, round(size[0] * scale)), max(1, round(size[1] * scale))


def parse_box(text: str) -> tuple[int, int]:
    width, _, height = text.partition("x")
    try:
        return int(width), int(height)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WxH, e.g. 1014x474, not {text!r}") from None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("box", type=parse_box, metavar="WxH")
    parser.add_argument("--frames", type=int, default=8, help="frames kept from an animation (default 8)")
    parser.add_argument("--quality", type=int, default=85, help="JPEG quality (default 85)")
    args = parser.parse_args()

    with Image.open(args.input) as im:
        if im.format == "JPEG":
            w, h = fitted(im.size, args.box)
            im.draft("RGB", (2 * w, 2 * h))
        if getattr(im, "n_frames", 1) > 1 and args.output.lower().endswith(".gif"):
            frames, durations = [], []
            for index in range(min(args.frames, im.n_frames)):
                im.seek(index)
                frame = im.convert("RGBA")
                frame.thumbnail(args.box)
                frames.append(frame)
                durations.append(im.info.get("duration", 100))
            frames[0].save(
                args.output, save_all=True, append_images=frames[1:], duration=durations,
                loop=im.info.get("loop", 0), disposal=2,
            )
            return 0
        im.thumbnail(args.box)
        if args.output.lower().endswith((".jpg", ".jpeg")):
            im.convert("RGB").save(args.output, quality=args.quality, optimize=True)
        else:
            im.save(args.output, compress_level=6)
    return 0


if __name__ == "__main__":
    sys.exit(main())
