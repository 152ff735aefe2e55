#!/usr/bin/env python3
"""Drives a HOST's plain mode against the fake plugins and checks the outcome per the spec.

usage: host_rules.py [--time-scale S] [--only MODE]... [--keep DIR] [--list]
                     <protocol> <host binary> <fake script>
  protocol: desktop | loaf | codex
  e.g. host_rules.py codex .../codex-metadata-host tests/conformance/codex_fake_plugin.py

For each mode of the fake it runs
    <host> --plain --time-scale S [--transcript FILE] --call M[=PARAMS]... -- python3 <fake> <mode>
with FAKE_REPORT and FAKE_TIME_SCALE in the host's environment (the host passes its
environment to the plugin), then checks the host's exit status, its `violation:` lines on
stderr, its per-call JSON lines on stdout and the fake's report (see README.md for the
contract). Exit 0 when every check passed, 1 otherwise, 2 on a usage error. Its files
(transcripts, reports) stay only when a check failed or --keep named the folder.
"""

import json
import os
import signal
import subprocess
import shutil
import sys
import tempfile
import time

HOST_TIMEOUT = 240.0     # generous outer bound for one host run
DEFAULT_SCALE = 0.1
# Lower bounds on a host's waits are checked at this fraction of the scaled spec value, to
# absorb scheduling delays between the host acting and the fake observing it.
WAIT_SLACK = 0.25


# --------------------------------------------------------------------------------------------
# Running one mode
# --------------------------------------------------------------------------------------------

class Outcome:
    def __init__(self, rc, stdout, stderr, report, transcript, took):
        self.rc, self.stdout, self.stderr, self.report = rc, stdout, stderr, report
        self.transcript, self.took = transcript, took
        self.violations = [l for l in stderr.splitlines() if l.startswith("violation:")]
        self.calls, self.stray = [], []
        for line in stdout.splitlines():
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except ValueError:
                obj = None
            if isinstance(obj, dict) and "call" in obj:
                self.calls.append(obj)
            else:
                self.stray.append(line[:200])
        self.runs = (report or {}).get("runs", [])


def pid_gone(pid, fake_script):
    """True when pid no longer runs the fake (gone, a zombie, or reused by another program)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            cmd = f.read()
    except OSError:
        return True
    return state == "Z" or os.path.basename(fake_script).encode() not in cmd


def run_host(host, fake, mode, calls, scale, workdir, transcript=True):
    report_path = os.path.join(workdir, "%s.report.json" % mode)
    transcript_path = os.path.join(workdir, "%s.transcript.jsonl" % mode) if transcript else None
    argv = [host, "--plain", "--time-scale", str(scale)]
    if transcript_path:
        argv += ["--transcript", transcript_path]
    for method, params in calls:
        argv += ["--call", method if params is None else
                 "%s=%s" % (method, json.dumps(params, separators=(",", ":")))]
    argv += ["--", "python3", os.path.abspath(fake), mode]
    env = dict(os.environ, FAKE_REPORT=report_path, FAKE_TIME_SCALE=str(scale))
    t0 = time.monotonic()
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=HOST_TIMEOUT)
        rc = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the host we started, with its children
        out, err = proc.communicate()
        rc = None
    took = time.monotonic() - t0
    report = None
    try:
        with open(report_path) as f:
            report = json.load(f)
    except (OSError, ValueError):
        pass
    outcome = Outcome(rc, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"),
                      report, transcript_path, took)
    outcome.argv = argv
    # Leave no fake behind (each was started by the host we started); the checks below look
    # at whether they were already gone, recorded here first.
    outcome.gone = {}
    for run in outcome.runs:
        pid = run.get("pid")
        if isinstance(pid, int):
            outcome.gone[pid] = pid_gone(pid, fake)
    for pid, gone in outcome.gone.items():
        if not gone:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
    return outcome


# --------------------------------------------------------------------------------------------
# Reusable expectations (each appends problem texts to `p`)
# --------------------------------------------------------------------------------------------

def short(v, n=240):
    t = v if isinstance(v, str) else json.dumps(v, separators=(",", ":"))
    return t if len(t) <= n else t[:n] + "...(%d chars)" % len(t)


def expect_exit(p, o, want, why):
    if isinstance(want, (list, tuple, set)):
        if o.rc not in want:
            p.append("exit status %s, expected one of %s (%s)" % (o.rc, sorted(want), why))
    elif o.rc != want:
        p.append("exit status %s, expected %s (%s)" % (o.rc, want, why))


def expect_violations(p, o, present, why):
    if present and not o.violations:
        p.append("no `violation:` line on stderr, expected one (%s)" % why)
    if not present and o.violations:
        p.append("unexpected violation lines (%s): %s" % (why, short(o.violations, 400)))


def expect_call_lines(p, o, calls):
    got = [c.get("call") for c in o.calls]
    want = [m for m, _ in calls]
    if got != want:
        p.append("stdout call lines %s, expected one per --call in order %s" % (got, want))
    if o.stray:
        p.append("stdout carries only the call lines; also got %s" % short(o.stray, 300))
    for c in o.calls:
        kinds = [k for k in ("result", "error", "failed") if k in c]
        if len(kinds) != 1:
            p.append("a call line has exactly one of result/error/failed: %s" % short(c))


def call_line(o, i):
    return o.calls[i] if i < len(o.calls) else {}


def expect_result(p, o, i, pred, what):
    c = call_line(o, i)
    if "result" not in c or not pred(c["result"]):
        p.append("call %d: expected %s, got %s" % (i + 1, what, short(c)))


def expect_runs(p, o, n, why):
    if len(o.runs) != n:
        p.append("the fake was started %d time(s), expected %d (%s)" % (len(o.runs), n, why))


def received_msgs(run):
    return [e["msg"] for e in run.get("received", []) if "msg" in e]


def received_requests(run):
    return [m for m in received_msgs(run) if isinstance(m, dict) and isinstance(m.get("method"), str)
            and "id" in m]


def received_responses(run):
    return [m for m in received_msgs(run) if isinstance(m, dict) and "method" not in m
            and "id" in m]


def event_time(run, what):
    return next((e["t"] for e in run.get("events", []) if e.get("what") == what), None)


def expect_exited_itself(p, run, why):
    ex = run.get("exit")
    if not ex or ex.get("code") != 0:
        p.append("the fake did not exit by itself with 0 (exit record %s, signals %s): %s"
                 % (short(ex), short(run.get("signals")), why))
    if run.get("signals"):
        p.append("the fake received signals %s: %s" % (short(run["signals"]), why))


def expect_gone(p, o, run, why):
    pid = run.get("pid")
    if not o.gone.get(pid, True):
        p.append("fake pid %s was still running after the host exited (%s)" % (pid, why))


def expect_transcript(p, o):
    if not o.transcript:
        return
    try:
        with open(o.transcript) as f:
            rows = [l for l in f if l.strip()]
        for l in rows:
            json.loads(l)
        if not rows:
            p.append("--transcript %s is empty" % o.transcript)
    except (OSError, ValueError) as exc:
        p.append("--transcript %s is not a JSON-lines file: %s" % (o.transcript, exc))


# --------------------------------------------------------------------------------------------
# desktop-plugins v1
# --------------------------------------------------------------------------------------------

DESKTOP_CALLS = [("fake/echo", {"x": 1}), ("fake/echo", {"y": [1, 2]})]


def desktop_common(p, o, scale, exit_code, violation, results=True, fake_ids_int=False):
    expect_exit(p, o, exit_code, "plain-mode contract: 0 = the peer conformed, 1 = it did not")
    expect_violations(p, o, violation, "the contract prints each peer violation")
    expect_call_lines(p, o, DESKTOP_CALLS)
    if results:
        for i, (_, params) in enumerate(DESKTOP_CALLS):
            expect_result(p, o, i, lambda r, params=params: r == params,
                          "the fake's echo %s" % short(params))
    expect_runs(p, o, 1, "desktop 9.10: the host does not restart plugins")
    if not o.runs:
        return
    run = o.runs[0]
    reqs = received_requests(run)
    methods = [m["method"] for m in reqs]
    if not methods or methods[0] != "plugin/health":
        p.append("spec 2: plugin/health is sent first after spawn; the fake got %s" % methods)
    if methods[-1:] != ["plugin/shutdown"]:
        p.append("spec 2: the session ends with plugin/shutdown; the fake got %s" % methods)
    ids = [json.dumps(m["id"]) for m in reqs]
    if any(not isinstance(m["id"], str) for m in reqs):
        p.append("spec 1 Ids: the host sends string ids; got %s" % [m["id"] for m in reqs])
    if len(set(ids)) != len(ids):
        p.append("spec 8: the host never reuses an id; got %s" % ids)
    replies = run.get("host_replies", [])
    want_ping = [m for m in replies if m.get("result") == {"pong": True}]
    want_appr = [m for m in replies if isinstance(m.get("result"), dict)
                 and isinstance(m["result"].get("approved"), bool)]
    n_echo = len(DESKTOP_CALLS)
    if len(want_ping) != n_echo or len(want_appr) != n_echo:
        p.append("spec 4 / decision 9.4: the host serves host/ping ({pong: true}) and "
                 "host/request_approval ({approved: boolean}) while its call is pending; the "
                 "fake's requests got %s" % short(replies, 400))
    if fake_ids_int:
        bad = [m for m in replies if not isinstance(m.get("id"), int) or isinstance(m["id"], bool)]
        if bad or not replies:
            p.append("spec 1 Ids / decision 9.3: number ids are accepted and echoed with their "
                     "JSON type; the host's replies to integer ids: %s" % short(replies, 400))
    expect_exited_itself(p, run, "spec 2: after answering plugin/shutdown the plugin exits 0")


def desktop_modes(scale):
    def well_behaved(p, o):
        desktop_common(p, o, scale, 0, False)
        expect_transcript(p, o)

    def non_json_stdout(p, o):
        desktop_common(p, o, scale, 1, True)
        for run in o.runs[:1]:
            nulls = [m for m in received_responses(run) if m.get("id") is None]
            if nulls:
                p.append("spec 3: the host logs and discards non-JSON stdout lines and does not "
                         "answer them; it sent %s" % short(nulls))

    def oversize_line(p, o):
        desktop_common(p, o, scale, 1, True)

    def no_jsonrpc_member(p, o):
        desktop_common(p, o, scale, 1, True)

    def number_ids(p, o):
        desktop_common(p, o, scale, 0, False, fake_ids_int=True)

    def error_without_code(p, o):
        desktop_common(p, o, scale, 0, False, results=False)
        for i in range(len(DESKTOP_CALLS)):
            c = call_line(o, i)
            e = c.get("error")
            if not (isinstance(e, dict) and e.get("code") == -32000
                    and e.get("message") == "no code here" and e.get("data") == {"k": 1}):
                p.append("spec 3 / decision 9.2: an error object without code is accepted as "
                         "-32000 keeping message and data; call %d printed %s" % (i + 1, short(c)))

    return {
        "well_behaved": (DESKTOP_CALLS, well_behaved, "2, 4, 9.4, 9.10"),
        "non_json_stdout": (DESKTOP_CALLS, non_json_stdout, "3 (non-JSON lines on stdout)"),
        "oversize_line": (DESKTOP_CALLS, oversize_line, "9.8"),
        "no_jsonrpc_member": (DESKTOP_CALLS, no_jsonrpc_member, "9.11"),
        "number_ids": (DESKTOP_CALLS, number_ids, "1 Ids, 9.3"),
        "error_without_code": (DESKTOP_CALLS, error_without_code, "3, 9.2"),
    }


# --------------------------------------------------------------------------------------------
# loaf RPC 1.0.0
# --------------------------------------------------------------------------------------------

LOAF_CALLS = [("system.ping", None), ("state.get", None)]


def loaf_common(p, o, scale, exit_code, violation):
    expect_exit(p, o, exit_code, "plain-mode contract: 0 = the peer conformed, 1 = it did not")
    expect_violations(p, o, violation, "the contract prints each peer violation")
    expect_call_lines(p, o, LOAF_CALLS)
    expect_result(p, o, 0, lambda r: isinstance(r, dict) and r.get("ok") is True,
                  "system.ping's {ok: true, time}")
    expect_result(p, o, 1, lambda r: isinstance(r, dict) and "sessions" in r, "state.get's snapshot")
    expect_runs(p, o, 1, "one server per session")
    if not o.runs:
        return None
    run = o.runs[0]
    reqs = received_requests(run)
    methods = [m["method"] for m in reqs]
    if methods != ["rpc.handshake", "system.ping", "state.get", "system.shutdown"]:
        p.append("decisions 8.1/8.6: the client sends rpc.handshake first and ends with "
                 "system.shutdown; the server got %s" % methods)
    if reqs:
        hp = reqs[0].get("params") if reqs[0]["method"] == "rpc.handshake" else None
        if not (isinstance(hp, dict) and hp.get("protocol_version") == "1.0.0"
                and isinstance(hp.get("client_name"), str)
                and isinstance(hp.get("client_version"), str)):
            p.append("decision 8.1: the handshake carries client_name, client_version and "
                     "protocol_version \"1.0.0\"; got %s" % short(hp))
    ids = [m["id"] for m in reqs]
    if any(not isinstance(i, int) or isinstance(i, bool) for i in ids) or len(set(ids)) != len(ids):
        p.append("decision 8.2: the client uses unique integer ids and never null; got %s" % ids)
    answered = event_time(run, "shutdown_answered")
    eof = run.get("stdin_eof_at")
    if answered is None or eof is None or eof < answered:
        p.append("decision 8.6: the client waits for the system.shutdown response, then closes "
                 "stdin; shutdown answered at %s, stdin EOF at %s" % (answered, eof))
    return run


def loaf_modes(scale):
    grace = 5.0 * scale

    def well_behaved(p, o):
        run = loaf_common(p, o, scale, 0, False)
        if run:
            expect_exited_itself(p, run, "the fake exits 0 once stdin closes (decision 8.6)")
        expect_transcript(p, o)

    def non_json_stdout(p, o):
        run = loaf_common(p, o, scale, 1, True)
        if run:
            expect_exited_itself(p, run, "decision 8.8: the client logs and skips non-JSON "
                                 "lines; it does not signal the server for them")

    def sigterm_after_eof(p, run):
        eof = run.get("stdin_eof_at")
        sigs = run.get("signals", [])
        term = next((s for s in sigs if s.get("name") == "SIGTERM"), None)
        if term is None:
            p.append("decision 8.6: the client sends SIGTERM when the server has not exited 5 s "
                     "after stdin closed; the fake got signals %s" % short(sigs))
            return None
        if eof is None:
            p.append("decision 8.6: the client closes stdin, allows 5 s, then sends SIGTERM; the "
                     "fake got SIGTERM but never saw stdin EOF")
        elif term["t"] - eof < WAIT_SLACK * grace:
            p.append("decision 8.6: the client closes stdin, then allows 5 s (x time scale = "
                     "%.2f s) for exit before SIGTERM; SIGTERM came %.3f s %s the fake saw stdin "
                     "EOF" % (grace, abs(term["t"] - eof), "after" if term["t"] >= eof else "BEFORE"))
        return term

    def needs_sigterm(p, o):
        run = loaf_common(p, o, scale, 1, True)
        if run:
            sigterm_after_eof(p, run)
            ex = run.get("exit")
            if not ex or ex.get("code") != 0:
                p.append("the fake exits 0 on SIGTERM; its exit record is %s" % short(ex))
            expect_gone(p, o, run, "decision 8.6")

    def needs_sigkill(p, o):
        run = loaf_common(p, o, scale, 1, True)
        if run:
            sigterm_after_eof(p, run)
            if run.get("exit"):
                p.append("the fake ignores SIGTERM and cannot exit by itself; exit record %s"
                         % short(run.get("exit")))
            expect_gone(p, o, run, "decision 8.6: SIGKILL 5 s after SIGTERM")

    return {
        "well_behaved": (LOAF_CALLS, well_behaved, "8.1, 8.2, 8.6"),
        "non_json_stdout": (LOAF_CALLS, non_json_stdout, "8.8"),
        "needs_sigterm": (LOAF_CALLS, needs_sigterm, "8.6"),
        "needs_sigkill": (LOAF_CALLS, needs_sigkill, "8.6"),
    }


# --------------------------------------------------------------------------------------------
# Codex metadata plugins 1.0
# --------------------------------------------------------------------------------------------

CODEX_CALLS = [("ping", None), ("metadata/search", {"query": "blue harbor"}),
               ("metadata/get", {"externalId": "fake-1"})]


def codex_search_ok(r):
    return (isinstance(r, dict) and isinstance(r.get("results"), list) and r["results"]
            and r["results"][0].get("externalId") == "fake-1" and "oversize" not in r)


def codex_get_ok(r):
    return isinstance(r, dict) and r.get("externalId") == "fake-1" and "oversize" not in r


def codex_run_wire(p, run, label):
    """Section 1/2/8.2 rules on what one process received."""
    reqs = received_requests(run)
    if not reqs:
        p.append("%s: the fake received no request" % label)
        return reqs
    if reqs[0]["method"] != "initialize":
        p.append("%s: section 2: initialize is the first request; got %s"
                 % (label, [m["method"] for m in reqs]))
    ip = reqs[0].get("params")
    if reqs[0]["method"] == "initialize" and not (isinstance(ip, dict)
                                                  and isinstance(ip.get("config"), dict)):
        p.append("%s: section 2.1 / decision 8.2: initialize params are an object that always "
                 "has config; got %s" % (label, short(ip)))
    ids = [m["id"] for m in reqs]
    if ids != list(range(1, len(ids) + 1)):
        p.append("%s: section 1: ids are integers starting at 1, increasing by 1 per request "
                 "per process; got %s" % (label, ids))
    with_params = [m for m in reqs if m["method"] in ("ping", "shutdown") and "params" in m]
    if with_params:
        p.append("%s: section 1 / decision 8.2: the params member is omitted for ping and "
                 "shutdown; got %s" % (label, short(with_params)))
    return reqs


def codex_common(p, o, calls, exit_code, violation, runs=1, results=True):
    expect_exit(p, o, exit_code, "plain-mode contract: 0 = the peer conformed, 1 = it did not")
    expect_violations(p, o, violation, "the contract prints each peer violation")
    expect_call_lines(p, o, calls)
    if results:
        expect_result(p, o, 0, lambda r: r == "pong", "ping's \"pong\"")
        expect_result(p, o, 1, codex_search_ok, "the fake's SearchResponse (fake-1)")
        expect_result(p, o, 2, codex_get_ok, "the fake's SeriesMetadata (fake-1)")
    if runs is not None:
        expect_runs(p, o, runs, "no restart expected")
    for n, run in enumerate(o.runs):
        codex_run_wire(p, run, "run %d" % (n + 1))


def codex_modes(scale):
    wait = 5.0 * scale

    def well_behaved(p, o):
        codex_common(p, o, CODEX_CALLS, 0, False)
        for run in o.runs[:1]:
            methods = [m["method"] for m in received_requests(run)]
            if methods[-1:] != ["shutdown"]:
                p.append("section 2: the host stops the plugin with shutdown; got %s" % methods)
            expect_exited_itself(p, run, "section 2: the plugin answers shutdown and exits 0")
        expect_transcript(p, o)

    def string_decimal_ids(p, o):
        # Section 1: the plugin copies the id unchanged (violated), and the host accepts a string
        # id holding the decimal (so every call still succeeds).
        codex_common(p, o, CODEX_CALLS, 1, True)

    def oversize_line(p, o):
        codex_common(p, o, CODEX_CALLS, 1, True)
        for run in o.runs[:1]:
            expect_exited_itself(p, run, "decision 8.12: a line over 1 MiB is discarded, not "
                                 "a reason to kill")

    flood_calls = [("ping", None), ("metadata/search", {"query": "flood"}),
                   ("metadata/search", {"query": "after"}), ("ping", None)]

    def output_flood(p, o):
        codex_common(p, o, flood_calls, 1, True, runs=None, results=False)
        if len(o.runs) < 2:
            p.append("decision 8.12: the host restarts a plugin whose stdout passed 100 MiB; "
                     "the fake was started %d time(s)" % len(o.runs))
            return
        if event_time(o.runs[0], "flood_started") is None:
            p.append("run 1 did not flood (test set-up)")
        expect_gone(p, o, o.runs[0], "the flooding process is stopped when it is replaced")
        expect_result(p, o, 2, codex_search_ok, "the restarted plugin's SearchResponse")
        expect_result(p, o, 3, lambda r: r == "pong", "the restarted plugin's \"pong\"")
        later = [m["method"] for m in received_requests(o.runs[-1])]
        if "metadata/search" not in later:
            p.append("the restarted plugin received no metadata/search; got %s" % later)

    init_calls = [("ping", None)] * 4

    def fail_initialize(p, o):
        # A failed initialize is a legal answer: the exit status is not checked (0 or 1).
        expect_exit(p, o, (0, 1), "not a usage/launch error")
        expect_call_lines(p, o, init_calls)
        if any("result" in c for c in o.calls):
            p.append("no call can succeed while initialize fails; got %s" % short(o.calls))
        expect_runs(p, o, 3, "section 2: three failed initializations within 3600 s disable "
                    "the plugin (each call that needs it spawns it again until then)")
        for n, run in enumerate(o.runs):
            methods = [m["method"] for m in received_requests(run)]
            if methods != ["initialize"]:
                p.append("run %d: section 2: nothing else is sent before initialize succeeds "
                         "and no shutdown follows a failed one; got %s" % (n + 1, methods))
            expect_gone(p, o, run, "section 2: after a failed initialize the host waits up to "
                        "5 s for exit, then kills")
        last = call_line(o, 3)
        if "failed" not in last:
            p.append("the 4th call fails locally (the plugin is disabled, no 4th spawn); got %s"
                     % short(last))

    rl_calls = [("metadata/search", {"query": "one"}), ("metadata/search", {"query": "two"}),
                ("metadata/search", {"query": "three"})]

    def rate_limited(p, o):
        codex_common(p, o, rl_calls, 0, False, results=False)
        c1 = call_line(o, 0)
        if not ((c1.get("error") or {}).get("code") == -32001 and c1.get("retryAfterSeconds") == 1):
            p.append("section 3: call 1 is answered -32001 with data.retryAfterSeconds 1; the "
                     "call line carries the error and \"retryAfterSeconds\": 1; got %s" % short(c1))
        for i, default in ((1, 60), (2, None)):
            c = call_line(o, i)
            if "error" in c:
                if (c["error"] or {}).get("code") != -32001 or (
                        default and c.get("retryAfterSeconds") != default):
                    p.append("section 3: -32001 without data.retryAfterSeconds means 60; call %d "
                             "got %s" % (i + 1, short(c)))
            elif "failed" in c:
                if c["failed"] != "rate_limited":
                    p.append("call %d may fail locally only as \"rate_limited\"; got %s"
                             % (i + 1, short(c)))
            elif i == 1 or not codex_search_ok(c.get("result")):
                p.append("call %d: got %s" % (i + 1, short(c)))
        # Honouring retry-after: no metadata call reaches the plugin before it has elapsed.
        for run in o.runs:
            answers = [e for e in run.get("events", []) if e.get("what") == "rate_limited_answered"]
            meta = [e["t"] for e in run.get("received", [])
                    if isinstance(e.get("msg"), dict)
                    and str(e["msg"].get("method", "")).startswith("metadata/")]
            for a in answers:
                wait_s = (a.get("retry_after") if a.get("retry_after") is not None else 60) * scale
                nxt = [t for t in meta if t > a["t"]]
                if nxt and nxt[0] - a["t"] < WAIT_SLACK * wait_s:
                    p.append("section 3: after -32001 (retryAfterSeconds %s, scaled %.2f s) the "
                             "next metadata call reached the plugin after %.3f s"
                             % (a.get("retry_after"), wait_s, nxt[0] - a["t"]))

    def stays_alive_after_shutdown(p, o):
        codex_common(p, o, [("ping", None)], 1, True, results=False)
        expect_result(p, o, 0, lambda r: r == "pong", "ping's \"pong\"")
        for run in o.runs[:1]:
            answered = run.get("shutdown_answered_at")
            if answered is None:
                p.append("the fake never answered shutdown (it was not sent?)")
                continue
            if run.get("stdin_eof_during_wait"):
                p.append("section 2: stdin stays open during the 5 s wait after shutdown; the "
                         "fake saw EOF %.3f s after its answer"
                         % (run.get("stdin_eof_at", 0) - answered))
            sig = next((s for s in run.get("signals", [])), None)
            if sig and sig["t"] - answered < WAIT_SLACK * wait:
                p.append("section 2: the host waits 5 s (x scale = %.2f s) before killing; %s "
                         "came after %.3f s" % (wait, sig["name"], sig["t"] - answered))
            expect_gone(p, o, run, "section 2: killed after the 5 s wait")

    return {
        "well_behaved": (CODEX_CALLS, well_behaved, "1, 2, 2.1, 8.2"),
        "string_decimal_ids": (CODEX_CALLS, string_decimal_ids, "1 Ids"),
        "oversize_line": (CODEX_CALLS, oversize_line, "1, 8.12"),
        "output_flood": (flood_calls, output_flood, "1, 8.12"),
        "fail_initialize": (init_calls, fail_initialize, "2 Failure accounting"),
        "rate_limited": (rl_calls, rate_limited, "3 (-32001)"),
        "stays_alive_after_shutdown": ([("ping", None)], stays_alive_after_shutdown,
                                       "2 Deadlines"),
    }


PROTOCOLS = {"desktop": desktop_modes, "loaf": loaf_modes, "codex": codex_modes}


# --------------------------------------------------------------------------------------------

def generic_checks(host, workdir):
    """Usage and launch errors exit 2 (contract)."""
    results = []
    for name, argv in (("usage_error_exit_2", [host, "--plain"]),
                       ("launch_error_exit_2", [host, "--plain", "--",
                                                os.path.join(workdir, "no-such-plugin")])):
        try:
            proc = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, timeout=60)
            rc = proc.returncode
        except subprocess.TimeoutExpired:
            rc = None
        results.append((name, "contract", [] if rc == 2 else
                        ["%s exited %s, expected 2" % (" ".join(argv), rc)]))
    return results


def main():
    args = sys.argv[1:]
    scale, only, keep, list_only = DEFAULT_SCALE, [], None, False
    while args and args[0].startswith("--"):
        opt = args.pop(0)
        if opt == "--time-scale" and args:
            scale = float(args.pop(0))
        elif opt == "--only" and args:
            only.append(args.pop(0))
        elif opt == "--keep" and args:
            keep = args.pop(0)
        elif opt == "--list":
            list_only = True
        else:
            sys.stderr.write(__doc__)
            return 2
    if len(args) != 3 or args[0] not in PROTOCOLS:
        sys.stderr.write(__doc__)
        return 2
    protocol, host, fake = args
    modes = PROTOCOLS[protocol](scale)
    if list_only:
        for mode, (calls, _, ref) in modes.items():
            print("%s [%s] calls: %s" % (mode, ref, [m for m, _ in calls]))
        return 0
    workdir = keep or tempfile.mkdtemp(prefix="host-rules-")
    os.makedirs(workdir, exist_ok=True)
    print("# %s host rules: %s with %s (time scale %s, files in %s)"
          % (protocol, host, fake, scale, workdir), flush=True)
    failed = []
    results = []
    if not only:
        results = generic_checks(host, workdir)
        for name, ref, problems in results:
            report_line(name, ref, problems, None)
            if problems:
                failed.append((name, problems))
    for mode, (calls, checker, ref) in modes.items():
        if only and mode not in only:
            continue
        o = run_host(host, fake, mode, calls, scale, workdir)
        problems = []
        if o.rc is None:
            problems.append("the host did not finish within %.0f s (killed)" % HOST_TIMEOUT)
        if not o.runs:
            problems.append("the host never started the fake (exit status %s)" % o.rc)
        else:
            try:
                checker(problems, o)
            except Exception as exc:  # a bug here, or a report of an unexpected shape
                problems.append("driver error: %r" % (exc,))
        report_line(mode, ref, problems, o)
        if problems:
            failed.append((mode, problems))
    print("# %d failed" % len(failed))
    if failed or keep:
        return 1 if failed else 0
    shutil.rmtree(workdir, ignore_errors=True)  # its transcripts are kept only when they tell why
    return 0


def report_line(name, ref, problems, o):
    took = "" if o is None else " (%.1f s)" % o.took
    if not problems:
        print("PASS %s [%s]%s" % (name, ref, took), flush=True)
        return
    print("FAIL %s [%s]%s:" % (name, ref, took), flush=True)
    for pr in problems:
        print("    - %s" % pr, flush=True)
    if o is not None:
        print("    host: exit %s; stderr tail: %s" % (o.rc, short(o.stderr.strip().splitlines()[-4:], 600)))


if __name__ == "__main__":
    sys.exit(main())
