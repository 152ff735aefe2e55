#!/usr/bin/env python3
"""Conformance probe for the SPAWNED side of desktop-plugins v1 (spec: desktop-plugins-v1.md).

A fake host written from the spec alone drives a plugin over its stdin/stdout and checks the
rules the spec puts on a plugin: framing (section 1, decisions 9.7, 9.8, 9.11), ids (1, 9.3),
errors (3), lifecycle (2, 9.10). Only plugin/health and plugin/shutdown are used: they are the
methods every plugin implements. Plugin->host requests are answered as a host would
(host/ping, host/request_approval, others -32601).

usage: desktop_plugin_rules.py [--only NAME]... [--list] [--] <plugin command...>
Exit 0 when every check passed, 1 with the list of failed checks otherwise.
"""

import sys
import time
import os

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peerlib import (BIG_REPLY_TIMEOUT, EXIT_TIMEOUT, GRACE, MIB, REPLY_TIMEOUT, CheckFailed,
                     big_line, describe_status, dumps, error_of, expect, is_request, is_response,
                     main, memory_verdict, same_id, short)

LINE_LIMIT = 16 * MIB                 # section 1 / decision 9.8
OVERSIZE = 4 * LINE_LIMIT             # the over-long line sent (64 MiB): 4x the limit, so a
                                      # reader that stops at the limit and one that keeps the
                                      # whole line differ clearly in peak RSS
FLOOD_LINES = 20000


def host_answers(child, msg):
    """Serves plugin->host requests the way the spec's host does (section 4)."""
    if not is_request(msg):
        return
    method = msg["method"]
    if method == "host/ping":
        reply = {"jsonrpc": "2.0", "id": msg["id"], "result": {"pong": True}}
    elif method == "host/request_approval":
        reply = {"jsonrpc": "2.0", "id": msg["id"], "result": {"approved": False}}
    else:
        reply = {"jsonrpc": "2.0", "id": msg["id"],
                 "error": {"code": -32601, "message": "method not found: " + method}}
    child.send(reply)


def spawn(ctx):
    return ctx.spawn(on_message=host_answers)


def healthy(result):
    return isinstance(result, dict) and (result.get("ok") is True or result.get("status") == "ok")


def request(child, id_value, method="plugin/health", params={}, omit_params=False,
            with_jsonrpc=True):
    msg = {"id": id_value, "method": method}
    if with_jsonrpc:
        msg = {"jsonrpc": "2.0", **msg}
    if not omit_params:
        msg["params"] = params
    return child.send(msg)


def health(child, id_value, what, timeout=REPLY_TIMEOUT, **kw):
    """Sends plugin/health and returns its response, failing the check with `what` otherwise."""
    since = child.mark()
    request(child, id_value, **kw)
    resp = child.wait_response(id_value, timeout, since)
    if resp is None:
        raise CheckFailed("%s: no response with id %s within %.0f s (plugin %s)"
                          % (what, short(id_value), timeout, child.describe_end()))
    expect("result" in resp and healthy(resp["result"]),
           "%s: expected a HealthResult with ok true or status \"ok\" (section 6), got %s"
           % (what, short(resp)))
    return resp


def null_id_errors(child, since):
    return [m for m in child.messages(since) if is_response(m) and m.get("id") is None]


def build(suite):
    @suite.check("health_answered", "2, 6")
    def _(ctx):
        c = spawn(ctx)
        resp = health(c, "h-1", "spec 2: plugin/health is sent first and answered with HealthResult")
        expect(resp.get("jsonrpc") == "2.0",
               "spec 9.11: every message carries \"jsonrpc\": \"2.0\"; the health response was %s"
               % short(resp))

    @suite.check("ids_echoed_with_type", "1 Ids, 9.3")
    def _(ctx):
        c = spawn(ctx)
        health(c, "h-1", "spec 2: first health check")
        bad = []
        for id_value in ["h-2", 42, "42", 0, -7, ""]:
            since = c.mark()
            request(c, id_value)
            resp = c.wait_response(id_value, REPLY_TIMEOUT, since)
            if resp is None:
                others = [m for m in c.messages(since) if is_response(m)]
                bad.append("id %s: no response echoing it with its JSON type (responses seen: %s)"
                           % (short(id_value), short(others, 200)))
        expect(not bad, "spec 1 Ids / decision 9.3: both sides accept string and number ids and "
               "echo an id back with the same JSON type and value; " + "; ".join(bad))

    @suite.check("params_absent_null_or_empty", "9.6")
    def _(ctx):
        c = spawn(ctx)
        health(c, "h-1", "decision 9.6: params {} accepted")
        health(c, "h-2", "decision 9.6: params absent accepted", omit_params=True)
        health(c, "h-3", "decision 9.6: params null accepted", params=None)

    @suite.check("message_without_jsonrpc_processed", "9.11")
    def _(ctx):
        c = spawn(ctx)
        health(c, "h-1", "spec 2: first health check")
        health(c, "h-2", "decision 9.11: a received message lacking the jsonrpc member is still "
               "processed; plugin/health without \"jsonrpc\"", with_jsonrpc=False)

    @suite.check("non_json_line_parse_error", "3 (-32700)")
    def _(ctx):
        c = spawn(ctx)
        health(c, "h-1", "spec 2: first health check")
        since = c.mark()
        c.send_raw(b"this is not json\n")
        err = c.wait_for(lambda m: is_response(m) and m.get("id") is None, REPLY_TIMEOUT, since)
        expect(err is not None and (error_of(err) or {}).get("code") == -32700,
               "spec 3: a line that is not valid JSON is answered -32700 with id null; got %s"
               % short(err if err is not None else c.messages(since)))
        health(c, "h-2", "spec 3: the plugin keeps serving after a non-JSON line")

    @suite.check("batch_array_invalid_request", "9.7")
    def _(ctx):
        c = spawn(ctx)
        health(c, "h-1", "spec 2: first health check")
        since = c.mark()
        c.send_raw(b'[{"jsonrpc":"2.0","id":"b-1","method":"plugin/health","params":{}}]\n')
        health(c, "h-2", "decision 9.7: the plugin keeps serving after a batch")
        time.sleep(GRACE)
        errs = null_id_errors(c, since)
        processed = c.responses_to("b-1", since)
        expect(not processed, "decision 9.7: a batch is answered -32600 with id null, not "
               "executed; the request inside it was answered: %s" % short(processed))
        expect(len(errs) == 1 and (error_of(errs[0]) or {}).get("code") == -32600,
               "decision 9.7: a batch array is answered with one -32600, id null; got %s"
               % short(errs))

    @suite.check("invalid_object_invalid_request", "1 Classification, 3 (-32600)")
    def _(ctx):
        c = spawn(ctx)
        health(c, "h-1", "spec 2: first health check")
        bad = []
        cases = [({"jsonrpc": "2.0", "id": "x-1"}, ("x-1", None)),
                 ({"jsonrpc": "2.0", "params": {}}, (None,)),
                 ({"jsonrpc": "2.0", "id": "x-2", "method": 5}, ("x-2", None))]
        for n, (msg, ids) in enumerate(cases):
            since = c.mark()
            c.send(msg)
            sentinel = "s-%d" % n
            health(c, sentinel, "spec 3: the plugin keeps serving after an invalid object")
            time.sleep(GRACE)
            errs = [m for m in c.messages(since) if is_response(m)
                    and not same_id(m.get("id"), sentinel)]
            ok = (len(errs) == 1 and (error_of(errs[0]) or {}).get("code") == -32600
                  and any(same_id(errs[0].get("id"), i) for i in ids))
            if not ok:
                bad.append("%s -> %s" % (short(msg), short(errs)))
        expect(not bad, "spec 1/3: an object that is neither a request nor a response is "
               "answered once with -32600 (id null when unknown); " + "; ".join(bad))

    @suite.check("unknown_method_not_found", "3 (-32601), 7")
    def _(ctx):
        c = spawn(ctx)
        health(c, "h-1", "spec 2: first health check")
        since = c.mark()
        request(c, "h-2", method="conformance/no_such_method")
        resp = c.wait_response("h-2", REPLY_TIMEOUT, since)
        err = error_of(resp) if resp else None
        expect(err is not None and err.get("code") == -32601 and isinstance(err.get("message"), str),
               "spec 3/7: an unknown method gets -32601 (code integer, message string) with the "
               "request's id; got %s" % short(resp))

    @suite.check("notification_never_answered", "2 Concurrency, 5")
    def _(ctx):
        c = spawn(ctx)
        health(c, "h-1", "spec 2: first health check")
        since = c.mark()
        c.send({"jsonrpc": "2.0", "method": "conformance/notify", "params": {}})
        c.send({"jsonrpc": "2.0", "method": "plugin/health", "params": {}})
        health(c, "h-2", "spec 5: the plugin ignores notifications and keeps serving")
        time.sleep(GRACE)
        extra = [m for m in c.messages(since) if is_response(m) and not same_id(m.get("id"), "h-2")]
        expect(not extra, "spec 2: a notification never gets a response, not even an error; "
               "got %s" % short(extra))

    @suite.check("crlf_and_blank_lines", "1 (readers strip one CR, skip blank lines)")
    def _(ctx):
        c = spawn(ctx)
        health(c, "h-1", "spec 2: first health check")
        since = c.mark()
        c.send_raw(b"\n   \n\t\r\n")
        c.send_raw(dumps({"jsonrpc": "2.0", "id": "h-crlf", "method": "plugin/health",
                          "params": {}}) + b"\r\n")
        resp = c.wait_response("h-crlf", REPLY_TIMEOUT, since)
        expect(resp is not None and healthy(resp.get("result")),
               "spec 1: readers strip one trailing CR; a CRLF-terminated plugin/health got %s"
               % short(resp if resp else c.messages(since)))
        health(c, "h-2", "spec 1: the plugin keeps serving after blank lines")
        time.sleep(GRACE)
        extra = [m for m in c.messages(since) if is_response(m)
                 and not same_id(m.get("id"), "h-crlf") and not same_id(m.get("id"), "h-2")]
        expect(not extra, "spec 1: empty or whitespace-only lines are skipped (not answered); "
               "got %s" % short(extra))

    def at_limit(ctx, content_len, label):
        c = spawn(ctx)
        health(c, "h-1", "spec 2: first health check")
        line = big_line(b'{"jsonrpc":"2.0","id":"h-big","method":"plugin/health","params":{"pad":"',
                        b'"}}', content_len + 1)
        outcome = c.send_bounded(line)
        expect(outcome == "ok", "spec 1: a %s line must be read; writing it ended %s (plugin %s)"
               % (label, outcome, c.describe_end()))
        resp = c.wait_response("h-big", BIG_REPLY_TIMEOUT)
        expect(resp is not None and healthy(resp.get("result")),
               "spec 1 / decision 9.8: readers accept lines up to 16 MiB (16,777,216 bytes) and "
               "ignore unknown fields (7); a %s plugin/health got %s (plugin %s)"
               % (label, short(resp), c.describe_end()))

    @suite.check("line_below_limit_accepted", "1, 9.8")
    def _(ctx):
        at_limit(ctx, LINE_LIMIT - 1024, "16 MiB - 1 KiB")

    @suite.check("line_of_exactly_limit_accepted", "1, 9.8")
    def _(ctx):
        at_limit(ctx, LINE_LIMIT, "16,777,216-byte (LF not counted)")

    @suite.check("oversize_line", "9.8")
    def _(ctx):
        c = spawn(ctx)
        health(c, "h-1", "spec 2: first health check")
        base = c.start_hwm_sampler()
        err_before, _ = c.stderr_snapshot()
        since = c.mark()
        line = big_line(b'{"jsonrpc":"2.0","id":"h-over","method":"plugin/health","params":{"pad":"',
                        b'"}}', OVERSIZE)
        outcome = c.send_bounded(line)
        del line
        request(c, "h-2")
        resp = c.wait_response("h-2", BIG_REPLY_TIMEOUT, since)
        time.sleep(GRACE)
        err_after, _ = c.stderr_snapshot()
        serving = resp is not None and healthy(resp.get("result"))
        ctx.sub("keeps_serving", "9.8", serving,
                "" if serving else
                "decision 9.8: a line over 16 MiB is discarded and the plugin keeps serving; after "
                "a %d MiB line the next plugin/health got %s (writing the line: %s; plugin %s)"
                % (OVERSIZE // MIB, short(resp), outcome, c.describe_end()))
        answers = [m for m in c.messages(since) if is_response(m) and not same_id(m.get("id"), "h-2")]
        ctx.sub("not_answered", "9.8", not answers,
                "" if not answers else
                "decision 9.8: a line over 16 MiB is discarded (not processed, not answered); "
                "got %s" % short(answers))
        logged = err_after > err_before
        ctx.sub("logged", "9.8", logged,
                "" if logged else
                "decision 9.8: a discarded over-long line is logged (stderr, section 1); the "
                "plugin wrote nothing on stderr")
        ok, message = memory_verdict(c, base, OVERSIZE, LINE_LIMIT)
        ctx.sub("memory_bounded", "9.8 / issue 23", ok, message)

    @suite.check("non_json_flood_survived", "3")
    def _(ctx):
        c = spawn(ctx)
        health(c, "h-1", "spec 2: first health check")
        err_before, lines_before = c.stderr_snapshot()
        flood = b"".join(b"not json %d {\n" % i for i in range(FLOOD_LINES))
        outcome = c.send_bounded(flood)
        expect(outcome == "ok", "spec 3: %d non-JSON lines must be read; writing them ended %s "
               "(plugin %s)" % (FLOOD_LINES, outcome, c.describe_end()))
        health(c, "h-2", "spec 3: after a flood of %d non-JSON lines the plugin keeps serving"
               % FLOOD_LINES, timeout=BIG_REPLY_TIMEOUT)
        err_after, lines_after = c.stderr_snapshot()
        return "still answering; stderr during the flood: %d lines, %d bytes (info only)" % (
            lines_after - lines_before, err_after - err_before)

    @suite.check("stdin_eof_exit_0", "2 End of stream, 9.10")
    def _(ctx):
        c = spawn(ctx)
        health(c, "h-1", "spec 2: first health check")
        t = time.monotonic()
        c.close_stdin()
        rc = c.wait_exit(EXIT_TIMEOUT)
        expect(rc == 0, "spec 2 / decision 9.10: on stdin EOF the plugin behaves as if shut down "
               "and exits 0; after %.0f s: status %s" % (EXIT_TIMEOUT, describe_status(rc)))
        return "exited 0 after %.2f s" % (time.monotonic() - t)

    @suite.check("shutdown_answers_then_exits_0", "2 Lifecycle, 9.10")
    def _(ctx):
        c = spawn(ctx)
        health(c, "h-1", "spec 2: first health check")
        since = c.mark()
        request(c, "h-2", method="plugin/shutdown")
        resp = c.wait_response("h-2", REPLY_TIMEOUT, since)
        expect(resp is not None and "result" in resp,
               "spec 2: plugin/shutdown is answered with a success (ShutdownResult); got %s "
               "(plugin %s)" % (short(resp), c.describe_end()))
        t = time.monotonic()
        rc = c.wait_exit(EXIT_TIMEOUT)  # stdin stays open: the plugin exits on its own
        expect(rc == 0, "spec 2 / decision 9.10: after answering plugin/shutdown the plugin exits "
               "with code 0 (stdin still open); after %.0f s: status %s"
               % (EXIT_TIMEOUT, describe_status(rc)))
        return "answered %s, exited 0 after %.2f s" % (short(resp.get("result")),
                                                      time.monotonic() - t)

    @suite.check("stdout_only_protocol_messages", "1, 9.11")
    def _(ctx):
        c = spawn(ctx)
        health(c, "h-1", "spec 2: first health check")
        request(c, 7, method="conformance/no_such_method")
        c.send_raw(b"not json\n")
        c.wait_for(lambda m: is_response(m) and m.get("id") is None)
        request(c, "h-9", method="plugin/shutdown")
        c.wait_response("h-9")
        c.wait_exit(EXIT_TIMEOUT)
        c.wait_stdout_eof(EXIT_TIMEOUT)
        bad = []
        for ln in c.lines:
            if not ln.is_json or not isinstance(ln.msg, dict):
                bad.append("not a JSON object: %s" % short(ln.raw, 120))
            elif ln.msg.get("jsonrpc") != "2.0":
                bad.append("no \"jsonrpc\":\"2.0\": %s" % short(ln.msg, 120))
        expect(not bad, "spec 1: stdout carries protocol messages only, each one JSON object "
               "with \"jsonrpc\": \"2.0\" (9.11); " + "; ".join(bad[:5]))


if __name__ == "__main__":
    sys.exit(main("desktop-plugins v1, plugin-side rules", build))
