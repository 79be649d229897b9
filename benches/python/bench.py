"""Times TOON packages for Python in one process, runs interleaved, on the benchmark
datasets: the README's (`token_report --dump-dir`, ~100 KB each) and three larger ones
made here: a 10 MB uniform table, nested orders and a deeply nested configuration.

Usage:
    target/release/token_report --dump-dir DIR   # or cargo run --release -p toon-benches --bin token_report -- --dump-dir DIR
    GLIBC_TUNABLES=glibc.malloc.mxfast=0 python benches/python/bench.py DIR [--out benches/results/python.md] [--repeat N]

Needs toonkit (pip install ./crates/python, a release build), toon-format==1.2.0 and
toons==0.9.0. Peers' output is compared with toonkit's, which matches the reference
@toon-format/toon 4.4.0 on all spec fixtures (crates/python/tests). The pure-Python
official package is timed on the README's datasets only (it takes seconds on the large
ones).
"""

import argparse
import gc
import glob
import random
import json
import os
import platform
import statistics
import time

import toonkit

PEERS = {"toonkit": (toonkit.encode, toonkit.decode)}
try:
    import toon_format

    PEERS["toon-format 1.2.0"] = (toon_format.encode, toon_format.decode)
except ImportError:
    pass
try:
    import toons

    PEERS["toons 0.9.0"] = (toons.dumps, toons.loads)
except ImportError:
    pass


# Small values on which TOON encoders often part ways with the reference: each peer's
# output is compared with toonkit's (tests/test_direct_codec.py pins toonkit's to the
# reference's), and its decoding of that text with the value.
PROBES = {
    "int beyond 2^64": {"n": 2**70, "m": -(2**64)},
    "floats in JavaScript's form": [1e21, 1e-7, 0.1 + 0.2, 5e-324, 1.0, -0.0],
    "NaN and infinities": [float("nan"), float("inf")],
    "keys needing quotes": {"a b": 1, "": 2, "1x": 3, "-k": 4, "é": 5},
    "strings needing quotes": ["", "true", "05", "- x", "a,b", "line\nbreak", " pad "],
    "nested field groups": {"t": [{"id": 1, "c": {"n": "A"}}, {"id": 2, "c": {"n": "B"}}]},
    "keyed table": {"users": {"ada": {"age": 36}, "bob": {"age": 41}}},
    "list of arrays and objects": [[1, 2], {"a": [{"b": 1}]}, [], {}],
}


def short(text, limit=100):
    text = repr(text)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


def probe_diffs():
    out = []
    for label, value in PROBES.items():
        reference = toonkit.encode(value)
        for peer, (enc, dec) in PEERS.items():
            if peer == "toonkit":
                continue
            try:
                text = enc(value)
            except Exception as e:
                out.append(f"- {label}: {peer} encode raised {type(e).__name__}: {e}")
                continue
            if text != reference:
                out.append(f"- {label}: {peer} writes `{short(text)}`, the reference `{short(reference)}`")
    return out


def interleaved_medians(calls, repeat):
    """Median milliseconds of each call in `calls` (label -> (fn, arg)), the calls run in
    turn `repeat` times, so that a change in the machine's load hits them all alike."""
    times = {label: [] for label in calls}
    for _ in range(repeat):
        for label, (fn, arg) in calls.items():
            gc.collect()
            t = time.perf_counter()
            fn(arg)
            times[label].append((time.perf_counter() - t) * 1000)
    return {label: statistics.median(ts) for label, ts in times.items()}


def synthetic():
    """The large datasets: a uniform table, nested orders, a deep configuration."""
    rng = random.Random(7)
    words = ["alpha", "beta", "gamma", "delta", "north", "south", "red", "blue", "Ada", "Bob"]
    table = {"rows": [
        {"id": i, "name": f"{rng.choice(words)} {rng.choice(words)}", "score": round(rng.random() * 100, 2),
         "active": rng.random() < 0.5, "city": rng.choice(words), "visits": rng.randrange(10**6)}
        for i in range(110_000)]}
    orders = {"orders": [
        {"id": i, "customer": {"name": rng.choice(words), "tier": rng.choice(words), "since": 2000 + i % 25},
         "items": [{"sku": f"S{rng.randrange(10**5)}", "qty": rng.randrange(1, 9), "price": round(rng.random() * 50, 2)}
                   for _ in range(rng.randrange(1, 5))],
         "tags": rng.sample(words, 3), "note": rng.choice(["", "gift", "rush, fragile", "call: before"])}
        for i in range(20_000)]}

    def config(depth):
        if depth == 0:
            return {"enabled": rng.random() < 0.5, "limit": rng.randrange(1000), "label": rng.choice(words)}
        return {f"{rng.choice(words)}{k}": config(depth - 1) for k in range(3)} | {"level": depth}

    deep = {"services": [config(7) for _ in range(12)]}
    return {"table-10mb": table, "orders-nested": orders, "config-deep": deep}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("data_dir")
    ap.add_argument("--out", default="benches/results/python.md")
    ap.add_argument("--repeat", type=int, default=11)
    args = ap.parse_args()
    load_before = os.getloadavg()
    datasets = {}
    for path in sorted(glob.glob(os.path.join(args.data_dir, "*.json"))):
        with open(path, encoding="utf-8") as f:
            datasets[os.path.basename(path)[:-5]] = json.load(f)
    readme_sets = set(datasets)
    datasets.update(synthetic())
    rows, diffs, verdicts = [], [], []
    worst = {}
    for name, value in datasets.items():
        json_text = json.dumps(value)
        reference = toonkit.encode(value)
        encodes = {"json": (json.dumps, value)}
        decodes = {"json": (json.loads, json_text)}
        for peer, (enc, dec) in PEERS.items():
            if peer.startswith("toon-format") and name not in readme_sets:
                continue
            try:
                out = enc(value)
            except Exception as e:  # a peer failing is a finding, not a crash
                diffs.append(f"- {name}: {peer} encode raised {type(e).__name__}: {e}")
                continue
            if out != reference:
                diffs.append(f"- {name}: {peer} encode output differs from the reference")
            try:
                if dec(reference) != value:
                    diffs.append(f"- {name}: {peer} decode of the reference output differs from the data")
            except Exception as e:
                diffs.append(f"- {name}: {peer} decode raised {type(e).__name__}: {e}")
                continue
            encodes[peer] = (enc, value)
            decodes[peer] = (dec, reference)
        repeat = args.repeat if len(json_text) < 1_000_000 else max(3, args.repeat // 2)
        enc_ms = interleaved_medians(encodes, repeat)
        dec_ms = interleaved_medians(decodes, repeat)
        mb = len(json_text) / 1e6
        for peer in encodes:
            rows.append(f"| {name} | {mb:.2f} | {peer} | {enc_ms[peer]:.2f} | {dec_ms[peer]:.2f} |")
        checks = [
            ("encode", "toons 0.9.0", enc_ms, 1.5), ("encode", "json", enc_ms, 1.0),
            ("decode", "toons 0.9.0", dec_ms, 1.2), ("decode", "json", dec_ms, 1.0),
        ]
        cells = []
        for what, peer, ms, want in checks:
            if peer not in ms:
                cells.append("n/a")
                continue
            got = ms[peer] / ms["toonkit"]
            key = (what, peer, want)
            worst[key] = min(worst.get(key, got), got)
            cells.append(f"{got:.2f}× {'✓' if got >= want else '✗'}")
        verdicts.append(f"| {name} | " + " | ".join(cells) + " |")

    lines = [
        "# TOON packages for Python",
        "",
        f"Generated by `python benches/python/bench.py` (median of {args.repeat} interleaved runs per "
        "dataset, fewer on the multi-megabyte ones; one process). Datasets: the README's eight from "
        "`token_report --dump-dir` (~100 KB JSON each) and three made by the script: `table-10mb` "
        "(a uniform table), `orders-nested` (orders with a customer object and item tables), "
        "`config-deep` (objects nested 8 deep). `json` is `json.dumps`/`json.loads` of the same "
        "data as JSON.",
        "",
        f"Python {platform.python_version()}; `GLIBC_TUNABLES={os.environ.get('GLIBC_TUNABLES', '')}`; "
        f"{os.cpu_count()} logical CPUs; load average (1 min) {load_before[0]:.2f} before, "
        f"{os.getloadavg()[0]:.2f} after.",
        "",
        "## Targets per dataset (speed-up of toonkit: the other's time / toonkit's)",
        "",
        "| dataset | encode vs toons (≥ 1.5) | encode vs json.dumps (≥ 1) | decode vs toons (≥ 1.2) | decode vs json.loads (≥ 1) |",
        "|---|---|---|---|---|",
    ]
    lines += verdicts
    lines += ["", "Worst dataset per target:", ""]
    for (what, peer, want), got in worst.items():
        lines.append(f"- {what} ≥ {want}× {peer}: {got:.2f}× ({'met' if got >= want else 'missed'})")
    lines += ["", "## Medians (ms)", "", "| dataset | MB (JSON) | package | encode | decode |", "|---|---|---|---|---|"]
    lines += rows
    lines += ["", "## Output differences from the reference on the datasets", ""]
    lines += diffs or ["- none"]
    lines += ["", "## Output differences on small probes", ""]
    lines += probe_diffs() or ["- none"]
    # Where each target stands and why: written with the code it explains, next to
    # this script, and carried into every regenerated report.
    why = os.path.join(os.path.dirname(os.path.abspath(__file__)), "why.md")
    if os.path.exists(why):
        with open(why, encoding="utf-8") as f:
            lines += ["", "## Where each target stands and why", "", f.read().rstrip()]
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
