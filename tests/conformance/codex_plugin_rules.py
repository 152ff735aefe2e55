#!/usr/bin/env python3
"""Conformance probe for the PLUGIN side of Codex metadata plugins 1.0
(spec: codex-metadata-plugins-v1.md).

A fake host written from the spec alone spawns a plugin and checks the rules the spec puts on
a plugin: envelopes and ids (section 1), lifecycle (section 2, decisions 8.2-8.4), errors
(section 3), the capability gate (decision 8.15), and robustness against input a host never
sends (over-long lines, floods). Credentials are delivered in `both` mode (section 2.2):
API_KEY in the environment and params.credentials.api_key in initialize.

usage: codex_plugin_rules.py [--only NAME]... [--list] [--] <plugin command...>
Exit 0 when every check passed, 1 with the list of failed checks otherwise.
"""

import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peerlib import (BIG_REPLY_TIMEOUT, EXIT_TIMEOUT, GRACE, MIB, REPLY_TIMEOUT, CheckFailed,
                     describe_status, dumps, error_of, expect, is_response, main, memory_verdict,
                     same_id, short)

HOST_LINE_LIMIT = 1 * MIB   # section 1: the host's reading limit (the plugin's is unspecified)
OVERSIZE = 16 * MIB         # the over-long line sent to the plugin
FLOOD_LINES = 20000
CREDENTIAL = "conformance-key"
ENV = {"API_KEY": CREDENTIAL}
INIT_PARAMS = {"config": {}, "credentials": {"api_key": CREDENTIAL}}
NAME_RE = re.compile(r"^[a-z0-9-]+$")


def request(c, id_value, method, params=None, omit_params=True):
    msg = {"jsonrpc": "2.0", "id": id_value, "method": method}
    if not omit_params or params is not None:
        msg["params"] = params
    return c.send(msg)


def call(c, id_value, method, what, params=None, omit_params=True, timeout=REPLY_TIMEOUT):
    since = c.mark()
    request(c, id_value, method, params, omit_params)
    resp = c.wait_response(id_value, timeout, since)
    if resp is None:
        raise CheckFailed("%s: no response with id %s within %.0f s (plugin %s)"
                          % (what, short(id_value), timeout, c.describe_end()))
    return resp


def manifest_problems(m):
    if not isinstance(m, dict):
        return ["not an object: %s" % short(m)]
    p = []
    for k in ("name", "displayName", "version", "protocolVersion"):
        if not isinstance(m.get(k), str):
            p.append("%s missing or not a string" % k)
    if isinstance(m.get("name"), str) and not NAME_RE.match(m["name"]):
        p.append("name %s is not lowercase letters, digits, hyphens" % short(m["name"]))
    pv = m.get("protocolVersion")
    if isinstance(pv, str) and pv.split(".")[0] != "1":
        p.append("protocolVersion %s has major part other than 1 (section 7)" % short(pv))
    if not isinstance(m.get("capabilities"), dict):
        p.append("capabilities missing or not an object")
    elif "seriesMetadataProvider" in m["capabilities"] and \
            not isinstance(m["capabilities"]["seriesMetadataProvider"], bool):
        p.append("capabilities.seriesMetadataProvider not a boolean")
    return p


def initialize(c, id_value=1, params=INIT_PARAMS, omit_params=False, what="section 2: initialize"):
    resp = call(c, id_value, "initialize", what, params, omit_params)
    expect("result" in resp and not manifest_problems(resp["result"]),
           "%s is answered with a PluginManifest (section 5: name, displayName, version, "
           "protocolVersion, capabilities); got %s%s"
           % (what, short(resp), "; " + "; ".join(manifest_problems(resp.get("result")))
              if "result" in resp else ""))
    return resp["result"]


def ping(c, id_value, what, **kw):
    resp = call(c, id_value, "ping", what, **kw)
    expect(resp.get("result") == "pong",
           "%s: ping is answered with the string \"pong\" (section 2, decision 8.3); got %s"
           % (what, short(resp)))
    return resp


def spawn(ctx):
    return ctx.spawn(env=ENV)


def build(suite):
    @suite.check("initialize_manifest", "2, 2.1, 5")
    def _(ctx):
        c = spawn(ctx)
        m = initialize(c)
        return "manifest name %s, protocolVersion %s, capabilities %s" % (
            short(m.get("name")), short(m.get("protocolVersion")), short(m.get("capabilities")))

    @suite.check("initialize_params_absent", "8.2")
    def _(ctx):
        c = spawn(ctx)
        initialize(c, omit_params=True, params=None,
                   what="decision 8.2: initialize without params (accepted as {})")

    @suite.check("initialize_params_null", "8.2")
    def _(ctx):
        c = spawn(ctx)
        initialize(c, params=None, omit_params=False,
                   what="decision 8.2: initialize with params null (accepted as {})")

    @suite.check("ping_params_forms", "2, 8.2, 8.3")
    def _(ctx):
        c = spawn(ctx)
        initialize(c)
        ping(c, 2, "decision 8.2: ping with params omitted")
        ping(c, 3, "decision 8.2: ping with params null", params=None, omit_params=False)
        ping(c, 4, "decision 8.2: ping with params {}", params={}, omit_params=False)

    @suite.check("ids_copied_unchanged", "1 Ids")
    def _(ctx):
        c = spawn(ctx)
        initialize(c)
        bad = []
        for id_value in [2, 3, 2 ** 40, "7", "abc"]:
            since = c.mark()
            request(c, id_value, "ping")
            if c.wait_response(id_value, REPLY_TIMEOUT, since) is None:
                bad.append("id %s: no response carrying it unchanged (saw %s)"
                           % (short(id_value), short(c.messages(since), 200)))
        expect(not bad, "section 1: the plugin copies the id unchanged; " + "; ".join(bad))

    @suite.check("concurrent_requests_one_answer_each", "1")
    def _(ctx):
        c = spawn(ctx)
        initialize(c)
        since = c.mark()
        ids = list(range(10, 20))
        c.send_raw(b"".join(dumps({"jsonrpc": "2.0", "id": i, "method": "ping"}) + b"\n"
                            for i in ids))
        missing = [i for i in ids if c.wait_response(i, REPLY_TIMEOUT, since) is None]
        ping(c, 99, "section 1")
        time.sleep(GRACE)
        counts = {i: len(c.responses_to(i, since)) for i in ids}
        dup = {i: n for i, n in counts.items() if n > 1}
        expect(not missing and not dup, "section 1: the host may have several requests "
               "outstanding; every request gets exactly one response; unanswered %s, answered "
               "more than once %s" % (missing, dup))

    @suite.check("responses_carry_jsonrpc", "1 Response envelope")
    def _(ctx):
        c = spawn(ctx)
        initialize(c)
        ping(c, 2, "section 2")
        call(c, 3, "conformance/no_such_method", "section 3")
        c.send_raw(b"not json\n")
        c.wait_for(lambda m: is_response(m) and m.get("id") is None)
        call(c, 4, "shutdown", "section 2")
        c.wait_exit(EXIT_TIMEOUT)
        c.wait_stdout_eof(EXIT_TIMEOUT)
        bad = []
        for ln in c.lines:
            m = ln.msg
            if not ln.is_json or not isinstance(m, dict):
                bad.append("not a JSON object: %s" % short(ln.raw, 120))
            elif m.get("jsonrpc") != "2.0":
                bad.append("no \"jsonrpc\":\"2.0\" (the host drops it): %s" % short(m, 120))
            elif not is_response(m) or (("result" in m) == ("error" in m)):
                bad.append("not a response (in 1.0 the plugin sends no requests or "
                           "notifications): %s" % short(m, 120))
        expect(not bad, "section 1: stdout carries responses {jsonrpc: \"2.0\", id, result|error}"
               " only; " + "; ".join(bad[:5]))

    @suite.check("unknown_method", "3 (-32601), 7")
    def _(ctx):
        c = spawn(ctx)
        initialize(c)
        resp = call(c, 2, "conformance/no_such_method", "section 7")
        err = error_of(resp) or {}
        expect(err.get("code") == -32601 and isinstance(err.get("message"), str),
               "section 7: a plugin answers unknown methods with -32601 (with the request's id, "
               "section 3); got %s" % short(resp))

    @suite.check("non_json_line_parse_error", "3 (-32700)")
    def _(ctx):
        c = spawn(ctx)
        initialize(c)
        since = c.mark()
        c.send_raw(b"this is not json {\n")
        ping(c, 2, "section 3: the plugin keeps serving after a non-JSON line")
        time.sleep(GRACE)
        errs = [m for m in c.messages(since) if is_response(m) and not same_id(m.get("id"), 2)]
        expect(len(errs) == 1 and errs[0].get("id") is None
               and (error_of(errs[0]) or {}).get("code") == -32700,
               "section 3: a request line the plugin cannot parse is answered -32700 with id "
               "null; got %s" % short(errs))

    @suite.check("batch_array_invalid_request", "1, 3 (-32600)")
    def _(ctx):
        c = spawn(ctx)
        initialize(c)
        since = c.mark()
        c.send_raw(b'[{"jsonrpc":"2.0","id":50,"method":"ping"}]\n')
        ping(c, 2, "section 3: the plugin keeps serving after a batch")
        time.sleep(GRACE)
        errs = [m for m in c.messages(since) if is_response(m) and not same_id(m.get("id"), 2)]
        expect(len(errs) == 1 and errs[0].get("id") is None
               and (error_of(errs[0]) or {}).get("code") == -32600,
               "sections 1/3: batch arrays are never used; one is not a valid JSON-RPC request: "
               "expected one -32600 with id null (the request inside not executed); got %s"
               % short(errs))

    @suite.check("invalid_request_object", "3 (-32600)")
    def _(ctx):
        c = spawn(ctx)
        initialize(c)
        bad = []
        cases = [({"jsonrpc": "2.0", "id": 60}, (60, None)),
                 ({"jsonrpc": "2.0", "id": 61, "method": 7}, (61, None)),
                 ({"jsonrpc": "1.0", "id": 62, "method": "ping"}, (62, None))]
        for n, (msg, ids) in enumerate(cases):
            since = c.mark()
            c.send(msg)
            ping(c, 100 + n, "section 3: the plugin keeps serving after an invalid request")
            time.sleep(GRACE)
            errs = [m for m in c.messages(since) if is_response(m)
                    and not same_id(m.get("id"), 100 + n)]
            ok = (len(errs) == 1 and (error_of(errs[0]) or {}).get("code") == -32600
                  and any(same_id(errs[0].get("id"), i) for i in ids))
            if not ok:
                bad.append("%s -> %s" % (short(msg), short(errs)))
        expect(not bad, "section 3: a line that is not a valid JSON-RPC request is answered "
               "-32600 (with the request's id when it can be associated, else null); "
               + "; ".join(bad))

    @suite.check("metadata_capability_gate", "2, 4, 8.15")
    def _(ctx):
        c = spawn(ctx)
        m = initialize(c)
        provider = (m.get("capabilities") or {}).get("seriesMetadataProvider") is True
        if not provider:
            resp = call(c, 2, "metadata/search", "decision 8.15", {"query": "blue harbor"})
            expect((error_of(resp) or {}).get("code") == -32601,
                   "decision 8.15: a plugin without seriesMetadataProvider answers metadata/* "
                   "with -32601; got %s" % short(resp))
            return "not a series metadata provider"
        resp = call(c, 2, "metadata/search", "section 4", {})
        expect((error_of(resp) or {}).get("code") == -32602,
               "sections 3/4: metadata/search without the required query is answered -32602 "
               "(params missing or malformed); got %s" % short(resp))
        resp = call(c, 3, "metadata/search", "section 4", {"query": "blue harbor", "limit": 5})
        if "error" in resp:
            code = (error_of(resp) or {}).get("code")
            expect(code in (-32001, -32002, -32003, -32004, -32005),
                   "section 3/4: metadata/search answers a SearchResponse or a provider error "
                   "(-32001..-32005); got %s" % short(resp))
            return "search answered provider error %s" % code
        r = resp.get("result")
        ok = isinstance(r, dict) and isinstance(r.get("results"), list) and all(
            isinstance(x, dict) and isinstance(x.get("externalId"), str)
            and isinstance(x.get("title"), str) for x in r["results"])
        expect(ok, "section 5: SearchResponse has results[] of SearchResult {externalId, title, "
               "...}; got %s" % short(resp))
        expect(len(r["results"]) <= 5, "section 4: limit is the maximum number of results "
               "wanted; limit 5 got %d" % len(r["results"]))

    @suite.check("shutdown_answers_null_then_exits_0", "2, 8.4")
    def _(ctx):
        c = spawn(ctx)
        initialize(c)
        since = c.mark()
        t0 = time.monotonic()
        request(c, 2, "shutdown")
        resp = c.wait_response(2, REPLY_TIMEOUT, since)
        expect(resp is not None and "result" in resp and resp["result"] is None,
               "section 2 / decision 8.4: shutdown (params omitted) is answered with result "
               "null; got %s (plugin %s)" % (short(resp), c.describe_end()))
        rc = c.wait_exit(EXIT_TIMEOUT)  # stdin stays open, as the host keeps it (section 2)
        took = time.monotonic() - t0
        expect(rc == 0, "section 2 / decision 8.4: after answering shutdown the plugin exits 0 "
               "by itself, promptly (the host keeps stdin open and kills after 5 s); after "
               "%.0f s with stdin open: status %s" % (EXIT_TIMEOUT, describe_status(rc)))
        return "exited 0 %.2f s after the shutdown request (the host kills after 5 s)" % took

    @suite.check("stdin_eof_exit_0", "8.4")
    def _(ctx):
        c = spawn(ctx)
        initialize(c)
        t = time.monotonic()
        c.close_stdin()
        rc = c.wait_exit(EXIT_TIMEOUT)
        expect(rc == 0, "decision 8.4: the plugin also exits 0 when stdin reaches EOF; after "
               "%.0f s: status %s" % (EXIT_TIMEOUT, describe_status(rc)))
        return "exited 0 after %.2f s" % (time.monotonic() - t)

    @suite.check("oversize_line", "1 (limits), 8.12")
    def _(ctx):
        c = spawn(ctx)
        initialize(c)
        base = c.start_hwm_sampler()
        since = c.mark()
        # Not JSON, so that a plugin with no limit (the spec gives none for the plugin's side)
        # answers -32700 and one with a limit drops it: both conform.
        outcome = c.send_bounded(b"x" * OVERSIZE + b"\n")
        request(c, 2, "ping")
        resp = c.wait_response(2, BIG_REPLY_TIMEOUT, since)
        time.sleep(GRACE)
        serving = resp is not None and resp.get("result") == "pong"
        ctx.sub("keeps_serving", "1, 8.12", serving,
                "" if serving else
                "section 1 / decision 8.12: the spec's limit is 1 MiB per line (the host's); a "
                "plugin that receives a longer line must not stop serving; after a %d MiB line "
                "ping got %s (writing the line: %s; plugin %s)"
                % (OVERSIZE // MIB, short(resp), outcome, c.describe_end()))
        errs = [m for m in c.messages(since) if is_response(m) and not same_id(m.get("id"), 2)]
        ok = not errs or (len(errs) == 1 and errs[0].get("id") is None
                          and (error_of(errs[0]) or {}).get("code") in (-32700, -32600))
        ctx.sub("dropped_or_parse_error", "1, 3", ok,
                "" if ok else
                "section 3: an over-long (non-JSON) line is either dropped or answered once with "
                "-32700/-32600, id null; got %s" % short(errs))
        ok, message = memory_verdict(c, base, OVERSIZE, HOST_LINE_LIMIT)
        ctx.sub("memory_bounded", "8.12 / issue 23", ok, message)

    @suite.check("non_json_flood_survived", "3")
    def _(ctx):
        c = spawn(ctx)
        initialize(c)
        err_before, lines_before = c.stderr_snapshot()
        flood = b"".join(b"not json %d {\n" % i for i in range(FLOOD_LINES))
        outcome = c.send_bounded(flood)
        expect(outcome == "ok", "section 3: %d non-JSON lines must be read; writing them ended %s "
               "(plugin %s)" % (FLOOD_LINES, outcome, c.describe_end()))
        ping(c, 2, "section 3: after a flood of %d non-JSON lines the plugin keeps serving"
             % FLOOD_LINES, timeout=BIG_REPLY_TIMEOUT)
        err_after, lines_after = c.stderr_snapshot()
        return "still answering; stderr during the flood: %d lines, %d bytes (info only)" % (
            lines_after - lines_before, err_after - err_before)


if __name__ == "__main__":
    sys.exit(main("Codex metadata plugins 1.0, plugin-side rules", build))
