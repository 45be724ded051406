#!/usr/bin/env python3
"""The tables of smartcrop.sh, from the files it writes.

Usage: python3 Benchmarks/peers/smartcrop_report.py CASES WINDOWS SUBJECTS TIMES CROPS

CASES: a line a crop, "NAME SHAPE WxH SOURCE_W SOURCE_H FILL_W FILL_H VIPS_FILL_W VIPS_FILL_H";
WINDOWS: crop_window.py's lines, two a crop (imgcache's window in its fill, then vips's in its);
SUBJECTS: make-corpus.py's subjects.json (each photo's subject box in source pixels); TIMES: a
line a timed run, "TOOL GRAVITY WALL USER SYSTEM" (seconds) for the whole set of CROPS crops. Prints markdown.
"""

from __future__ import annotations

import json
import statistics
import sys


def main() -> int:
    if len(sys.argv) != 6:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    cases = [line.split() for line in open(sys.argv[1])]
    windows = [list(map(float, line.split())) for line in open(sys.argv[2])]
    subjects = json.load(open(sys.argv[3]))
    crops = int(sys.argv[5])

    shapes: dict[str, list[dict[str, float]]] = {}
    worst_match = 0.0
    for index, (name, shape, box, sw, sh, fw, fh, vw, vh) in enumerate(cases):
        w, h = map(int, box.split("x"))
        sw, sh, fw, fh, vw, vh = map(int, (sw, sh, fw, fh, vw, vh))
        ix, iy, _ = windows[2 * index]
        vx, vy, match = windows[2 * index + 1]
        worst_match = max(worst_match, match)
        vx, vy = vx * fw / vw, vy * fh / vh  # vips's window in imgcache's fill (they differ by a pixel at most)
        cx, cy = round((fw - w) / 2), round((fh - h) / 2)
        along = fw if fw - w >= fh - h else fh  # the side the window moves along

        def distance(x: float, y: float) -> float:
            return max(abs(x - vx), abs(y - vy)) / along

        left, top, right, bottom = subjects[name + ".jpg"]
        px, py = (left + right) / 2 * fw / sw, (top + bottom) / 2 * fh / sh

        def holds(x: float, y: float) -> float:
            return 1.0 if x <= px < x + w and y <= py < y + h else 0.0

        shapes.setdefault(shape, []).append({
            "smart": distance(ix, iy), "centre": distance(cx, cy),
            "smart_holds": holds(ix, iy), "vips_holds": holds(vx, vy), "centre_holds": holds(cx, cy),
        })

    every = [row for rows in shapes.values() for row in rows]
    print("## Windows (distance from vips's attention window, as a fraction of the side it moves along)")
    print()
    print("| shape | crops | imgcache smart | centre crop | subject kept: imgcache smart | vips attention | centre |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for shape, rows in list(shapes.items()) + [("all", every)]:
        mean = lambda key: statistics.mean(row[key] for row in rows)  # noqa: E731
        print(f"| {shape} | {len(rows)} | {mean('smart'):.3f} | {mean('centre'):.3f} | "
              f"{mean('smart_holds'):.0%} | {mean('vips_holds'):.0%} | {mean('centre_holds'):.0%} |")
    same = sum(1 for row in every if row["smart"] <= 0.02)
    print()
    print(f"imgcache's window is within 2% of vips's in {same} of {len(every)} crops. "
          f"Worst mean absolute difference of a crop against its fill when matched: {worst_match:.2f} of 255.")

    wall: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    for line in open(sys.argv[4]):
        tool, gravity, real, user, system = line.split()
        wall.setdefault(f"{tool} {gravity}", []).append(float(real))
        cpu.setdefault(f"{tool} {gravity}", []).append(float(user) + float(system))
    print()
    print(f"## Time per crop (median of {len(next(iter(wall.values())))} rounds of {crops} crops, ms, written as JPEG)")
    print()
    print("| tool | centre crop: wall | CPU | smart crop: wall | CPU | smart adds: wall | CPU |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for tool, centre, smart in (("imgcache", "imgcache center", "imgcache smart"), ("vipsthumbnail", "vips centre", "vips attention")):
        w = {key: statistics.median(wall[key]) / crops * 1000 for key in (centre, smart)}
        c = {key: statistics.median(cpu[key]) / crops * 1000 for key in (centre, smart)}
        print(f"| {tool} | {w[centre]:.1f} | {c[centre]:.1f} | {w[smart]:.1f} | {c[smart]:.1f} | "
              f"{w[smart] - w[centre]:+.1f} | {c[smart] - c[centre]:+.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
