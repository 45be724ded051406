"""Lists the slowest tests of `swift test` runs, from XCTest's lines in their logs.

  slowest_tests.py [--count N] LOG...   the N slowest tests (default 10), slowest first, each with
                                        its time in every log that ran it ("-" where a log did
                                        not), then the failed tests of each log

A test's time is what XCTest prints when it ends: "Test Case 'Suite.test' passed (1.234 seconds)"
(or "failed"). Tests are ranked by their longest time across the logs. Exits with 1 when a log
holds a failed test or no test at all.
"""
import argparse
import re
import sys

ENDED = re.compile(r"Test Case '(?:-\[)?([\w.]+)[ .](\w+)\]?' (passed|failed) \(([0-9.]+) seconds\)")


def read(path):
    """The seconds each test took in the log at path, and the tests that failed there."""
    seconds, failed = {}, []
    with open(path, encoding="utf-8", errors="replace") as log:
        for line in log:
            match = ENDED.search(line)
            if not match:
                continue
            name = match.group(1) + "." + match.group(2)
            seconds[name] = float(match.group(4))
            if match.group(3) == "failed":
                failed.append(name)
    return seconds, failed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("logs", nargs="+")
    args = parser.parse_args()
    runs = [read(path) for path in args.logs]
    names = set().union(*(seconds for seconds, _ in runs))
    longest = {name: max(seconds.get(name, 0) for seconds, _ in runs) for name in names}
    for name in sorted(names, key=lambda name: -longest[name])[: args.count]:
        times = ["%8.1f" % seconds[name] if name in seconds else "%8s" % "-" for seconds, _ in runs]
        print("%s  %s" % ("".join(times), name))
    healthy = True
    for path, (seconds, failed) in zip(args.logs, runs):
        print("%s: %d tests, %d failed%s" % (path, len(seconds), len(failed), "".join("\n  " + name for name in failed)))
        healthy = healthy and seconds and not failed
    sys.exit(0 if healthy else 1)


if __name__ == "__main__":
    main()
