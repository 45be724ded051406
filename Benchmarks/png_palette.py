"""PNG with a palette and alpha: imgcache --palette against the same PNG in RGBA and pngquant.

    Benchmarks/png_palette.py [--runs N] [--colors C]

Each input is first written by imgcache as a truecolour PNG at its benchmark size (RGBA when
translucent): the reference. Then, each reading that reference and writing a PNG, timed N times
(default 5; the median is reported): imgcache decode into RGBA again, imgcache decode --palette C
(default 256), pngquant C (Floyd-Steinberg dithering at full strength, its default) and
pngquant --nofs C. Reports bytes, the PSNR against the reference over premultiplied RGBA (what a
viewer composites: the colour a fully transparent pixel hides does not count) and the time.

Inputs: Samples/media/badge.png (a translucent 640x640 icon) as it is and fitted to 180x180; the
benchmark corpus's translucent rgba-4000x3000.png fitted to 1032x486 (a medium widget); and the
medium top wallpaper slice of Samples/media/home-screen.png (opaque).

Environment: IMGCACHE (default .build/release/imgcache), IMGCACHE_BENCH_DIR (default
${TMPDIR:-/tmp}/imgcache-bench; make bench-corpus writes it), PNGQUANT (default pngquant).
Prints a markdown table. Exit status 2 when a tool or input is missing, 3 when a tool fails.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fail(status, message):
    print(f"png_palette.py: {message}", file=sys.stderr)
    sys.exit(status)


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        fail(3, f"{' '.join(command)} exited {result.returncode}: {result.stderr.strip()}")


def premultiplied(path):
    pixels = numpy.asarray(Image.open(path).convert("RGBA")).astype(numpy.float64)
    pixels[..., :3] = numpy.floor((pixels[..., :3] * pixels[..., 3:4] + 127) / 255)
    return pixels


def psnr(reference, path):
    error = ((premultiplied(path) - reference) ** 2).mean()
    return float("inf") if error == 0 else 10 * numpy.log10(255**2 / error)


def median_ms(command, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run(command)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(add_help=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--colors", type=int, default=256)
    options = parser.parse_args()
    imgcache = os.environ.get("IMGCACHE", os.path.join(ROOT, ".build/release/imgcache"))
    pngquant = os.environ.get("PNGQUANT", "pngquant")
    bench_dir = os.environ.get("IMGCACHE_BENCH_DIR", os.path.join(os.environ.get("TMPDIR", "/tmp"), "imgcache-bench"))
    corpus_rgba = os.path.join(bench_dir, "rgba-4000x3000.png")
    if not os.access(imgcache, os.X_OK):
        fail(2, f"{imgcache} is missing: make release, or set IMGCACHE")
    if shutil.which(pngquant) is None:
        fail(2, f"{pngquant} is missing: apt-get install pngquant, or make setup")
    if not os.path.exists(corpus_rgba):
        fail(2, f"{corpus_rgba} is missing: make bench-corpus")

    work = tempfile.mkdtemp(prefix="imgcache-png-palette-")
    media = os.path.join(ROOT, "Samples/media")
    slice_png = os.path.join(work, "slice.png")
    run([imgcache, "slice", os.path.join(media, "home-screen.png"), "--widget", "medium", "--position", "top", "-o", slice_png])
    inputs = [
        ("badge icon 640x640", os.path.join(media, "badge.png"), "640x640"),
        ("badge icon 180x180", os.path.join(media, "badge.png"), "180x180"),
        ("translucent photo 1032x486", corpus_rgba, "1032x486"),
        ("wallpaper slice (opaque)", slice_png, None),
    ]
    colors = str(options.colors)
    print(f"PNG palette benchmark: {options.colors} colours, median of {options.runs} runs, "
          f"{os.cpu_count()} cores, {subprocess.run([pngquant, '--version'], capture_output=True, text=True).stdout.strip()}")
    print()
    print("| input | writer | bytes | vs RGBA | PSNR dB | ms |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for index, (name, source, size) in enumerate(inputs):
        reference = os.path.join(work, f"ref{index}.png")
        size = size or "x".join(map(str, Image.open(source).size))
        run([imgcache, "decode", source, "--size", size, "-o", reference])
        reference_pixels = premultiplied(reference)
        writers = [
            ("imgcache RGBA", lambda out: [imgcache, "decode", reference, "--size", size, "-o", out]),
            (f"imgcache --palette {colors}", lambda out: [imgcache, "decode", reference, "--size", size, "--palette", colors, "-o", out]),
            (f"pngquant {colors} (dither)", lambda out: [pngquant, "--force", "--output", out, colors, reference]),
            (f"pngquant --nofs {colors}", lambda out: [pngquant, "--force", "--nofs", "--output", out, colors, reference]),
        ]
        rgba_bytes = None
        for label, command in writers:
            output = os.path.join(work, f"out{index}-{len(label)}.png")
            milliseconds = median_ms(command(output), options.runs)
            size_bytes = os.path.getsize(output)
            rgba_bytes = rgba_bytes or size_bytes
            quality = psnr(reference_pixels, output)
            print(f"| {name} | {label} | {size_bytes} | {size_bytes / rgba_bytes:.2f} | "
                  f"{'lossless' if quality == float('inf') else f'{quality:.2f}'} | {milliseconds:.0f} |")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
