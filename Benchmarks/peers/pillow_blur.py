#!/usr/bin/env python3
"""The Pillow peer of blur.sh: ImageFilter.GaussianBlur of an image, timed in this process.

usage: pillow_blur.py INPUT SIGMA RUNS

Prints two lines, "premultiplied MEDIAN P95" and "filter-only MEDIAN P95" (milliseconds over RUNS
runs after one warm-up): the same job as imgcache's GaussianBlur (straight RGBA premultiplied,
blurred at SIGMA pixels, back to straight RGBA), and GaussianBlur alone on the image already
premultiplied. The image is decoded once, outside the timing.
"""
import statistics
import sys
import time

from PIL import Image, ImageFilter

source, sigma, runs = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
with Image.open(source) as image:
    straight = image.convert("RGBA")
    straight.load()
premultiplied = straight.convert("RGBa")
blur = ImageFilter.GaussianBlur(radius=sigma)


def timed(job):
    job()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        job()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.95 + 0.999) - 1)]


for name, job in [
    ("premultiplied", lambda: straight.convert("RGBa").filter(blur).convert("RGBA")),
    ("filter-only", lambda: premultiplied.filter(blur)),
]:
    median, p95 = timed(job)
    print(f"{name} {median:.2f} {p95:.2f}")
