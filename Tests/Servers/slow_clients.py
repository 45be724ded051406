#!/usr/bin/env python3
"""Slow clients for the HTTP server tests (stdlib only).

    slow_clients.py --port N [--connections 500] [--seconds 120]

Opens CONNECTIONS connections to 127.0.0.1:N, sends each a request line and the start of a header
("GET /slow HTTP/1.1", "Host: t", "X-Slow: "), then one more byte of that header a second on every
connection, never ending it. Prints "connected CONNECTIONS" once every connection is open and has
its first bytes, then "round K" after each second's bytes went out. Stops when its standard input
closes or after SECONDS; a connection the server closes is counted in "closed C" on each round line.
"""

import argparse
import select
import socket
import sys
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--connections", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=120)
    args = parser.parse_args()

    sockets = []
    for _ in range(args.connections):
        connection = socket.create_connection(("127.0.0.1", args.port))
        connection.sendall(b"GET /slow HTTP/1.1\r\nHost: t\r\nX-Slow: ")
        sockets.append(connection)
    print(f"connected {len(sockets)}", flush=True)

    end = time.monotonic() + args.seconds
    closed = set()
    round_number = 0
    while time.monotonic() < end:
        readable, _, _ = select.select([sys.stdin], [], [], 1.0)
        if readable and not sys.stdin.buffer.read1(4096):
            break
        round_number += 1
        for index, connection in enumerate(sockets):
            if index in closed:
                continue
            try:
                connection.send(b"a")
            except OSError:
                closed.add(index)
        print(f"round {round_number} closed {len(closed)}", flush=True)
    for connection in sockets:
        connection.close()


if __name__ == "__main__":
    main()
