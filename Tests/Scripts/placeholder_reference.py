#!/usr/bin/env python3
"""Reference placeholders for the image-facts tests: PyPI `blurhash` and `thumbhash`.

usage: placeholder_reference.py encode IMAGE
    prints {"blurhash": ..., "thumbhash": BASE64} of IMAGE's pixels as they are: BlurHash (4 x 3)
    of its RGB, ThumbHash of its RGBA (IMAGE at most 100 x 100).
usage: placeholder_reference.py compare IMAGE BLURHASH THUMBHASH
    encodes IMAGE (any size) with the references (BlurHash over every pixel; ThumbHash of the
    package's own 100 x 100 thumbnail; IMAGE opaque, as the package fails on alpha), decodes both pairs of placeholders to 32-pixel pictures
    and prints the mean and largest absolute difference between ours and the reference's, per
    channel value 0...255: {"blurhash_mean": .., "blurhash_max": .., "thumbhash_mean": .., "thumbhash_max": ..}.
"""
import base64
import json
import math
import sys

import blurhash
import thumbhash
from PIL import Image


def rgb_rows(image):
    rgb = image.convert("RGB")
    width, height = rgb.size
    data = rgb.tobytes()
    return [[data[(y * width + x) * 3:(y * width + x) * 3 + 3] for x in range(width)] for y in range(height)]


def thumbhash_picture(hash_bytes):
    """ThumbHash decoded to RGBA as the original JavaScript does (the package's decoder keeps
    the first pixel's cosines for every pixel)."""
    h24 = hash_bytes[0] | hash_bytes[1] << 8 | hash_bytes[2] << 16
    h16 = hash_bytes[3] | hash_bytes[4] << 8
    l_dc, p_dc, q_dc = (h24 & 63) / 63, ((h24 >> 6) & 63) / 31.5 - 1, ((h24 >> 12) & 63) / 31.5 - 1
    l_scale, has_alpha = ((h24 >> 18) & 31) / 31, h24 >> 23
    p_scale, q_scale, landscape = ((h16 >> 3) & 63) / 63, ((h16 >> 9) & 63) / 63, h16 >> 15
    lx = max(3, (5 if has_alpha else 7) if landscape else h16 & 7)
    ly = max(3, h16 & 7 if landscape else (5 if has_alpha else 7))
    a_dc = (hash_bytes[5] & 15) / 15 if has_alpha else 1
    a_scale = (hash_bytes[5] >> 4) / 15 if has_alpha else 0
    start, index = (6 if has_alpha else 5), 0

    def channel(nx, ny, scale):
        nonlocal index
        ac = []
        for cy in range(ny):
            cx = 0 if cy else 1
            while cx * ny < nx * (ny - cy):
                ac.append((((hash_bytes[start + (index >> 1)] >> ((index & 1) << 2)) & 15) / 7.5 - 1) * scale)
                index += 1
                cx += 1
        return ac

    l_ac, p_ac, q_ac = channel(lx, ly, l_scale), channel(3, 3, p_scale * 1.25), channel(3, 3, q_scale * 1.25)
    a_ac = channel(5, 5, a_scale) if has_alpha else []
    w, h = 32, 32
    pixels = []
    for y in range(h):
        for x in range(w):
            fx = [math.cos(math.pi / w * (x + 0.5) * c) for c in range(max(lx, 5 if has_alpha else 3))]
            fy = [math.cos(math.pi / h * (y + 0.5) * c) for c in range(max(ly, 5 if has_alpha else 3))]
            l, p, q, a = l_dc, p_dc, q_dc, a_dc
            j = 0
            for cy in range(ly):
                cx = 0 if cy else 1
                while cx * ly < lx * (ly - cy):
                    l += l_ac[j] * fx[cx] * fy[cy] * 2
                    j += 1
                    cx += 1
            j = 0
            for cy in range(3):
                for cx in range(0 if cy else 1, 3 - cy):
                    p += p_ac[j] * fx[cx] * fy[cy] * 2
                    q += q_ac[j] * fx[cx] * fy[cy] * 2
                    j += 1
            j = 0
            for cy in range(5 if has_alpha else 0):
                for cx in range(0 if cy else 1, 5 - cy):
                    a += a_ac[j] * fx[cx] * fy[cy] * 2
                    j += 1
            b = l - 2 / 3 * p
            r = (3 * l - b + q) / 2
            g = r - q
            pixels += [max(0, min(255, round(255 * v))) for v in (r, g, b, a)]
    return pixels


def differences(ours, theirs):
    diffs = [abs(a - b) for a, b in zip(ours, theirs)]
    return sum(diffs) / len(diffs), max(diffs)


def blurhash_picture(text):
    return [value for row in blurhash.decode(text, 32, 32) for pixel in row for value in pixel]


def main():
    mode, path = sys.argv[1], sys.argv[2]
    with Image.open(path) as image:
        image.load()
        if mode == "encode":
            rgba = image.convert("RGBA")
            result = {
                "blurhash": blurhash.encode(rgb_rows(image), 4, 3),
                "thumbhash": base64.b64encode(bytes(
                    thumbhash.rgba_to_thumb_hash(rgba.width, rgba.height, list(rgba.tobytes())))).decode(),
            }
        else:
            ours_blur, ours_thumb = sys.argv[3], list(base64.b64decode(sys.argv[4]))
            reference_blur = blurhash.encode(rgb_rows(image), 4, 3)
            reference_thumb = thumbhash.image_to_thumb_hash(path)
            blur_mean, blur_max = differences(blurhash_picture(ours_blur), blurhash_picture(reference_blur))
            thumb_mean, thumb_max = differences(thumbhash_picture(ours_thumb), thumbhash_picture(reference_thumb))
            result = {"blurhash_mean": blur_mean, "blurhash_max": blur_max,
                      "thumbhash_mean": thumb_mean, "thumbhash_max": thumb_max,
                      "reference_blurhash": reference_blur}
    print(json.dumps(result))


main()
