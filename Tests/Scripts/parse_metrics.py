"""Reads Prometheus text (exposition format 0.0.4) for the metrics tests.

  parse_metrics.py FILE   checks FILE line by line against the format, then parses it with
                          prometheus_client and prints its families as JSON:
                          [{"name", "type", "help", "samples": [{"name", "labels", "value"}]}]

prometheus_client's parser is lenient (it reads a family without # TYPE as "unknown", a second
# TYPE line, extra tokens after a value), so the checks here are the strict rules that Prometheus
and Go's parser apply: one # HELP and one # TYPE per family, before its samples, which come
together; names, labels, escapes and numbers as the format writes them; no sample repeated; a
histogram's buckets cumulative, with le="+Inf" equal to _count, and its _sum and _count present.
On top of the format, every sample must belong to a family with a # TYPE. Exits with 1 and the
faults on standard error when any check fails.
"""
import json
import math
import re
import sys

from prometheus_client.parser import text_string_to_metric_families

NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
LABEL = r"([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\n]|\\[\\\"n])*)\""
NUMBER = r"[+-]?Inf|NaN|[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
HELP_LINE = re.compile(rf"# HELP ({NAME}) ((?:[^\\]|\\[\\n])*)")
TYPE_LINE = re.compile(rf"# TYPE ({NAME}) (counter|gauge|histogram|summary|untyped)")
SAMPLE_LINE = re.compile(rf"({NAME})(?:\{{((?:{LABEL},)*(?:{LABEL})?)\}})?[ \t]+({NUMBER})(?:[ \t]+-?[0-9]+)?")
LABELS = re.compile(LABEL)
SUFFIXES = {"histogram": ("_bucket", "_sum", "_count"), "summary": ("_sum", "_count", "")}


def unescape(value):
    return re.sub(r"\\(.)", lambda match: "\n" if match.group(1) == "n" else match.group(1), value)


def family_of(name, types):
    """The family a sample named `name` belongs to, and its type; (None, None) when untyped."""
    if name in types:
        return name, types[name]
    for family, kind in types.items():
        if any(suffix and name == family + suffix for suffix in SUFFIXES.get(kind, ())):
            return family, kind
    return None, None


def check(text):
    """The faults of `text`, each a sentence; none when it keeps every rule."""
    faults = []
    if not text.endswith("\n"):
        faults.append("the text does not end with a newline")
    helps, types, sampled, closed, samples, histograms = set(), {}, set(), set(), set(), {}
    current = None
    for number, line in enumerate(text.split("\n")[:-1], start=1):
        def fault(message):
            faults.append(f"line {number}: {message}: {line!r}")

        def enter(family):
            nonlocal current
            if family == current:
                return
            if family in closed:
                fault(f"{family} again after another family")
            if current is not None:
                closed.add(current)
            current = family

        if line.startswith(("# HELP ", "# TYPE ")):
            is_help = line.startswith("# HELP ")
            match = (HELP_LINE if is_help else TYPE_LINE).fullmatch(line)
            if not match:
                fault("malformed")
                continue
            name = match.group(1)
            enter(name)
            if name in (helps if is_help else types):
                fault(f"a second {line[2:6]} line for {name}")
            if name in sampled:
                fault(f"a {line[2:6]} line after the samples of {name}")
            if is_help:
                helps.add(name)
            else:
                types[name] = match.group(2)
            continue
        if line.startswith("#") or not line.strip():
            continue
        match = SAMPLE_LINE.fullmatch(line)
        if not match:
            fault("not a sample line")
            continue
        name, labels, value = match.group(1), match.group(2) or "", match.groups()[-1]
        family, kind = family_of(name, types)
        if family is None:
            fault("a sample without a # TYPE for its family")
            continue
        enter(family)
        sampled.add(family)
        pairs = [(key, unescape(raw)) for key, raw in LABELS.findall(labels)]
        keys = [key for key, _ in pairs]
        if len(set(keys)) != len(keys):
            fault("a label given twice")
        identity = (name, tuple(sorted(pairs)))
        if identity in samples:
            fault("a sample repeated")
        samples.add(identity)
        if kind == "histogram":
            others = tuple(sorted(pair for pair in pairs if pair[0] != "le"))
            series = histograms.setdefault((family, others), {"buckets": [], "sum": None, "count": None})
            if name.endswith("_bucket"):
                bounds = [raw for key, raw in pairs if key == "le"]
                if len(bounds) != 1 or not re.fullmatch(NUMBER, bounds[0]):
                    fault("a bucket without one numeric le label")
                else:
                    series["buckets"].append((float(bounds[0]), float(value)))
            else:
                series[name[len(family) + 1:]] = float(value)
    for (family, labels), series in histograms.items():
        where = f"histogram {family}{dict(labels)}"
        buckets = series["buckets"]
        if not buckets or buckets[-1][0] != math.inf:
            faults.append(f"{where}: no le=\"+Inf\" bucket last")
        if any(b[0] <= a[0] or b[1] < a[1] for a, b in zip(buckets, buckets[1:])):
            faults.append(f"{where}: buckets not in increasing le order with cumulative counts")
        if series["sum"] is None or series["count"] is None:
            faults.append(f"{where}: no _sum or no _count")
        elif buckets and buckets[-1][1] != series["count"]:
            faults.append(f"{where}: the +Inf bucket differs from _count")
    return faults


def main(path):
    with open(path, encoding="utf-8", newline="") as file:
        text = file.read()
    faults = check(text)
    if faults:
        print("\n".join(faults), file=sys.stderr)
        return 1
    families = [
        {
            "name": family.name,
            "type": family.type,
            "help": family.documentation,
            "samples": [{"name": s.name, "labels": s.labels, "value": s.value} for s in family.samples],
        }
        for family in text_string_to_metric_families(text)
    ]
    print(json.dumps(families, allow_nan=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
