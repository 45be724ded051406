"""Colour references for the colour tests, with Pillow's ImageCms (Little CMS, perceptual intent).

  encode RAW W H MODE ICC OUT   writes the MODE pixels of RAW (RGB, L or CMYK) to OUT (.jpg at
                                quality 100 without chroma subsampling, or .png) with ICC embedded
                                (ICC "-" embeds none); with --gama G (PNG only) adds a gAMA chunk
  convert RAW W H MODE ICC OUT  writes the pixels of RAW converted from ICC to sRGB, as raw RGB
  decode-convert IMAGE OUT      decodes IMAGE with Pillow and writes it converted from its embedded
                                profile to sRGB, as raw RGB
"""
import io
import struct
import sys

from PIL import Image, ImageCms, PngImagePlugin


def to_srgb(image, icc):
    source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
    return ImageCms.profileToProfile(
        image, source, ImageCms.createProfile("sRGB"), renderingIntent=0, outputMode="RGB")


def read_pixels(raw, width, height, mode):
    with open(raw, "rb") as file:
        return Image.frombytes(mode, (int(width), int(height)), file.read())


def main(arguments):
    command = arguments[0]
    if command == "encode":
        raw, width, height, mode, icc, out = arguments[1:7]
        image = read_pixels(raw, width, height, mode)
        options = {}
        if icc != "-":
            with open(icc, "rb") as file:
                options["icc_profile"] = file.read()
        if out.endswith(".jpg"):
            options.update(quality=100, subsampling=0)
        if "--gama" in arguments:
            info = PngImagePlugin.PngInfo()
            gamma = float(arguments[arguments.index("--gama") + 1])
            info.add(b"gAMA", struct.pack(">I", round(gamma * 100000)))
            options["pnginfo"] = info
        image.save(out, **options)
    elif command == "convert":
        raw, width, height, mode, icc, out = arguments[1:7]
        with open(icc, "rb") as file:
            converted = to_srgb(read_pixels(raw, width, height, mode), file.read())
        with open(out, "wb") as file:
            file.write(converted.tobytes())
    elif command == "decode-convert":
        path, out = arguments[1:3]
        image = Image.open(path)
        converted = to_srgb(image, image.info["icc_profile"])
        with open(out, "wb") as file:
            file.write(converted.tobytes())
    else:
        sys.exit("unknown command " + command)


main(sys.argv[1:])
