#!/usr/bin/env python3
"""A misbehaving HTTP/1.1 server on 127.0.0.1 for the DataLoader integration tests (stdlib only).

    fault_server.py --root DIR --port-file FILE [--port N]

Serves the files in DIR at /<name> and the fault paths below; binds port N (default 0: any free
port) and, once listening, writes the port number to FILE (atomically, by rename). Connections are
numbered from 1 as they are accepted, and every request is recorded under its path without the
query with the number of the connection it came over: GET /_connections/<path> answers those
numbers in order, separated by spaces, as plain text (one per request; empty for none).

    /headers                the request's headers, one "Name: value" line each, as plain text
    /404, /500              always that status
    /flaky                  500 twice, then the image (ok.jpg)
    /429?after=S[&form=date] 429 with Retry-After: S seconds (or an HTTP-date S seconds ahead)
                            on the first request, then the image
    /stall                  reads the request, never answers; waits up to 30 s for the client to
                            hang up; GET /_stall answers when it did ("<unix time>", or "waiting")
    /delay?seconds=S        the image after S seconds (default 0.2)
    /delayed/NAME?seconds=S the image after S seconds (default 0.3), counted per NAME: GET
                            /_counts?prefix=P answers "PATH COUNT" lines for the paths starting with P
    /hold/NAME              records NAME's arrival, then holds the answer (the image) until a
                            GET /_release lets it go (at most 120 s); GET /_arrivals answers the
                            NAMEs in arrival order, separated by spaces; /_release?count=N lets N
                            held answers go (default 1), /_release?all=1 every one, now and later
    /slow?interval=T&bytes=N headers with Content-Length N, then one byte every T seconds
    /truncated              Content-Length 10000, sends 3000 bytes, closes
    /reset                  closes the connection with a TCP reset before answering
    /redirect-loop          302 to itself
    /redirects/N            302 to /redirects/N-1; /redirects/0 is the image
    /redirect-to?url=U      302 to U (for non-http schemes)
    /lie                    Content-Length 1000, then 2000 bytes (a forged response among them) on a
                            kept-alive connection, headers and body in one write
    /lie-late               the image, then 100 ms later junk that is no HTTP response on the same
                            kept-alive connection (libcurl reads no further than Content-Length once
                            the headers are in, so the junk waits there for the next request)
    /forge-late             the image, then 100 ms later a whole forged response on the same
                            kept-alive connection: Content-Length 5, body "wrong"
                            GET /_late answers "sent" once the late bytes of a /lie-late or
                            /forge-late have been written (waiting up to 30 s; "waiting" if not)
    /endless[?rate=B]       a chunked body that never ends (at B bytes a second); GET /_endless
                            answers "<bytes sent> <unix time the client closed>", or "running"
    /big?length=N           Content-Length N, then nothing for 10 s, then zeros
    /gzip[?bytes=N]         the image, or N zero bytes, with Content-Encoding: gzip
    /etag                   the image with ETag "v1"; If-None-Match "v1" -> 304
    /notmodified            304 whatever the request
    /nocache, /nostore      the image with Cache-Control: no-cache / no-store
    /maxage/N[?age=A]       the image with Cache-Control: max-age=N (and Age: A)
    /expires                the image with a Date an hour slow and Expires two minutes after it
"""

import argparse
import email.utils
import gzip
import itertools
import os
import socket
import struct
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from server_lifetime import tie_to_parent

# Path -> the numbers of the connections its requests came over, in order.
REQUESTS = {}
CONNECTIONS = itertools.count(1)
LOCK = threading.Lock()
# How the last /endless ended: body bytes written, and when the client closed the connection.
ENDLESS = {}
# When the client of the last /stall closed its connection.
STALL = {}
# The names of /hold/NAME requests in arrival order, the permits that let held answers go, and
# whether they go at once (after /_release?all=1).
ARRIVALS = []
HOLD_PERMITS = threading.Semaphore(0)
HOLD_OPEN = threading.Event()
# Set once the late bytes of a /lie-late or /forge-late answer have been written.
LATE_SENT = threading.Event()
ROOT = "."


def record(path, connection):
    """Records a request for path over connection; returns how many path has had, this one included."""
    with LOCK:
        REQUESTS.setdefault(path, []).append(connection)
        return len(REQUESTS[path])


def http_date(seconds):
    return email.utils.formatdate(seconds, usegmt=True)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fault_server"

    def setup(self):
        super().setup()
        with LOCK:
            self.connection_number = next(CONNECTIONS)

    def log_message(self, format, *args):
        pass

    def image(self):
        with open(os.path.join(ROOT, "ok.jpg"), "rb") as f:
            return f.read()

    def answer(self, status, body=b"", headers=()):
        self.send_response(status)
        names = {name.lower() for name, _ in headers}
        if "content-type" not in names:
            self.send_header("Content-Type", "image/jpeg" if status == 200 else "text/plain")
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        path, query = url.path, dict(urllib.parse.parse_qsl(url.query))
        if path == "/_endless":
            with LOCK:
                report = "%d %f" % (ENDLESS["sent"], ENDLESS["closed"]) if ENDLESS else "running"
            return self.answer(200, report.encode(), [("Content-Type", "text/plain")])
        if path == "/_stall":
            with LOCK:
                report = "%f" % STALL["closed"] if STALL else "waiting"
            return self.answer(200, report.encode(), [("Content-Type", "text/plain")])
        if path == "/_counts":
            prefix = query.get("prefix", "/")
            with LOCK:
                lines = ["%s %d" % (name, len(numbers)) for name, numbers in sorted(REQUESTS.items()) if name.startswith(prefix)]
            return self.answer(200, "\n".join(lines).encode(), [("Content-Type", "text/plain")])
        if path == "/_late":
            report = b"sent" if LATE_SENT.wait(timeout=30) else b"waiting"
            return self.answer(200, report, [("Content-Type", "text/plain")])
        if path == "/_arrivals":
            with LOCK:
                names = " ".join(ARRIVALS)
            return self.answer(200, names.encode(), [("Content-Type", "text/plain")])
        if path == "/_release":
            if query.get("all") == "1":
                HOLD_OPEN.set()
                count = 10000
            else:
                count = int(query.get("count", "1"))
            for _ in range(count):
                HOLD_PERMITS.release()
            return self.answer(200, b"released", [("Content-Type", "text/plain")])
        if path.startswith("/_connections/"):
            with LOCK:
                numbers = REQUESTS.get(path[len("/_connections"):], [])
            return self.answer(200, " ".join(map(str, numbers)).encode(), [("Content-Type", "text/plain")])
        n = record(path, self.connection_number)
        route = getattr(self, "route_" + path.strip("/").split("/")[0].replace("-", "_"), None)
        if route is not None:
            return route(path, query, n)
        file = os.path.join(ROOT, os.path.basename(path))
        if os.path.isfile(file):
            with open(file, "rb") as f:
                return self.answer(200, f.read())
        self.answer(404, b"not found")

    def route_headers(self, path, query, n):
        """The request's headers, one "name: value" line each."""
        body = "".join("%s: %s\n" % (name, value) for name, value in self.headers.items()).encode()
        self.answer(200, body, [("Content-Type", "text/plain")])

    def route_404(self, path, query, n):
        self.answer(404, b"not found")

    def route_500(self, path, query, n):
        self.answer(500, b"server error")

    def route_flaky(self, path, query, n):
        if n <= 2:
            return self.answer(500, b"try again")
        self.answer(200, self.image())

    def route_429(self, path, query, n):
        if n > 1:
            return self.answer(200, self.image())
        after = int(query.get("after", "1"))
        value = http_date(time.time() + after) if query.get("form") == "date" else str(after)
        self.answer(429, b"slow down", [("Retry-After", value)])

    def route_stall(self, path, query, n):
        with LOCK:
            STALL.clear()
        self.close_connection = True
        self.connection.settimeout(30)
        try:
            while self.connection.recv(4096):
                pass
        except OSError:
            return
        with LOCK:
            STALL["closed"] = time.time()

    def route_delay(self, path, query, n):
        time.sleep(float(query.get("seconds", "0.2")))
        self.answer(200, self.image())

    def route_delayed(self, path, query, n):
        time.sleep(float(query.get("seconds", "0.3")))
        self.answer(200, self.image())

    def route_hold(self, path, query, n):
        with LOCK:
            ARRIVALS.append(path[len("/hold/"):])
        if not HOLD_OPEN.is_set():
            HOLD_PERMITS.acquire(timeout=120)
        self.answer(200, self.image())

    def route_slow(self, path, query, n):
        interval, length = float(query.get("interval", "5")), int(query.get("bytes", "100"))
        self.send_response(200)
        self.send_header("Content-Length", str(length))
        self.end_headers()
        self.close_connection = True
        for _ in range(length):
            self.wfile.write(b"x")
            self.wfile.flush()
            time.sleep(interval)

    def route_truncated(self, path, query, n):
        self.send_response(200)
        self.send_header("Content-Length", "10000")
        self.end_headers()
        self.wfile.write(b"\xff\xd8" + b"\0" * 2998)
        self.wfile.flush()
        self.close_connection = True

    def route_reset(self, path, query, n):
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()
        self.close_connection = True

    def route_redirect_loop(self, path, query, n):
        self.answer(302, b"", [("Location", "/redirect-loop")])

    def route_redirects(self, path, query, n):
        hops = int(path.split("/")[2])
        if hops == 0:
            return self.answer(200, self.image())
        self.answer(302, b"", [("Location", "/redirects/%d" % (hops - 1))])

    def route_redirect_to(self, path, query, n):
        self.answer(302, b"", [("Location", query["url"])])

    def route_lie(self, path, query, n):
        # One write, so that the client reads the excess with the headers.
        self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n" + b"a" * 1000
                         + b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nwrong" + b"b" * 954)

    def route_lie_late(self, path, query, n):
        self.answer_then_late(b"junk that is no HTTP response\r\n\r\n")

    def route_forge_late(self, path, query, n):
        self.answer_then_late(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nwrong")

    def answer_then_late(self, late):
        """The image, correctly framed, then `late` 100 ms later on the same kept-alive connection."""
        self.answer(200, self.image())
        self.wfile.flush()
        time.sleep(0.1)
        self.wfile.write(late)
        self.wfile.flush()
        LATE_SENT.set()

    def route_endless(self, path, query, n):
        rate = float(query.get("rate", "0"))
        self.send_response(200)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.close_connection = True
        chunk = b"%x\r\n%s\r\n" % (65536, b"\0" * 65536)
        sent, start = 0, time.monotonic()
        try:
            while True:
                self.wfile.write(chunk)
                sent += 65536
                if rate > 0:
                    time.sleep(max(0, start + sent / rate - time.monotonic()))
        except OSError:
            with LOCK:
                ENDLESS.update(sent=sent, closed=time.time())

    def route_big(self, path, query, n):
        self.send_response(200)
        self.send_header("Content-Length", query.get("length", str(200 << 20)))
        self.end_headers()
        self.wfile.flush()
        self.close_connection = True
        time.sleep(10)
        try:
            self.wfile.write(b"\0" * 65536)
        except OSError:
            pass

    def route_gzip(self, path, query, n):
        # ?bytes=N: N zero bytes, a decompression bomb; otherwise the image.
        body = b"\0" * int(query["bytes"]) if "bytes" in query else self.image()
        self.answer(200, gzip.compress(body), [("Content-Encoding", "gzip")])

    def route_etag(self, path, query, n):
        if self.headers.get("If-None-Match") in ('"v1"', 'W/"v1"'):
            return self.answer(304, b"", [("ETag", '"v1"'), ("Cache-Control", "max-age=60")])
        self.answer(200, self.image(), [("ETag", '"v1"'), ("Cache-Control", "max-age=60")])

    def route_notmodified(self, path, query, n):
        self.answer(304)

    def route_nocache(self, path, query, n):
        self.answer(200, self.image(), [("Cache-Control", "no-cache")])

    def route_nostore(self, path, query, n):
        self.answer(200, self.image(), [("Cache-Control", "no-store")])

    def route_maxage(self, path, query, n):
        headers = [("Cache-Control", "public, max-age=" + path.split("/")[2])]
        if "age" in query:
            headers.append(("Age", query["age"]))
        self.answer(200, self.image(), headers)

    def route_expires(self, path, query, n):
        # send_response adds a correct Date; send_response_only does not, so this one can be slow.
        slow = time.time() - 3600
        self.send_response_only(200)
        self.send_header("Date", http_date(slow))
        self.send_header("Expires", http_date(slow + 120))
        body = self.image()
        self.send_header("Content-Type", "image/jpeg")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def main():
    global ROOT
    tie_to_parent()
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    ROOT = args.root
    ThreadingHTTPServer.daemon_threads = True
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    temporary = args.port_file + ".tmp"
    with open(temporary, "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(temporary, args.port_file)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    sys.exit(0)


if __name__ == "__main__":
    main()
