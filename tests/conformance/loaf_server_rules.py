#!/usr/bin/env python3
"""Conformance probe for the SERVER side of loaf RPC 1.0.0 (spec: loaf-rpc-v1.md).

A fake client written from the spec alone drives a server (the process a client spawns as
`loaf rpc`) and checks the transport rules the spec puts on the server: framing (section 1,
decision 8.7), ids (decision 8.2), the error table (section 3), lifecycle and shutdown
(section 2, decision 8.6). Only the lifecycle methods are used: rpc.handshake, system.ping,
system.shutdown.

usage: loaf_server_rules.py [--only NAME]... [--list] [--] <server command...>
       (e.g. loaf_server_rules.py /path/to/loaf-server rpc)
Exit 0 when every check passed, 1 with the list of failed checks otherwise.
"""

import os
import re
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peerlib import (BIG_REPLY_TIMEOUT, EXIT_TIMEOUT, GRACE, MIB, REPLY_TIMEOUT, CheckFailed,
                     big_line, describe_status, dumps, error_of, expect, is_notification,
                     is_response, main, memory_verdict, same_id, short)

LINE_LIMIT = 64 * MIB      # decision 8.7: lines of at least 64 MiB are accepted
OVERSIZE = 2 * LINE_LIMIT  # the over-long line sent (128 MiB)
FLOOD_LINES = 20000
ISO_MS = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(Z|\+00:00)$")

SECTION4_METHODS = sorted("""
rpc.handshake system.ping system.shutdown state.get session.create session.get session.send
session.steer session.interrupt session.queue.list session.queue.clear command.execute
auth.status auth.connect.openai auth.connect.antigravity auth.set.openrouter_key
auth.set.exa_key onboarding.status onboarding.complete model.list model.select
model.openrouter.providers limits.get history.list history.get history.clear_session
skills.list tools.list debug.set""".split())


def request(c, id_value, method, params=None, omit_params=True):
    msg = {"jsonrpc": "2.0", "id": id_value, "method": method}
    if not omit_params or params is not None:
        msg["params"] = params
    return c.send(msg)


def call(c, id_value, method, what, params=None, timeout=REPLY_TIMEOUT):
    since = c.mark()
    request(c, id_value, method, params)
    resp = c.wait_response(id_value, timeout, since)
    if resp is None:
        raise CheckFailed("%s: no response with id %s within %.0f s (server %s)"
                          % (what, short(id_value), timeout, c.describe_end()))
    return resp


def ping(c, id_value, what, timeout=REPLY_TIMEOUT):
    resp = call(c, id_value, "system.ping", what, timeout=timeout)
    r = resp.get("result")
    expect(isinstance(r, dict) and r.get("ok") is True,
           "%s: system.ping answers {ok: true, time} (section 2); got %s" % (what, short(resp)))
    return resp


def handshake(c, id_value=1):
    return call(c, id_value, "rpc.handshake", "decision 8.1: rpc.handshake",
                {"client_name": "conformance", "client_version": "1", "protocol_version": "1.0.0"})


def state_changed(m, reason=None):
    if not (is_notification(m) and m.get("method") == "event"):
        return False
    p = m.get("params") or {}
    if p.get("type") != "state.changed":
        return False
    return reason is None or (p.get("payload") or {}).get("reason") == reason


def invalid_reply_problem(errs, reason, own_ids=()):
    """None when errs is exactly one -32600/-32700 reply with id null and data.reason."""
    if len(errs) != 1:
        return "expected exactly one reply, got %d: %s" % (len(errs), short(errs))
    e = errs[0]
    err = error_of(e) or {}
    want_code = -32700 if reason == "parse_error" else -32600
    problems = []
    if err.get("code") != want_code:
        problems.append("code %s (want %d)" % (short(err.get("code")), want_code))
    if "id" not in e or e["id"] is not None:
        problems.append("id %s (want null)" % short(e.get("id")))
    data = err.get("data")
    if not isinstance(data, dict) or data.get("reason") != reason:
        problems.append("data %s (want {reason: %s})" % (short(data), reason))
    return ("; ".join(problems) + " in " + short(e)) if problems else None


def probe_invalid(c, raw, reason, sentinel):
    """Sends one raw line then a sentinel ping; returns a problem text or None."""
    since = c.mark()
    ok = c.send_raw(raw)
    if not ok:
        return "the server closed stdin (%s)" % c.describe_end()
    ping(c, sentinel, "section 3: the server keeps serving after an invalid line")
    time.sleep(GRACE)
    errs = [m for m in c.messages(since) if is_response(m) and not same_id(m.get("id"), sentinel)]
    return invalid_reply_problem(errs, reason)


def build(suite):
    @suite.check("handshake_result", "2 HandshakeResult")
    def _(ctx):
        c = ctx.spawn()
        resp = handshake(c)
        r = resp.get("result")
        expect(isinstance(r, dict), "section 2: rpc.handshake answers HandshakeResult; got %s"
               % short(resp))
        problems = []
        if r.get("protocol_version") != "1.0.0":
            problems.append("protocol_version %s (want \"1.0.0\")" % short(r.get("protocol_version")))
        if r.get("server_name") != "loaf":
            problems.append("server_name %s (want \"loaf\")" % short(r.get("server_name")))
        caps = r.get("capabilities")
        want_caps = {"events": True, "command_execute": True, "multi_session": True,
                     "image_inputs": ["path", "data_url"]}
        if not isinstance(caps, dict) or any(caps.get(k) != v for k, v in want_caps.items()):
            problems.append("capabilities %s (want %s)" % (short(caps), short(want_caps)))
        methods = r.get("methods")
        if not isinstance(methods, list) or methods != sorted(methods):
            problems.append("methods not a sorted string list: %s" % short(methods))
        else:
            missing = [m for m in SECTION4_METHODS if m not in methods]
            if missing:
                problems.append("methods lacks %s" % ", ".join(missing))
        expect(not problems, "section 2 HandshakeResult: " + "; ".join(problems))

    @suite.check("handshake_strict_version_mismatch", "2 Handshake params")
    def _(ctx):
        c = ctx.spawn()
        resp = call(c, 1, "rpc.handshake", "section 2: strict handshake",
                    {"protocol_version": "9.9.9", "strict": True})
        err = error_of(resp) or {}
        data = err.get("data") if isinstance(err.get("data"), dict) else {}
        expect(err.get("code") == -32602 and data.get("reason") == "unsupported_protocol_version"
               and data.get("supported") == "1.0.0",
               "section 2: strict: true with protocol_version other than \"1.0.0\" is answered "
               "-32602 with data {reason: \"unsupported_protocol_version\", supported: \"1.0.0\"}; "
               "got %s" % short(resp))

    @suite.check("ping_result", "2 system.ping")
    def _(ctx):
        c = ctx.spawn()
        handshake(c)
        resp = ping(c, 2, "section 2")
        t = resp["result"].get("time")
        expect(isinstance(t, str) and ISO_MS.match(t),
               "section 2: system.ping time is the current UTC time, ISO 8601 with milliseconds; "
               "got %s" % short(t))

    @suite.check("ids_echoed_including_null", "8.2, 1 Request")
    def _(ctx):
        c = ctx.spawn()
        handshake(c)
        bad = []
        for id_value in ["abc", 17, 0, -3, "", "17", None]:
            since = c.mark()
            request(c, id_value, "system.ping")
            resp = c.wait_for(lambda m: is_response(m) and "id" in m and same_id(m["id"], id_value)
                              and isinstance(m.get("result"), dict), REPLY_TIMEOUT, since)
            if resp is None:
                bad.append("id %s: no success echoing it (saw %s)"
                           % (short(id_value), short(c.messages(since), 200)))
        expect(not bad, "decision 8.2: the server answers string, number and null ids, echoing "
               "the value; " + "; ".join(bad))

    @suite.check("non_json_line_parse_error", "3 (-32700)")
    def _(ctx):
        c = ctx.spawn()
        handshake(c)
        problem = probe_invalid(c, b"this is not json {\n", "parse_error", 2)
        expect(problem is None, "section 3: a line that is not valid JSON is answered -32700, "
               "id null, data {reason: \"parse_error\"}: %s" % problem)

    @suite.check("batch_not_supported", "1, 3 (-32600 batch)")
    def _(ctx):
        c = ctx.spawn()
        handshake(c)
        raw = b'[{"jsonrpc":"2.0","id":"b-1","method":"system.ping"}]\n'
        since = c.mark()
        problem = probe_invalid(c, raw, "batch_not_supported", 2)
        processed = c.responses_to("b-1", since)
        expect(problem is None and not processed,
               "section 3: a JSON array (batch) is answered -32600, id null, data {reason: "
               "\"batch_not_supported\"} and not executed: %s%s"
               % (problem or "", "; the request inside was answered" if processed else ""))

    invalid_cases = [
        ("jsonrpc_1_0", {"jsonrpc": "1.0", "id": 5, "method": "system.ping"}),
        ("jsonrpc_missing", {"id": 6, "method": "system.ping"}),
        ("jsonrpc_number", {"jsonrpc": 2.0, "id": 7, "method": "system.ping"}),
        ("method_empty", {"jsonrpc": "2.0", "id": 8, "method": ""}),
        ("method_blank", {"jsonrpc": "2.0", "id": 9, "method": "   "}),
        ("method_missing", {"jsonrpc": "2.0", "id": 10, "params": {}}),
        ("method_not_string", {"jsonrpc": "2.0", "id": 11, "method": 42}),
        ("id_boolean", {"jsonrpc": "2.0", "id": True, "method": "system.ping"}),
        ("id_object", {"jsonrpc": "2.0", "id": {"n": 1}, "method": "system.ping"}),
        ("id_array", {"jsonrpc": "2.0", "id": [1], "method": "system.ping"}),
        ("response_result", {"jsonrpc": "2.0", "id": 12, "result": {}}),
        ("response_error", {"jsonrpc": "2.0", "id": 13,
                            "error": {"code": -32000, "message": "x"}}),
        ("not_object_number", 42),
        ("not_object_string", "system.ping"),
        ("not_object_null", None),
        ("not_object_true", True),
    ]

    @suite.check("invalid_requests", "3 (-32600 invalid_request)")
    def _(ctx):
        c = ctx.spawn()
        handshake(c)
        for n, (label, msg) in enumerate(invalid_cases):
            if not c.alive():
                ctx.sub(label, "3", False, "the server had exited before this case: %s"
                        % c.describe_end())
                continue
            try:
                problem = probe_invalid(c, dumps(msg) + b"\n", "invalid_request", "s-%d" % n)
            except CheckFailed as exc:
                problem = str(exc)
            ctx.sub(label, "3", problem is None,
                    "" if problem is None else
                    "section 3: %s is answered -32600, id null, data {reason: \"invalid_request\"}"
                    ": %s" % (short(msg), problem))

    @suite.check("unknown_method", "3 (-32601)")
    def _(ctx):
        c = ctx.spawn()
        handshake(c)
        resp = call(c, 2, "conformance.no_such_method", "section 3")
        err = error_of(resp) or {}
        data = err.get("data") if isinstance(err.get("data"), dict) else {}
        expect(err.get("code") == -32601 and data.get("reason") == "method_not_found"
               and data.get("method") == "conformance.no_such_method",
               "section 3: an unknown method is answered -32601 with the request id and data "
               "{reason: \"method_not_found\", method}; got %s" % short(resp))
        resp = call(c, 3, " system.ping", "section 3: names are matched exactly, untrimmed")
        expect((error_of(resp) or {}).get("code") == -32601,
               "section 3: method names are matched exactly, untrimmed: \" system.ping\" gets "
               "-32601; got %s" % short(resp))

    @suite.check("client_notifications_ignored", "1")
    def _(ctx):
        c = ctx.spawn()
        handshake(c)
        since = c.mark()
        c.send({"jsonrpc": "2.0", "method": "system.ping"})
        c.send({"jsonrpc": "2.0", "method": "conformance.no_such_notification", "params": {}})
        ping(c, 2, "section 1: the server keeps serving after client notifications")
        time.sleep(GRACE)
        extra = [m for m in c.messages(since) if is_response(m) and not same_id(m.get("id"), 2)]
        expect(not extra, "section 1: client notifications (no id member) are accepted and "
               "silently ignored; got %s" % short(extra))

    @suite.check("line_endings_and_blank_lines", "1 Framing")
    def _(ctx):
        c = ctx.spawn()
        handshake(c)
        since = c.mark()

        def p(i):
            return dumps({"jsonrpc": "2.0", "id": i, "method": "system.ping"})
        c.send_raw(p("crlf") + b"\r\n" + p("cr") + b"\r" + p("lf") + b"\n" + b"  \t" + p("ws")
                   + b" \t\n" + b"\n\r\n   \n\r" + p("after-blank") + b"\n")
        bad = []
        for i in ["crlf", "cr", "lf", "ws", "after-blank"]:
            if c.wait_response(i, REPLY_TIMEOUT, since) is None:
                bad.append("%s not answered" % i)
        ping(c, "last", "section 1")
        time.sleep(GRACE)
        for i in ["crlf", "cr", "lf", "ws", "after-blank"]:
            n = len(c.responses_to(i, since))
            if n > 1:
                bad.append("%s answered %d times" % (i, n))
        extra = [m for m in c.messages(since) if is_response(m) and m.get("id") is None]
        if extra:
            bad.append("errors for blank lines / separators: %s" % short(extra))
        expect(not bad, "section 1: the server splits input on LF, CRLF or a lone CR, trims each "
               "line and skips empty lines; " + "; ".join(bad))

    @suite.check("line_of_64_mib_accepted", "8.7")
    def _(ctx):
        c = ctx.spawn()
        handshake(c)
        line = big_line(b'{"jsonrpc":"2.0","id":"big","method":"system.ping","params":{"pad":"',
                        b'"}}', LINE_LIMIT + 1)
        outcome = c.send_bounded(line)
        del line
        expect(outcome == "ok", "decision 8.7: a 64 MiB line must be read; writing it ended %s "
               "(server %s)" % (outcome, c.describe_end()))
        resp = c.wait_response("big", BIG_REPLY_TIMEOUT)
        expect(resp is not None and isinstance(resp.get("result"), dict),
               "decision 8.7: peers accept lines of at least 64 MiB; a 64 MiB (LF not counted) "
               "system.ping (params ignored) got %s (server %s)" % (short(resp), c.describe_end()))

    @suite.check("oversize_line", "8.7")
    def _(ctx):
        c = ctx.spawn()
        handshake(c)
        base = c.start_hwm_sampler()
        since = c.mark()
        line = big_line(b'{"jsonrpc":"2.0","id":"over","method":"system.ping","params":{"pad":"',
                        b'"}}', OVERSIZE)
        outcome = c.send_bounded(line)
        del line
        request(c, 2, "system.ping")
        resp = c.wait_response(2, BIG_REPLY_TIMEOUT, since)
        time.sleep(GRACE)
        serving = resp is not None and isinstance(resp.get("result"), dict)
        ctx.sub("keeps_serving", "8.7", serving,
                "" if serving else
                "decision 8.7: a line over 64 MiB is dropped and the server keeps serving; after "
                "a %d MiB line the next system.ping got %s (writing the line: %s; server %s)"
                % (OVERSIZE // MIB, short(resp), outcome, c.describe_end()))
        errs = [m for m in c.messages(since) if is_response(m) and not same_id(m.get("id"), 2)]
        problem = invalid_reply_problem(errs, "invalid_request")
        ctx.sub("answered_invalid_request", "8.7", problem is None,
                "" if problem is None else
                "decision 8.7: a line over 64 MiB is answered -32600, id null, data {reason: "
                "\"invalid_request\"}: %s" % problem)
        ok, message = memory_verdict(c, base, OVERSIZE, LINE_LIMIT)
        ctx.sub("memory_bounded", "8.7 / issue 23", ok, message)

    @suite.check("non_json_flood_survived", "3")
    def _(ctx):
        c = ctx.spawn()
        handshake(c)
        err_before, lines_before = c.stderr_snapshot()
        since = c.mark()
        flood = b"".join(b"not json %d {\n" % i for i in range(FLOOD_LINES))
        outcome = c.send_bounded(flood)
        expect(outcome == "ok", "section 3: %d non-JSON lines must be read; writing them ended %s "
               "(server %s)" % (FLOOD_LINES, outcome, c.describe_end()))
        ping(c, 2, "section 3: after a flood of %d non-JSON lines the server keeps serving"
             % FLOOD_LINES, timeout=BIG_REPLY_TIMEOUT)
        n = len([m for m in c.messages(since) if is_response(m) and m.get("id") is None
                 and (error_of(m) or {}).get("code") == -32700])
        err_after, lines_after = c.stderr_snapshot()
        expect(n == FLOOD_LINES, "section 3: each non-JSON line is answered -32700; %d of %d were"
               % (n, FLOOD_LINES))
        return "still answering; stderr during the flood: %d lines, %d bytes (info only)" % (
            lines_after - lines_before, err_after - err_before)

    @suite.check("stdin_eof", "2 Shutdown, 8.6")
    def _(ctx):
        c = ctx.spawn()
        handshake(c)
        since = c.mark()
        t = time.monotonic()
        c.close_stdin()
        rc = c.wait_exit(EXIT_TIMEOUT)
        expect(rc == 0, "section 2 / decision 8.6: the server exits with status 0 promptly once "
               "stdin is closed; after %.0f s: status %s" % (EXIT_TIMEOUT, describe_status(rc)))
        c.wait_stdout_eof(EXIT_TIMEOUT)
        events = [m for m in c.messages(since) if state_changed(m)]
        expect(not events, "section 2: when stdin closes the server shuts down and no "
               "state.changed is delivered; got %s" % short(events))
        return "exited 0 after %.2f s" % (time.monotonic() - t)

    def shutdown_flow(ctx, params, want_reason):
        c = ctx.spawn()
        handshake(c)
        since = c.mark()
        request(c, 2, "system.shutdown", params)
        resp = c.wait_response(2, REPLY_TIMEOUT, since)
        r = resp.get("result") if resp else None
        ok = isinstance(r, dict) and r.get("accepted") is True and (
            r.get("reason") == want_reason if params else "reason" not in r)
        ctx.sub("answered", "2 Shutdown", ok,
                "" if ok else
                "section 2: system.shutdown answers {accepted: true} plus reason only when one "
                "was given (given: %s); got %s (server %s)"
                % (short(params), short(resp), c.describe_end()))
        if resp is None:
            return
        msgs = c.messages(since)
        idx_resp = next(i for i, m in enumerate(msgs) if is_response(m) and same_id(m.get("id"), 2))
        events = [(i, m) for i, m in enumerate(msgs) if state_changed(m, want_reason)]
        ev_ok = bool(events) and events[0][0] < idx_resp
        detail = ""
        if events:
            env = events[0][1]["params"]
            pl = env.get("payload") or {}
            if not (isinstance(env.get("timestamp"), str) and ISO_MS.match(env["timestamp"])
                    and isinstance(pl.get("snapshot"), dict)):
                ev_ok = False
                detail = "; the envelope lacks timestamp (ISO 8601 with ms) or payload.snapshot: " \
                    + short(env)
        ctx.sub("state_changed_before_answer", "2 Shutdown, 5", ev_ok,
                "" if ev_ok else
                "section 2: system.shutdown emits state.changed with reason %s, then answers; "
                "events seen: %s%s" % (short(want_reason),
                                       short([m for m in msgs if is_notification(m)]), detail)
                + ("" if not events or events[0][0] < idx_resp else " (it came after the answer)"))
        # After the response the server ignores every further input line.
        request(c, 3, "system.ping")
        c.send_raw(b"not json after shutdown\n")
        time.sleep(3 * GRACE)
        alive = c.alive()
        ctx.sub("does_not_exit_by_itself", "2 Shutdown", alive,
                "" if alive else
                "section 2: after system.shutdown the process does not exit by itself, it ends "
                "after stdin closes; it %s with stdin still open" % c.describe_end())
        t = time.monotonic()
        c.close_stdin()
        rc = c.wait_exit(EXIT_TIMEOUT)
        ctx.sub("exits_0_after_stdin_closes", "2 Shutdown, 8.6", rc == 0,
                "" if rc == 0 else
                "decision 8.6: the server exits with status 0 promptly once stdin is closed; "
                "after %.0f s: status %s" % (EXIT_TIMEOUT, describe_status(rc)))
        c.wait_stdout_eof(EXIT_TIMEOUT)
        later = [m for m in c.messages(since) if is_response(m)
                 and (same_id(m.get("id"), 3) or m.get("id") is None)]
        ctx.sub("ignores_later_input", "2 Shutdown", not later,
                "" if not later else
                "section 2: after the shutdown response is written the server ignores every "
                "further input line; got %s" % short(later))

    @suite.check("shutdown", "2 Shutdown")
    def _(ctx):
        shutdown_flow(ctx, None, "shutdown")

    @suite.check("shutdown_with_reason", "2 Shutdown")
    def _(ctx):
        shutdown_flow(ctx, {"reason": "conformance-bye"}, "conformance-bye")

    def signal_flow(ctx, sig, reason):
        c = ctx.spawn()
        handshake(c)
        since = c.mark()
        c.proc.send_signal(sig)
        ev = c.wait_for(lambda m: state_changed(m, reason), EXIT_TIMEOUT, since)
        rc = c.wait_exit(EXIT_TIMEOUT)
        problems = []
        if ev is None:
            problems.append("no state.changed with reason %s (events: %s)"
                            % (reason, short([m for m in c.messages(since) if is_notification(m)])))
        if rc != 0:
            problems.append("status %s after %.0f s with stdin open"
                            % (describe_status(rc), EXIT_TIMEOUT))
        expect(not problems, "section 2: on %s the server emits state.changed with reason %s, "
               "stops reading and exits 0; %s" % (sig.name, reason, "; ".join(problems)))

    @suite.check("sigterm", "2 Shutdown")
    def _(ctx):
        signal_flow(ctx, signal.SIGTERM, "sigterm")

    @suite.check("sigint", "2 Shutdown")
    def _(ctx):
        signal_flow(ctx, signal.SIGINT, "sigint")

    @suite.check("stdout_only_protocol_messages", "1")
    def _(ctx):
        c = ctx.spawn()
        handshake(c)
        ping(c, 2, "section 2")
        call(c, 3, "conformance.no_such_method", "section 3")
        c.send_raw(b"not json\n")
        call(c, 4, "system.shutdown", "section 2")
        c.close_stdin()
        c.wait_exit(EXIT_TIMEOUT)
        c.wait_stdout_eof(EXIT_TIMEOUT)
        bad = []
        for ln in c.lines:
            m = ln.msg
            if not ln.is_json or not isinstance(m, dict):
                bad.append("not a JSON object: %s" % short(ln.raw, 120))
            elif m.get("jsonrpc") != "2.0":
                bad.append("no \"jsonrpc\":\"2.0\": %s" % short(m, 120))
            elif "method" in m and not (m.get("method") == "event" and "id" not in m
                                        and isinstance(m.get("params"), dict)
                                        and isinstance(m["params"].get("type"), str)
                                        and isinstance(m["params"].get("payload"), dict)):
                bad.append("server->client messages are responses or `event` notifications "
                           "with an EventEnvelope: %s" % short(m, 160))
            elif "method" not in m and not (is_response(m) and ("result" in m) != ("error" in m)):
                bad.append("not a response: %s" % short(m, 120))
        expect(not bad, "section 1: stdout carries JSON-RPC responses and `event` notifications "
               "only; " + "; ".join(bad[:5]))


if __name__ == "__main__":
    sys.exit(main("loaf RPC 1.0.0, server-side rules", build))
