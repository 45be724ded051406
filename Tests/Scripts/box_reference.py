#!/usr/bin/env python3
"""Reference downsampling for the resampler quality tests: an exact area average made with Pillow.

usage: box_reference.py INPUT WIDTH HEIGHT UPSAMPLE OUTPUT

The image is premultiplied (Pillow's "RGBa"), enlarged UPSAMPLE times with NEAREST (each pixel
becomes an UPSAMPLE x UPSAMPLE block, which changes no area), then reduced to WIDTH x HEIGHT with
Pillow's BOX filter. With the ratio a whole number after enlarging, BOX averages whole blocks, so
the result is the exact coverage-weighted area average even for a ratio such as 12/7.
Writes OUTPUT as raw premultiplied RGBA8 bytes.
"""
import sys

from PIL import Image

source, width, height, upsample, output = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
with Image.open(source) as image:
    premultiplied = image.convert("RGBA").convert("RGBa")
    if upsample > 1:
        size = (premultiplied.width * upsample, premultiplied.height * upsample)
        premultiplied = premultiplied.resize(size, Image.Resampling.NEAREST)
    reduced = premultiplied.resize((width, height), Image.Resampling.BOX)
    with open(output, "wb") as handle:
        handle.write(reduced.tobytes())
