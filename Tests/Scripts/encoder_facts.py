"""What Pillow reads in an encoded image, for the encoder control tests.

Usage: encoder_facts.py IMAGE [RGBA_OUT]

Prints one JSON object: format, mode, width, height; for a JPEG "progressive" (Pillow's
info["progressive"]) and "sampling" (JpegImagePlugin.get_sampling: 0 is 4:4:4, 2 is 4:2:0); for a
PNG "palette_entries" (PLTE's entries) and "transparency" (True when it has a tRNS chunk). With
RGBA_OUT, writes the image converted to RGBA there as raw bytes.
"""
import json
import sys

from PIL import Image, JpegImagePlugin


def main():
    image = Image.open(sys.argv[1])
    facts = {"format": image.format, "mode": image.mode, "width": image.width, "height": image.height}
    if image.format == "JPEG":
        facts["progressive"] = bool(image.info.get("progressive", 0))
        facts["sampling"] = JpegImagePlugin.get_sampling(image)
    if image.format == "PNG":
        facts["transparency"] = "transparency" in image.info
        if image.mode == "P":
            facts["palette_entries"] = len(image.getpalette()) // 3
    if len(sys.argv) > 2:
        with open(sys.argv[2], "wb") as output:
            output.write(image.convert("RGBA").tobytes())
    print(json.dumps(facts))


if __name__ == "__main__":
    main()
