#!/usr/bin/env python3
"""Reference Gaussian blur for the blur tests: Pillow's ImageFilter.GaussianBlur.

usage: blur_reference.py INPUT SIGMA OUTPUT

INPUT (any image Pillow reads) is premultiplied (Pillow's "RGBa", so that translucent edges blur
as imgcache blurs them) and blurred with GaussianBlur(radius=SIGMA), whose radius is the standard
deviation in pixels. Writes OUTPUT as raw premultiplied RGBA8 bytes.
"""
import sys

from PIL import Image, ImageFilter

source, sigma, output = sys.argv[1], float(sys.argv[2]), sys.argv[3]
with Image.open(source) as image:
    blurred = image.convert("RGBA").convert("RGBa").filter(ImageFilter.GaussianBlur(radius=sigma))
with open(output, "wb") as handle:
    handle.write(blurred.tobytes())
