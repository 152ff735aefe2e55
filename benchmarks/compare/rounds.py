#!/usr/bin/env python3
"""Runs the comparison in rounds and writes one JSON file with every sample (run.sh calls it).

Each round runs every column once, in an order rotated from round to round, so a change of
load on the machine hits all of them alike:
  rpckit          rpckit_bench --benchmark_filter=^pipe/ (two rpckit Endpoints, typed API)
  raw             rpckit_compare raw      (framed bytes, no JSON: the floor)
  naive           rpckit_compare naive    (nlohmann parse + dump per message)
  vscode-jsonrpc  node vscode_parent.mjs  (vscode-jsonrpc/node both sides)
then the codec pairs (rpckit_bench's codec/*/{en,de}code_vs_nlohmann), the decode anchor
(rpckit_simdjson_probe --json: simdjson on-demand reading the same three events into the same
structs, the fastest reader on this machine; skipped, and said so, where simdjson is not
installed) and the host figures (rpckit_host_bench --json). Every program runs under the same placement: `taskset -c CPUS`,
which its children and threads inherit. The default is one CPU (the first this process may
use): parent and child take turns on it, with no cross-CPU wake-ups, whose cost on a VM
changes from run to run with where the scheduler puts the two processes. `--cpus all` runs
unpinned. Nothing here judges a timing: summary.py prints the figures and how they compare
with the issue's targets.
"""
import argparse
import datetime
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import summary  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
IMPLS = ["rpckit", "raw", "naive", "vscode-jsonrpc"]
PINGS = 4000       # as pipe/ping_rtt (pipe_bench.cpp: kPings)
WARMUP_PINGS = 200  # as pipe_bench.cpp: kWarmupPings
# (size, timed batches, events per batch): as pipe_bench.cpp's event_counts(); checked below.
EVENTS = [("small", 20, 1000), ("medium", 20, 1000), ("large", 10, 100)]
CODEC_MIN_TIME = 0.3  # seconds of CPU per interleaved codec benchmark
TIMEOUT = 300         # seconds for one program


def run(cmd, placement, **kwargs):
    full = (["taskset", "-c", placement] if placement else []) + cmd
    try:
        done = subprocess.run(full, cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT,
                              **kwargs)
    except subprocess.TimeoutExpired:
        sys.exit(f"rounds: timed out after {TIMEOUT} s: {' '.join(full)}")
    if done.returncode != 0:
        sys.stderr.write(done.stderr)
        sys.exit(f"rounds: exit status {done.returncode}: {' '.join(full)}")
    return done.stdout


def events_args():
    args = []
    for size, batches, batch in EVENTS:
        args += ["--events", f"{size}:{batches}x{batch}"]
    return args


def column_args():
    return ["--pings", str(PINGS), "--warmup-pings", str(WARMUP_PINGS)] + events_args()


def percentiles(samples):
    ordered = sorted(samples)
    at = lambda p: ordered[int(p * (len(ordered) - 1))]  # noqa: E731 (as pipe_bench.cpp)
    return {"p50_us": at(0.50), "p90_us": at(0.90), "p99_us": at(0.99), "max_us": ordered[-1]}


def normalize(report):
    """rpckit_compare / vscode_parent.mjs output -> {ping: {...}, events: {size: {...}}}."""
    ping = report["ping"]
    ping.update(percentiles(ping["samples_us"]))
    return {"ping": ping, "events": {e["size"]: e for e in report["events"]}}


def run_rpckit(build, placement, tmp, methods):
    out = os.path.join(tmp, "pipe.json")
    samples = os.path.join(tmp, "samples.jsonl")
    if os.path.exists(samples):
        os.remove(samples)
    run([f"{build}/benchmarks/rpckit_bench", "--benchmark_filter=^pipe/",
         f"--benchmark_out={out}", "--benchmark_out_format=json",
         f"--rpckit-bench-samples={samples}"], placement)
    with open(out) as f:
        benchmarks = json.load(f)["benchmarks"]
    if any(b.get("error_occurred") for b in benchmarks):
        sys.exit("rounds: rpckit_bench: " + "; ".join(
            b.get("error_message", "?") for b in benchmarks if b.get("error_occurred")))
    result = {"events": {}}
    expected = {size: (batches, batch) for size, batches, batch in EVENTS}
    for b in benchmarks:
        if b["name"].startswith("pipe/notify_throughput/"):
            size = b["label"]
            got = (b["iterations"], int(b["batch"]))
            if got != expected[size]:
                sys.exit(f"rounds: {b['name']} runs {got[0]}x{got[1]} events, rounds.py "
                         f"expects {expected[size][0]}x{expected[size][1]}: make them agree")
            seconds = b["real_time"] * b["iterations"] * {"ms": 1e-3, "us": 1e-6}[b["time_unit"]]
            result["events"][size] = {
                "size": size, "method": methods[size],
                "batches": got[0], "batch": got[1], "seconds": seconds,
                "events_per_s": b["items_per_second"], "frame_bytes": int(b["frame_bytes"])}
    with open(samples) as f:
        lines = [json.loads(line) for line in f if line.strip()]
    us = [round(x, 3) for x in lines[-1]["samples_us"]]
    result["ping"] = {"count": len(us), "warmup": WARMUP_PINGS, "samples_us": us,
                      **percentiles(us)}
    return result


def run_codec(build, placement):
    text = run([f"{build}/benchmarks/rpckit_bench", "--benchmark_filter=_vs_nlohmann$",
                f"--benchmark_min_time={CODEC_MIN_TIME}", "--benchmark_format=json"], placement)
    codec = {}
    for b in json.loads(text)["benchmarks"]:
        _, message, which = b["name"].split("/")
        entry = codec.setdefault(message, {"bytes": int(b["bytes"])})
        entry[which.split("_")[0]] = {"rpckit_ns": b["a_ns"], "nlohmann_ns": b["b_ns"],
                                      "ratio": b["ratio"]}
        if "direct_writer" in b:
            entry["direct_writer"] = bool(b["direct_writer"])
    return codec


ANCHOR_ARGS = ["--json", "--reps=3", "--rounds=100"]  # ~1.5 s per round


def anchor_binary(build):
    path = f"{build}/benchmarks/simdjson_probe/rpckit_simdjson_probe"
    return path if os.path.exists(path) else None


def run_anchor(build, placement):
    """Per event: CPU ns of rpckit's decode and of simdjson on-demand into the same struct."""
    report = json.loads(run([anchor_binary(build)] + ANCHOR_ARGS, placement))
    return {size: {"rpckit_ns": e["decoders"]["rpckit"]["ns"],
                   "simdjson_ondemand_ns": e["decoders"]["od_typed"]["ns"],
                   "simdjson_ondemand_over_rpckit": e["decoders"]["od_typed"]["ratio_to_rpckit"]}
            for size, e in report["events"].items()}


def run_host(build, placement, tmp):
    out = os.path.join(tmp, "host.json")
    run([f"{build}/benchmarks/host/rpckit_host_bench", "--json", out], placement)
    with open(out) as f:
        return json.load(f)


def git(*args):
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def meta(args, placement):
    model = ""
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    compiler = ""
    try:
        compiler = subprocess.run(["c++", "--version"], capture_output=True,
                                  text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        pass
    changed = [line for line in git("status", "--porcelain").splitlines() if line]
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": git("rev-parse", "--short", "HEAD"),
        "uncommitted_paths": len(changed),
        "machine": {"cpu": model, "online_cpus": os.cpu_count(), "kernel": platform.release(),
                    "compiler": compiler, "build": args.build},
        "placement": {"taskset": placement or None,
                      "allowed_cpus": sorted(os.sched_getaffinity(0)),
                      "note": "every program under taskset -c <taskset> (children and threads "
                              "inherit it); null: unpinned"},
        "node": subprocess.run(["node", "--version"], capture_output=True,
                               text=True).stdout.strip(),
        "rounds": args.rounds,
        "load_before": list(os.getloadavg()),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default="build/release")
    parser.add_argument("--out", default=None, help="default: BUILD/compare.json")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cpus", default=None,
                        help="taskset -c list for every program (default: the first allowed "
                             "CPU; 'all': unpinned)")
    args = parser.parse_args()
    if args.cpus is None:
        args.cpus = str(min(os.sched_getaffinity(0)))
    elif args.cpus == "all":
        args.cpus = ""
    build = os.path.join(ROOT, args.build) if not os.path.isabs(args.build) else args.build
    out = args.out or os.path.join(build, "compare.json")
    if not shutil.which("node"):
        sys.exit("rounds: node not found (tools/bootstrap installs it)")

    data = {"format": "rpckit-compare/1", "meta": meta(args, args.cpus)}
    sized = json.loads(run([f"{build}/benchmarks/compare/rpckit_compare", "events"], ""))
    data["config"] = {"pings": PINGS, "warmup_pings": WARMUP_PINGS,
                      "events": [{"size": s, "batches": n, "batch": k} for s, n, k in EVENTS],
                      "sizes": {e["size"]: {"method": e["method"], "name": e["name"]}
                                for e in sized},
                      "codec_min_time_s": CODEC_MIN_TIME}
    methods = {e["size"]: e["method"] for e in sized}
    if not anchor_binary(build):
        print("rounds: no rpckit_simdjson_probe (simdjson not installed: apt-get install "
              "libsimdjson-dev): no decode anchor", file=sys.stderr, flush=True)
    data["rounds"] = []
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="rpckit-compare-") as tmp:
        events_file = os.path.join(tmp, "events.json")
        with open(events_file, "w") as f:
            json.dump(sized, f)
        commands = {
            "raw": [f"{build}/benchmarks/compare/rpckit_compare", "raw"] + column_args(),
            "naive": [f"{build}/benchmarks/compare/rpckit_compare", "naive"] + column_args(),
            "vscode-jsonrpc": ["node", "benchmarks/compare/vscode_parent.mjs",
                               "--events-file", events_file] + column_args(),
        }
        for r in range(args.rounds):
            order = IMPLS[r % len(IMPLS):] + IMPLS[:r % len(IMPLS)]
            record = {"round": r + 1, "order": order, "impls": {}}
            for impl in order:
                print(f"round {r + 1}/{args.rounds}: {impl}", file=sys.stderr, flush=True)
                if impl == "rpckit":
                    record["impls"][impl] = run_rpckit(build, args.cpus, tmp, methods)
                else:
                    report = json.loads(run(commands[impl], args.cpus))
                    if impl == "vscode-jsonrpc":
                        data["meta"]["vscode_jsonrpc"] = report.get("version")
                    record["impls"][impl] = normalize(report)
            print(f"round {r + 1}/{args.rounds}: codec, host", file=sys.stderr, flush=True)
            record["codec"] = run_codec(build, args.cpus)
            if anchor_binary(build):
                record["anchor"] = run_anchor(build, args.cpus)
            record["host"] = run_host(build, args.cpus, tmp)
            data["rounds"].append(record)
    data["meta"]["seconds"] = round(time.monotonic() - started, 1)
    data["meta"]["load_after"] = list(os.getloadavg())
    data["summary"] = summary.summarize(data)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")
    summary.print_table(data)
    print(f"JSON: {os.path.relpath(out, ROOT)}")


if __name__ == "__main__":
    main()
