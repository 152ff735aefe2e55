#!/usr/bin/python3
"""Plots of a comparison run (rounds.py's JSON) as SVG, for docs/PERFORMANCE.md.

  /usr/bin/python3 benchmarks/compare/plot.py [build/release/compare.json] [--out docs/performance]

Writes throughput.svg (one-way events/s by message size, bars per implementation, log scale,
whiskers min-max over rounds) and latency.svg (ping round trip: the distribution of every
sample of every round, one CDF per implementation, log time axis, logit percentile axis).
Needs matplotlib (Debian: apt-get install python3-matplotlib; run with /usr/bin/python3, which
sees Debian's packages). The plots are committed; nothing runs this in CI.
"""
import argparse
import json
import os

import matplotlib

matplotlib.use("svg")
import matplotlib.pyplot as plt  # noqa: E402

IMPLS = ["rpckit", "raw", "naive", "vscode-jsonrpc"]
LABELS = {"rpckit": "rpckit (typed)", "raw": "raw frames, no JSON (floor)",
          "naive": "naive nlohmann", "vscode-jsonrpc": "vscode-jsonrpc (Node)"}
COLORS = {"rpckit": "#1f77b4", "raw": "#7f7f7f", "naive": "#ff7f0e", "vscode-jsonrpc": "#2ca02c"}
SIZES = ["small", "medium", "large"]


def subtitle(data):
    m = data["meta"]
    dirty = " + uncommitted changes" if m.get("uncommitted_paths") else ""
    return (f"{m['date']}, commit {m['commit']}{dirty}; {m['rounds']} rounds; "
            f"{m['machine']['online_cpus']} CPUs, "
            f"{'taskset -c ' + m['placement']['taskset'] if m['placement']['taskset'] else 'unpinned'}")


def save(fig, path):
    fig.tight_layout()
    fig.savefig(path, format="svg", metadata={"Date": None})  # no date: stable diffs
    plt.close(fig)
    print(f"wrote {path}")


def throughput(data, path):
    rounds = data["rounds"]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    width = 0.8 / len(IMPLS)
    for i, impl in enumerate(IMPLS):
        medians, lows, highs = [], [], []
        for size in SIZES:
            values = sorted(r["impls"][impl]["events"][size]["events_per_s"] for r in rounds)
            median = values[len(values) // 2] if len(values) % 2 else \
                (values[len(values) // 2 - 1] + values[len(values) // 2]) / 2
            medians.append(median)
            lows.append(median - values[0])
            highs.append(values[-1] - median)
        xs = [s + (i - (len(IMPLS) - 1) / 2) * width for s in range(len(SIZES))]
        bars = ax.bar(xs, medians, width, label=LABELS[impl], color=COLORS[impl],
                      yerr=[lows, highs], capsize=2, error_kw={"elinewidth": 0.8})
        for bar, value in zip(bars, medians):
            text = (f"{value / 1e6:.2f}M" if value >= 1e6 else
                    f"{value / 1e3:.0f}k" if value >= 1e4 else f"{value:,.0f}")
            ax.annotate(text, (bar.get_x() + bar.get_width() / 2, value), ha="center",
                        va="bottom", fontsize=7, xytext=(0, 2), textcoords="offset points")
    frames = {size: rounds[0]["impls"]["rpckit"]["events"][size]["frame_bytes"] for size in SIZES}
    names = data["config"]["sizes"]
    ax.set_xticks(range(len(SIZES)))
    ax.set_xticklabels([f"{size}: {names[size]['name']}\n{frames[size]:,} B framed"
                        for size in SIZES])
    ax.set_yscale("log")
    ax.set_ylabel("one-way events/s (log scale)")
    ax.set_title("One-way notifications through a pipe, by message size\n" + subtitle(data),
                 fontsize=10)
    ax.grid(axis="y", which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="upper right")
    save(fig, path)


def latency(data, path):
    fig, ax = plt.subplots(figsize=(8, 5.5))
    for impl in IMPLS:
        samples = sorted(x for r in data["rounds"] for x in r["impls"][impl]["ping"]["samples_us"])
        n = len(samples)
        # At most ~600 points, denser in the tails (the SVG stays small); plotting position
        # (i + 0.5) / n keeps 0 and 1 off the logit axis.
        grid = sorted({min(n - 1, int(n * q)) for q in
                       [1 / (1 + 10 ** (-k / 100)) for k in range(-300, 301, 1)]})
        xs = [samples[i] for i in grid]
        ys = [(i + 0.5) / n for i in grid]
        p50 = samples[int(0.5 * (n - 1))]
        p99 = samples[int(0.99 * (n - 1))]
        ax.plot(xs, ys, color=COLORS[impl], linewidth=1.3,
                label=f"{LABELS[impl]}: p50 {p50:.1f} us, p99 {p99:.1f} us")
    ax.set_xscale("log")
    ax.set_yscale("logit")
    ax.set_ylim(0.01, 0.999)
    ticks = [0.01, 0.1, 0.5, 0.9, 0.99, 0.999]
    ax.set_yticks(ticks)
    ax.set_yticklabels([f"p{t * 100:g}" for t in ticks])
    ax.minorticks_off()
    ax.set_xlabel("ping round trip, us (log scale)")
    ax.set_ylabel("percentile")
    pings = data["config"]["pings"]
    ax.set_title(f"Ping round trip, every sample ({pings} per round), CDF\n" + subtitle(data),
                 fontsize=10)
    ax.grid(which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2)
    save(fig, path)


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("json", nargs="?", default=os.path.join(root, "build/release/compare.json"))
    parser.add_argument("--out", default=os.path.join(root, "docs/performance"))
    args = parser.parse_args()
    with open(args.json) as f:
        data = json.load(f)
    plt.rcParams["svg.hashsalt"] = "rpckit-compare"  # stable ids: stable diffs
    os.makedirs(args.out, exist_ok=True)
    throughput(data, os.path.join(args.out, "throughput.svg"))
    latency(data, os.path.join(args.out, "latency.svg"))


if __name__ == "__main__":
    main()
