#!/usr/bin/env python3
"""Builds and signs imgproxy URLs with the imgproxy PyPI package (klen/imgproxy), for the serve
URL tests: the URLs a Python service's existing signing code makes.

Reads a JSON object on standard input:
  {"key": HEX or null, "salt": HEX or null,
   "cases": [{"source": URL, "plain": BOOL, "extension": EXT or "",
              "params": {ImgProxy keyword arguments: resizing_type, width, height, gravity, enlarge},
              "advanced": [OPTION, ...]}, ...]}
and prints {"version": the package's version, "paths": [the path of each case, from its signature on]}.

The package writes `/SIGNATURE/ADVANCED.../g:GRAVITY/rs:TYPE:WIDTH:HEIGHT:ENLARGE/BASE64[.EXT]`
and signs that path. It has no plain sources; for those the source is left empty and the
`plain/PERCENT-ENCODED@EXT` part is given in place of the extension, which the package puts
right after the (empty) base64 source, so that the package still builds the whole path it signs.
"""

import json
import sys
import urllib.parse
from importlib.metadata import version

from imgproxy import ImgProxy


def path(case, key, salt):
    params = dict(case.get("params", {}))
    extension = case.get("extension", "")
    if case.get("plain"):
        url = ImgProxy("", key=key, salt=salt, **params)
        plain = "plain/" + urllib.parse.quote(case["source"], safe="") + ("@" + extension if extension else "")
        return url(*case.get("advanced", []), extension=plain)
    url = ImgProxy(case["source"], key=key, salt=salt, extension=extension, **params)
    return url(*case.get("advanced", []))


def main():
    request = json.load(sys.stdin)
    paths = [path(case, request.get("key"), request.get("salt")) for case in request["cases"]]
    json.dump({"version": version("imgproxy"), "paths": paths}, sys.stdout)


if __name__ == "__main__":
    main()
