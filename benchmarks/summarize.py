#!/usr/bin/env python3
"""Prints the medians of an rpckit_bench JSON report as the tables of benchmarks/README.md.

Codec and dispatch numbers use CPU time (single-threaded, robust to a busy machine); the pipe
numbers use wall time (two processes, four threads: CPU time of one thread means nothing).
"""
import json
import sys


def load(path):
    with open(path) as f:
        report = json.load(f)
    medians = {}
    for b in report["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") == "median":
            medians[b["run_name"]] = b
        elif b.get("run_type") == "iteration" and b["run_name"] not in medians:
            medians[b["run_name"]] = b  # a run without repetitions
    return report.get("context", {}), medians


def ns(b, key="cpu_time"):
    scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
    return b[key] * scale


def fmt_time(v):
    if v >= 1e6:
        return f"{v / 1e6:.2f} ms"
    if v >= 1e3:
        return f"{v / 1e3:.2f} us"
    return f"{v:.1f} ns"


def main():
    context, m = load(sys.argv[1] if len(sys.argv) > 1 else "build/release/bench.json")
    print()
    print(f"rpckit_bench medians ({context.get('num_cpus', '?')} CPUs, "
          f"load {', '.join(f'{x:.1f}' for x in context.get('load_avg', []))})")

    messages = []
    for name in m:
        if name.startswith("codec/") and name.endswith("/encode_typed_vs_plain"):
            messages.append(name.split("/")[1])
    if messages:
        print()
        print("Codec: CPU time per message (medians of the separate benchmarks); ratio = typed /")
        print("plain from the interleaved *_vs_plain benchmarks; MB/s and items/s of typed decode")
        print(f"{'message':<26}{'bytes':>7}  {'enc typed':>10}{'enc plain':>10}{'ratio':>7}"
              f"  {'dec typed':>10}{'dec plain':>10}{'ratio':>7}{'MB/s':>7}{'items/s':>9}")
        for msg in messages:
            p = f"codec/{msg}/"
            names = ["encode_typed", "encode_plain", "decode_typed", "decode_plain",
                     "encode_typed_vs_plain", "decode_typed_vs_plain"]
            if not all(p + n in m for n in names):
                continue
            et, ep, dt, dp, enc, dec = (m[p + n] for n in names)
            print(f"{msg:<26}{int(dt.get('bytes', 0)):>7}  "
                  f"{fmt_time(ns(et)):>10}{fmt_time(ns(ep)):>10}{enc['ratio']:>6.2f}x  "
                  f"{fmt_time(ns(dt)):>10}{fmt_time(ns(dp)):>10}{dec['ratio']:>6.2f}x"
                  f"{dt.get('bytes_per_second', 0) / 1e6:>7.1f}"
                  f"{dt.get('items_per_second', 0) / 1e3:>8.1f}k")
        p = "codec/on_chat_message/"
        direct, sax = m.get(p + "encode_typed_vs_direct"), m.get(p + "decode_typed_vs_sax")
        if direct and sax:
            print()
            print("DESIGN.md point 3, on_chat_message, against the hand-written references")
            print("(CPU time per message, interleaved):")
            print(f"  to_json + dump {fmt_time(direct['a_ns'])} vs direct writer "
                  f"{fmt_time(direct['b_ns'])}: {direct['ratio']:.1f}x")
            print(f"  DOM parse + decode {fmt_time(sax['a_ns'])} vs SAX decode "
                  f"{fmt_time(sax['b_ns'])}: {sax['ratio']:.2f}x")

    dispatch = [n for n in m if n.startswith("dispatch/")]
    if dispatch:
        print()
        print("Dispatch (CPU time per call)")
        for n in dispatch:
            print(f"  {n:<44}{fmt_time(ns(m[n])):>10}")

    for n, b in m.items():
        if n.startswith("pipe/notify_throughput"):
            print()
            print(f"Pipe, one-way notifications ({n.split('/')[2]}, wall time):")
            print(f"  {b.get('items_per_second', 0):,.0f} events/s, "
                  f"{b.get('bytes_per_second', 0) / 1e6:.2f} MB/s framed "
                  f"({int(b.get('frame_bytes', 0))} bytes per frame)")
        if n.startswith("pipe/ping_rtt"):
            print()
            print("Pipe, ping round trip (typed call, wall time):")
            print(f"  mean {fmt_time(ns(b, 'real_time'))}, p50 {b.get('p50_us', 0):.1f} us, "
                  f"p90 {b.get('p90_us', 0):.1f} us, p99 {b.get('p99_us', 0):.1f} us")
    print()


if __name__ == "__main__":
    main()
