#!/usr/bin/env python3
"""A TCP proxy that adds a fixed delay in each direction, for Benchmarks/throughput.sh.

Usage:
    python3 Benchmarks/delay_proxy.py UPSTREAM_PORT [--delay-ms 20] [--port-file FILE]

Listens on a free port of 127.0.0.1 (written to FILE once it accepts connections, else printed
on stdout) and forwards every connection to 127.0.0.1:UPSTREAM_PORT on a connection of its own.
Every chunk read from either side is written to the other DELAY ms after it was read, in the
order it was read: bytes are never reordered, and transfers overlap the delay (it is latency,
not a bandwidth limit), so a round trip takes 2 x DELAY longer. An end of stream is passed on
after the same delay. Standard library only; stops on SIGTERM or SIGINT.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys

CHUNK = 64 * 1024
# Chunks waiting in one direction at most (backpressure on the reading side beyond that).
QUEUE_CHUNKS = 256


async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, delay: float) -> None:
    """Copies reader to writer, each chunk `delay` seconds after it arrived, in order."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue(QUEUE_CHUNKS)

    async def read_side() -> None:
        while True:
            try:
                data = await reader.read(CHUNK)
            except OSError:  # a reset counts as the end of the stream
                data = b""
            await queue.put((loop.time() + delay, data))
            if not data:
                return

    async def write_side() -> None:
        while True:
            due, data = await queue.get()
            wait = due - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            if not data:
                if writer.can_write_eof():
                    writer.write_eof()
                return
            writer.write(data)
            await writer.drain()

    reading = asyncio.ensure_future(read_side())
    try:
        await write_side()
    finally:
        reading.cancel()


async def handle(client_reader, client_writer, upstream_port: int, delay: float) -> None:
    try:
        upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", upstream_port)
    except OSError:
        client_writer.close()
        return
    directions = [
        asyncio.ensure_future(pipe(client_reader, upstream_writer, delay)),
        asyncio.ensure_future(pipe(upstream_reader, client_writer, delay)),
    ]
    # A reset or write error on one side ends both directions; an orderly end of stream waits
    # for the other direction to finish.
    _, pending = await asyncio.wait(directions, return_when=asyncio.FIRST_EXCEPTION)
    for task in pending:
        task.cancel()
    for task in directions:
        try:
            await task
        except (asyncio.CancelledError, OSError):
            pass
    for writer in (client_writer, upstream_writer):
        writer.close()


async def serve(args: argparse.Namespace) -> None:
    delay = args.delay_ms / 1000
    server = await asyncio.start_server(
        lambda r, w: handle(r, w, args.upstream_port, delay), "127.0.0.1", 0, backlog=512
    )
    port = server.sockets[0].getsockname()[1]
    if args.port_file:
        temporary = args.port_file + ".tmp"
        with open(temporary, "w") as file:
            file.write(f"{port}\n")
        os.replace(temporary, args.port_file)
    else:
        print(port, flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    async with server:
        await stop.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("upstream_port", type=int)
    parser.add_argument("--delay-ms", type=float, default=20.0, help="delay in each direction (default 20)")
    parser.add_argument("--port-file", help="write the listening port here (default: stdout)")
    asyncio.run(serve(parser.parse_args()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
