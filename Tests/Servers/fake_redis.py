#!/usr/bin/env python3
"""A misbehaving Redis on 127.0.0.1 for the Redis tier's tests (stdlib only).

    fake_redis.py --port-file FILE --events FILE --mode MODE [--interval S] [--bulk-bytes N] [--for S]

Binds any free port and, once listening, writes its number to FILE (atomically, by rename).
Reads RESP commands and answers them as Redis would (MULTI, then +QUEUED for each command and
EXEC with their replies; PTTL 60000; SET, HINCRBY, EVAL, DEL, HMGET, PING, AUTH, SELECT), except
for what MODE changes:

    trickle   a GETRANGE (alone or in MULTI ... EXEC) is answered with a bulk reply of N bytes
              (default 4096), the whole reply one byte every S seconds (default 0.05), for at most
              --for seconds (default 10), then the connection is closed
    flood     a GETRANGE is answered with a bulk reply of N bytes sent as fast as the client reads
    close     every connection is closed as soon as it is accepted
    forge     every reply is followed by a reply to no command, +FORGED

Every event is appended to the events FILE as one line, flushed at once:
    connect C              connection C (from 1, in the order accepted) was accepted
    command C NAME         connection C sent command NAME (upper case)
    hangup C BYTES         the client of connection C closed it after BYTES of a trickled or
                           flooded reply were sent
    forged C               a +FORGED was sent on connection C
"""

import argparse
import itertools
import os
import socket
import sys
import threading
import time

from server_lifetime import tie_to_parent

LOCK = threading.Lock()
CONNECTIONS = itertools.count(1)
ARGS = None


def event(line):
    with LOCK:
        with open(ARGS.events, "a") as f:
            f.write(line + "\n")


def read_command(stream):
    """One command as a list of bytes arguments; None at the end of the stream."""
    header = stream.readline()
    if not header:
        return None
    if not header.startswith(b"*"):
        return [header.strip()]
    arguments = []
    for _ in range(int(header[1:])):
        length = int(stream.readline()[1:])
        arguments.append(stream.read(length + 2)[:-2])
    return arguments


def bulk(data):
    return b"$%d\r\n%s\r\n" % (len(data), data)


def reply(name, arguments):
    """The reply Redis would give to a command other than GETRANGE."""
    if name in (b"SET", b"AUTH", b"SELECT", b"MULTI"):
        return b"+OK\r\n"
    if name == b"PING":
        return b"+PONG\r\n"
    if name == b"PTTL":
        return b":60000\r\n"
    if name in (b"HINCRBY", b"EVAL", b"DEL"):
        return b":1\r\n"
    if name == b"HMGET":
        return b"*%d\r\n" % (len(arguments) - 2) + b"$-1\r\n" * (len(arguments) - 2)
    return b"-ERR unknown command\r\n"


def send_slowly(connection, number, data):
    """Sends data as MODE says; False when the client hung up."""
    sent = 0
    try:
        if ARGS.mode == "flood":
            connection.sendall(data)
            return True
        end = time.monotonic() + ARGS.duration
        while sent < len(data) and time.monotonic() < end:
            connection.sendall(data[sent:sent + 1])
            sent += 1
            time.sleep(ARGS.interval)
        connection.close()
        return False
    except OSError:
        event("hangup %d %d" % (number, sent))
        return False


def serve(connection, number):
    event("connect %d" % number)
    if ARGS.mode == "close":
        connection.close()
        return
    stream = connection.makefile("rb")
    # The replies of the commands queued since MULTI (None outside a transaction), and whether
    # one of them is a GETRANGE's, which makes EXEC's reply slow.
    queued, queued_slow = None, False
    try:
        while True:
            arguments = read_command(stream)
            if arguments is None:
                return
            name = arguments[0].upper()
            event("command %d %s" % (number, name.decode()))
            if name == b"GETRANGE":
                answer, slow = bulk(b"x" * ARGS.bulk_bytes), True
            else:
                answer, slow = reply(name, arguments), False
            if name == b"EXEC" and queued is not None:
                answer, slow = b"*%d\r\n" % len(queued) + b"".join(queued), queued_slow
                queued, queued_slow = None, False
            elif name == b"MULTI":
                queued = []
            elif queued is not None:
                queued.append(answer)
                queued_slow = queued_slow or slow
                answer, slow = b"+QUEUED\r\n", False
            if slow:
                if not send_slowly(connection, number, answer):
                    return
            else:
                connection.sendall(answer)
            if ARGS.mode == "forge":
                connection.sendall(b"+FORGED\r\n")
                event("forged %d" % number)
    except OSError:
        return
    finally:
        connection.close()


def main():
    global ARGS
    tie_to_parent()
    parser = argparse.ArgumentParser()
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--events", required=True)
    parser.add_argument("--mode", choices=["trickle", "flood", "close", "forge"], required=True)
    parser.add_argument("--interval", type=float, default=0.05)
    parser.add_argument("--bulk-bytes", type=int, default=4096)
    parser.add_argument("--for", dest="duration", type=float, default=10)
    ARGS = parser.parse_args()
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    open(ARGS.events, "w").close()
    temporary = ARGS.port_file + ".tmp"
    with open(temporary, "w") as f:
        f.write(str(listener.getsockname()[1]))
    os.rename(temporary, ARGS.port_file)
    try:
        while True:
            connection, _ = listener.accept()
            threading.Thread(target=serve, args=(connection, next(CONNECTIONS)), daemon=True).start()
    except KeyboardInterrupt:
        pass
    sys.exit(0)


if __name__ == "__main__":
    main()
