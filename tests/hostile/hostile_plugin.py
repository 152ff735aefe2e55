#!/usr/bin/env python3
"""A hostile StreamNook plugin, written from the spec with Python's standard library only.

    hostile_plugin.py <case> <verdict.json>

It answers the handshake and pings like a real plugin, then runs <case>: it sends frames a
stranger could send (every one far below the 4 MiB cap) and checks the host's answer to each
against what the spec and rpckit's documented limits say. The verdict goes to <verdict.json>
({"case", "ok", "checked", "failures"}); afterwards the plugin keeps serving (pings, events)
so the test can see the host keep it, or stop it, as the case demands. `--list` prints the
cases.

Every answer is awaited with a bound; nothing here sleeps to wait for the host.
"""
import json
import os
import sys
import threading
import time

from wire import (DEEP, INVALID_PARAMS, INVALID_REQUEST, LONG, METHOD_NOT_FOUND, MIB,
                  PARSE_ERROR, WAIT_S, Answers, Expectations, Wire, deep, envelope, frames)

CAPABILITY_DENIED, UNKNOWN_STREAM = -32000, -32002

wire = Wire(sys.stdin.buffer, sys.stdout.buffer)


def log(text):
    sys.stderr.write("[hostile_plugin] %s\n" % text)
    sys.stderr.flush()


class Host:
    """The host as seen from here: it answers the handshake, pings and actions; the host's
    responses go to `answers`, events are counted."""

    def __init__(self):
        self.answers = Answers()
        self.events = {}           # method -> count
        self.reading = threading.Event()
        self.reading.set()
        self.initialized = threading.Event()

    def serve(self):
        while True:
            self.reading.wait()
            body = wire.read_frame()
            if body is None:
                os._exit(0)
            message = json.loads(body)
            method = message.get("method")
            if method is None:
                self.answers.add(message)
            elif method == "initialize":
                hooks = message["params"]["granted"]["events"]
                self.reply(message, {"plugin_version": "1.0.0", "hooks": hooks})
            elif method == "initialized":
                self.initialized.set()
            elif method == "ping":
                self.reply(message, {})
            elif method == "shutdown":
                self.reply(message, None)
            elif method == "exit":
                os._exit(0)
            elif method == "invoke_action":
                self.invoke_action(message)
            else:
                self.events[method] = self.events.get(method, 0) + 1

    @staticmethod
    def reply(message, result):
        wire.write_frame(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}))

    @staticmethod
    def invoke_action(message):
        action = message["params"]["action"]
        if action == "h.deep":  # a result too deep for the host to read
            wire.write_frame('{"jsonrpc":"2.0","id":%s,"result":%s}' % (
                json.dumps(message["id"]), deep(DEEP)))
        else:
            wire.write_frame(json.dumps({"jsonrpc": "2.0", "id": message["id"], "error": {
                "code": METHOD_NOT_FOUND, "message": action}}))


class Checks(Expectations):
    def __init__(self, host):
        super().__init__(wire, host.answers, log)
        self.host = host
        self.next_id = 1000

    def fresh_id(self):
        self.next_id += 1
        return self.next_id

    def request(self, what, method, params, code=None):
        rid = self.fresh_id()
        body = json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return self.expect(what, body, str(rid), code)

    def notify(self, method, params):
        wire.write_frame(json.dumps({"jsonrpc": "2.0", "method": method, "params": params}))

    def sync(self, what):
        """Everything sent before has been handled and nothing was answered that should not
        have been: the host answers in order, so its answer to a fresh request comes next."""
        self.request(what + ": sync", "get_followed_live", {})
        stray = self.answers.take_stray()
        if stray:
            self.fail(what + ": answered a notification or a response", stray)


# ---- cases ------------------------------------------------------------------------------

def long_strings(c):
    s = "x" * LONG
    c.notify("log", {"level": "info", "message": s})
    c.sync("log with a 3 MiB message")
    c.request("notify with a 3 MiB message", "notify", {"message": s})
    half = "x" * (LONG // 2)  # two of them in one frame
    c.request("set_upstream with 1.5 MiB strings", "set_upstream",
              {"stream_id": half, "playlist_url": "http://a/" + half}, (None, UNKNOWN_STREAM))
    c.request("set_upstream with a 3 MiB url failing its pattern at the end", "set_upstream",
              {"stream_id": "s", "playlist_url": "http://a/" + s + " "}, INVALID_PARAMS)
    c.request("get_credential with a 3 MiB kind", "get_credential", {"kind": s},
              CAPABILITY_DENIED)
    c.request("register_panel with a 3 MiB title", "register_panel",
              {"schema": {"title": s, "sections": []}}, INVALID_PARAMS)
    c.request("register_panel with a 3 MiB field key", "register_panel",
              {"schema": {"title": "t", "sections": [{"label": "s", "fields": [
                  {"key": "a" * LONG, "type": "toggle", "label": "l"}]}]}}, INVALID_PARAMS)
    c.notify("set_status", {"slot": half, "value": half})
    c.sync("set_status with a 1.5 MiB slot and value")
    c.request("a 3 MiB method name", "m" * LONG, {}, METHOD_NOT_FOUND)
    rid = json.dumps("i" * LONG)
    got = c.expect("a 3 MiB string id", envelope(rid, "get_followed_live", "{}"), rid)
    if got is not None and got.get("id") != "i" * LONG:
        c.fail("the 3 MiB id echoed intact", None)


def deep_nesting(c):
    d = deep(DEEP)
    c.expect("unknown member 30,000 arrays deep", envelope(11, "get_followed_live",
             '{"junk":%s}' % d), "11", INVALID_REQUEST)
    c.expect("unknown member 30,000 objects deep", envelope(12, "get_followed_live",
             '{"junk":%s}' % ('{"a":' * DEEP + "1" + "}" * DEEP)), "12", INVALID_REQUEST)
    c.expect("the id after the deep member",
             '{"jsonrpc":"2.0","method":"get_followed_live","params":{"j":%s},"id":"after"}' % d,
             '"after"', INVALID_REQUEST)
    c.expect_null_id("set_status.value 30,000 deep (a notification)",
                     '{"jsonrpc":"2.0","method":"set_status","params":{"slot":"h.status",'
                     '"value":%s}}' % d, INVALID_REQUEST)
    c.expect_null_id("log with a deep unknown member",
                     '{"jsonrpc":"2.0","method":"log","params":{"message":"m","x":%s}}' % d,
                     INVALID_REQUEST)
    c.expect("a panel field default 30,000 deep", envelope(13, "register_panel",
             '{"schema":{"title":"t","sections":[{"label":"s","fields":[{"key":"k",'
             '"type":"toggle","label":"l","default":%s}]}]}}' % d), "13", INVALID_REQUEST)
    c.expect("a panel field default 100 deep (valid JSON, wrong kind)", envelope(
             14, "register_panel", '{"schema":{"title":"t","sections":[{"label":"s","fields":'
             '[{"key":"k","type":"toggle","label":"l","default":%s}]}]}}' % deep(100)), "14",
             INVALID_PARAMS)
    # Within the limit: envelope 1, params 2, value 3..252.
    c.notify("set_status", {"slot": "h.status", "value": json.loads(deep(250))})
    c.sync("set_status.value 250 deep (within the limit)")
    c.expect_null_id("deep and truncated: not JSON (the id cannot be trusted)",
                     envelope(15, "get_followed_live", "[" * 1000) + "}", PARSE_ERROR)


def numbers(c):
    panel = '{"schema":{"title":"t","sections":[{"label":"s","fields":[{"key":"n",' \
            '"type":"number","label":"l",%s}]}]}}'
    c.expect("a number beyond a double (1e400)", envelope(21, "register_panel",
             panel % '"min":1e400'), "21", INVALID_REQUEST)
    c.expect("a 400-digit integer", envelope(22, "register_panel",
             panel % ('"max":' + "9" * 400)), "22", INVALID_REQUEST)
    c.expect("-0, a huge integer that is still a double, a tiny float", envelope(
             23, "register_panel", panel % '"min":-0,"max":123456789012345678901234567890,'
             '"default":1e-400'), "23")
    c.expect("a number where a string is expected", envelope(24, "notify",
             '{"message":"m","level":5}'), "24", INVALID_PARAMS)
    c.expect("a fraction where a string is expected", envelope(25, "notify",
             '{"message":1.5}'), "25", INVALID_PARAMS)
    for wire_id in ("18446744073709551616", "-9223372036854775809", "1.5", "1e400", "true"):
        c.expect_null_id("id " + wire_id, envelope(wire_id, "get_followed_live", "{}"),
                         INVALID_REQUEST)
    for wire_id, echoed in (("-0", "0"), ("9223372036854775807", "9223372036854775807"),
                            ("18446744073709551615", "18446744073709551615")):
        c.expect("id " + wire_id, envelope(wire_id, "get_followed_live", "{}"), echoed)


def duplicate_keys(c):
    c.expect_null_id("two ids", '{"jsonrpc":"2.0","id":31,"id":32,"method":"get_followed_live"}',
                     INVALID_REQUEST)
    c.expect("two methods", '{"jsonrpc":"2.0","id":33,"method":"get_followed_live",'
             '"method":"notify"}', "33", INVALID_REQUEST)
    c.expect("two params", envelope(34, "notify", '{"message":"a"},"params":{"message":"b"}'),
             "34", INVALID_REQUEST)
    c.expect("duplicate keys inside params: the last wins", envelope(
             35, "notify", '{"message":"a","level":"bogus","level":"info"}'), "35")
    c.expect("duplicate keys inside params: the last wins, and fails", envelope(
             36, "notify", '{"message":"a","message":7}'), "36", INVALID_PARAMS)


def encoding(c):
    head = b'{"jsonrpc":"2.0","id":41,"method":"notify","params":{"message":"'
    for what, raw in (("invalid UTF-8", b"\xff"), ("an overlong '/'", b"\xc0\xaf"),
                      ("a UTF-8 surrogate", b"\xed\xa0\x80"), ("beyond U+10FFFF", b"\xf4\x90\x80\x80"),
                      ("a truncated sequence", b"\xe2\x82"), ("a raw NUL", b"\x00"),
                      ("a lone high surrogate escape", b"\\ud800"),
                      ("a lone low surrogate escape", b"\\udc00"),
                      ("a surrogate pair out of order", b"\\udc00\\ud800")):
        c.expect_null_id(what, head + raw + b'"}}', PARSE_ERROR)
    c.expect_null_id("a byte order mark", b"\xef\xbb\xbf" + head + b'x"}}', PARSE_ERROR)
    c.expect_null_id("a NUL outside strings", head + b'x"}\x00}', PARSE_ERROR)
    c.expect("an escaped NUL and astral code points", envelope(
                   42, "notify", '{"message":"a\\u0000b\\ud83d\\ude00\\u2028"}'), "42")
    c.expect("multi-byte text (Content-Length counts bytes)", envelope(
             43, "notify", json.dumps({"message": "é€😀" * 1000}, ensure_ascii=False)), "43")
    c.sync("after encoding errors")


def wide(c):
    members = ",".join('"k%d":0' % i for i in range(300000))
    wire.write_frame('{"jsonrpc":"2.0","method":"set_status","params":{"slot":"h.status",'
                '"value":{%s}}}' % members)
    c.sync("set_status.value with 300,000 members")
    items = ",".join(["0"] * 500000)
    c.expect("500,000 items in an unknown member", envelope(51, "get_followed_live",
             '{"junk":[%s]}' % items), "51")
    sections = ",".join(['{"label":"s","fields":[]}'] * 100000)
    c.expect("100,000 panel sections (8 allowed)", envelope(52, "register_panel",
             '{"schema":{"title":"t","sections":[%s]}}' % sections), "52", INVALID_PARAMS)
    keys = ",".join('"%d":0' % i for i in range(200000))
    c.expect("200,000 members in params", envelope(53, "get_followed_live", "{%s}" % keys), "53")


def garbage(c):
    for body in ("42", '"x"', "null", "true", "[]", "{}",
                 '[{"jsonrpc":"2.0","id":61,"method":"get_followed_live"}]'):
        c.expect_null_id("frame " + body, body, INVALID_REQUEST)
    c.expect_null_id("an empty frame", b"", PARSE_ERROR)
    c.expect_null_id("a truncated object", '{"jsonrpc":"2.0","id":62', PARSE_ERROR)
    c.expect("no method, result or error", '{"jsonrpc":"2.0","id":63}', "63", INVALID_REQUEST)
    c.expect("jsonrpc 1.0", '{"jsonrpc":"1.0","id":64,"method":"get_followed_live"}', "64",
             INVALID_REQUEST)
    c.expect("params a string", envelope(65, "get_followed_live", '"p"'), "65", INVALID_REQUEST)
    c.expect("a method no one has", envelope(66, "no_such_method", "{}"), "66", METHOD_NOT_FOUND)
    c.expect("a host-to-plugin method sent the wrong way", envelope(67, "ping", "{}"), "67",
             METHOD_NOT_FOUND)
    c.sync("after garbage")


def response_abuse(c):
    for body in ('{"jsonrpc":"2.0","id":987654,"result":{}}',
                 '{"jsonrpc":"2.0","id":"nobody","error":{"code":1,"message":"m"}}',
                 '{"jsonrpc":"2.0","id":987655,"result":1,"error":{"code":1,"message":"m"}}',
                 '{"jsonrpc":"2.0","id":987656,"result":%s}' % deep(DEEP),
                 '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}',
                 '{"jsonrpc":"2.0","result":"no id"}'):
        wire.write_frame(body)
    c.sync("responses nobody asked for are never answered")


def notification_flood(c):
    wire.write_raw(frames(
        json.dumps({"jsonrpc": "2.0", "method": "log",
                    "params": {"level": "debug", "message": "flood %d" % i}}).encode()
        for i in range(20000)))
    c.sync("20,000 log notifications")


def request_flood(c):
    """Floods requests and never reads again: the host's answers fill the pipe, its queue
    fills, it stops reading; pings go unanswered and the host stops this plugin."""
    c.checked += 1  # nothing can be checked from here once reading stops
    write_verdict(c)
    c.host.reading.clear()
    frame = b'{"jsonrpc":"2.0","id":1,"method":"get_followed_live"}'
    one = b"Content-Length: %d\r\n\r\n%s" % (len(frame), frame)
    burst = one * 1000
    while True:
        wire.write_raw(burst)  # blocks for good once the host stops reading


def endless_header(c):
    """A header section past the host's cap: a framing violation."""
    c.checked += 1
    write_verdict(c)
    wire.write_raw(b"Content-Length: 10\r\nX-Pad: " + b"a" * MIB)
    time.sleep(3600)


def stalled_header(c):
    """Half a header, then silence (pings unanswered): the host reads no frame any more."""
    c.checked += 1
    write_verdict(c)
    wire.write_raw(b"Content-Length: 10\r\n", then_mute=True)
    time.sleep(3600)


CASES = {
    "long-strings": long_strings,
    "deep-nesting": deep_nesting,
    "numbers": numbers,
    "duplicate-keys": duplicate_keys,
    "encoding": encoding,
    "wide": wide,
    "garbage": garbage,
    "response-abuse": response_abuse,
    "notification-flood": notification_flood,
    "request-flood": request_flood,
    "endless-header": endless_header,
    "stalled-header": stalled_header,
}

verdict_path = None
case_name = None
first_run = True


def write_verdict(c):
    """Only the first run writes: a plugin the host restarts runs its case again, and must not
    overwrite what the first run found."""
    if not first_run:
        return
    verdict = {"case": case_name, "ok": not c.failures, "checked": c.checked,
               "failures": c.failures}
    tmp = verdict_path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(verdict, f)
    os.replace(tmp, verdict_path)


def main():
    global verdict_path, case_name, first_run
    if sys.argv[1:] == ["--list"]:
        print("\n".join(CASES))
        return
    case_name, verdict_path = sys.argv[1], sys.argv[2]
    host = Host()
    threading.Thread(target=host.serve, daemon=True).start()
    if not host.initialized.wait(WAIT_S):
        log("no initialized")
        os._exit(3)
    checks = Checks(host)
    first_run = not os.path.exists(verdict_path)
    try:
        CASES[case_name](checks)
    except Exception as e:  # a bug here, or the host went away: a failure either way
        checks.fail("exception", repr(e))
    write_verdict(checks)
    log("%s: %d checked, %d failed" % (case_name, checks.checked, len(checks.failures)))
    while True:
        time.sleep(3600)  # keep serving pings and events on the reader thread


if __name__ == "__main__":
    main()
