#!/usr/bin/env python3
"""Writes a JSON-lines transcript of at least N frames by repeating a recorded session (its
frames and lifecycle lines, times shifted so the copies follow each other), for measuring
`rpckit trace` on a big session:
    big_transcript.py session.jsonl 100000 > big.jsonl"""
import json
import sys


def main():
    source, want = sys.argv[1], int(sys.argv[2])
    with open(source, encoding="utf-8") as f:
        lines = [json.loads(line) for line in f if line.strip()]
    frames_per_copy = sum(1 for e in lines if e.get("type") == "frame")
    span = max(e.get("t", 0) for e in lines) + 0.01
    written, copy = 0, 0
    out = sys.stdout
    while written < want:
        for e in lines:
            if e.get("type") == "frame" and written >= want:
                break
            e = dict(e)
            e["t"] = round(e.get("t", 0) + copy * span, 6)
            out.write(json.dumps(e, separators=(",", ":")) + "\n")
            written += e.get("type") == "frame"
        copy += 1
    print(f"{written} frames ({frames_per_copy} per copy, {copy} copies)", file=sys.stderr)


if __name__ == "__main__":
    main()
