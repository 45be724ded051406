#!/usr/bin/env python3
"""Reference Gaussian blur for the blur tests and benchmark: Pillow's ImageFilter.GaussianBlur.

usage: blur_reference.py INPUT SIGMA OUTPUT [REPEAT]

INPUT (any image Pillow reads) is premultiplied (Pillow's "RGBa", so that translucent edges blur
as imgcache blurs them) and blurred with GaussianBlur(radius=SIGMA), whose radius is the standard
deviation in pixels. Writes OUTPUT as raw premultiplied RGBA8 bytes. With REPEAT, the blur is run
that many times and the median time of one blur is printed in milliseconds (the image is loaded
and premultiplied once, outside the timing).
"""
import statistics
import sys
import time

from PIL import Image, ImageFilter

source, sigma, output = sys.argv[1], float(sys.argv[2]), sys.argv[3]
repeat = int(sys.argv[4]) if len(sys.argv) > 4 else 0
with Image.open(source) as image:
    premultiplied = image.convert("RGBA").convert("RGBa")
    premultiplied.load()
blur = ImageFilter.GaussianBlur(radius=sigma)
blurred = premultiplied.filter(blur)
if repeat > 0:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        premultiplied.filter(blur)
        times.append((time.perf_counter() - start) * 1000)
    print(f"{statistics.median(times):.2f}")
with open(output, "wb") as handle:
    handle.write(blurred.tobytes())
