#!/usr/bin/env python3
"""A hostile StreamNook host, written from the spec with Python's standard library only.

    hostile_host.py <case> --plugin <probe_plugin|live-alerts> -- <plugin command> [args...]

It spawns the plugin, runs the handshake, then runs <case>: frames a stranger of a host
could send, each answer checked against the spec and rpckit's documented limits. Then it
checks that the plugin still answers ping, that its peak memory stayed bounded, and that it
leaves on shutdown/exit with code 0 (or, for cases that break the framing, that it leaves at
once with code 1). Throughout, every answer must be to a request this host sent, and the
only one to it (a stray or a second answer fails, named by id and frame). Exit status 0 when
every check passed; the failures on stderr otherwise. `--list` prints the cases.

--plugin names the plugin under test, for what only it shows (SUBJECTS): how to make it wait
on a host call, and what a host sees of the events it handled.
"""
import json
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time

from wire import (DEEP, INVALID_REQUEST, LONG, METHOD_NOT_FOUND, MIB, PARSE_ERROR, WAIT_S,
                  Answers, Expectations, Wire, deep, envelope, frames)

PEAK_MEMORY_LIMIT = 1 << 30   # VmHWM after any case; an unbounded queue would blow far past
# rpckit's documented limit (README, "What a peer cannot do"): a plugin holds up to 4096
# events (16 MiB) that arrive while a handler waits on the host; the excess is dropped, with a
# line on stderr. The spec itself says only that event order is preserved per plugin (§2).
HELD_EVENTS = 4096
FLOOD_EVENTS = 20000          # far past what the plugin may hold plus what its queue takes
FIRST_ID = 1000               # request ids from here; the cases' literal ids are below
GRANT = {"events": ["on_stream_start", "on_stream_stop", "on_channel_change", "on_watch_tick",
                    "on_followed_live", "on_chat_message", "on_settings_change",
                    "on_panel_change"],
         "host_methods": ["get_followed_live", "set_upstream", "notify", "log"],
         "credentials": ["twitch.android"], "ui": ["panel"]}


# Cases whose frames break the schema: under RPCKIT_VALIDATE the plugin must report them.
BREAKS_SCHEMA = {"deep-nesting", "numbers", "duplicate-keys", "encoding", "garbage",
                 "response-abuse", "hostile-initialize"}


def check_validation_reports(c, case, stderr):
    """RPCKIT_VALIDATE (the plugin validates every frame against the schema): what this host
    sent wrong is reported, and nothing the plugin itself sent is."""
    lines = [l.decode("utf-8", "replace") for l in stderr.split(b"\n")
             if b"rpckit validate: " in l]
    blamed_plugin = [l for l in lines if " from plugin" in l]
    c.checked += 1
    if blamed_plugin:
        c.fail("the plugin's own frames valid under RPCKIT_VALIDATE", blamed_plugin[:3])
    if case in BREAKS_SCHEMA:
        c.checked += 1
        if not any(" from host" in l for l in lines):
            c.fail("RPCKIT_VALIDATE reports the host's invalid frames", lines[:3])


def log(text):
    sys.stderr.write("[hostile_host] %s\n" % text)
    sys.stderr.flush()


def channel(n, filler=""):
    return {"channel_id": "c%d" % n, "login": "login%d" % n,
            "display_name": "Name%d%s" % (n, filler), "game_id": "g", "game_name": "Game",
            "viewer_count": n, "started_at": "2026-11-23T10:00:00Z"}


def chat(seq, text="hi", **extra):
    message = {"id": "m%d" % seq, "user_id": "u", "login": "l", "display_name": "D",
               "color": None, "badges": [], "text": text, "is_action": False,
               "msg_type": None, "system_message": None, "bits": None,
               "ts": "2026-11-23T10:00:00Z"}
    message.update(extra)
    return {"channel": "c", "message": message}


class Plugin:
    """The plugin process as seen from the host side."""

    def __init__(self, command, state_dir, subject):
        self.subject = subject  # a SUBJECTS key
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=open(os.path.join(state_dir, "stderr.log"), "wb"))
        self.stderr_path = os.path.join(state_dir, "stderr.log")
        self.wire = Wire(self.process.stdout, self.process.stdin)
        self.answers = Answers()
        # What the plugin sent the host (method, params), in order; `calls` guards it and the
        # get_followed_live requests held unanswered while hold_followed_live is true.
        self.calls = threading.Condition()
        self.sent = []
        self.hold_followed_live = False
        self.held = []
        self.reading = threading.Event()
        self.reading.set()
        self.next_id = FIRST_ID
        # Answers to the plugin's host calls are written by their own thread: the reader must
        # never wait on a write (a flood may hold the pipe), or both sides could wait forever.
        self.replies = queue.Queue()
        self.reader = threading.Thread(target=self.serve, daemon=True)
        self.reader.start()
        threading.Thread(target=self.send_replies, daemon=True).start()

    def serve(self):
        while True:
            self.reading.wait()
            body = self.wire.read_frame()
            if body is None:
                return
            message = json.loads(body)
            method = message.get("method")
            if method is None:
                self.answers.add(message, body)
                continue
            with self.calls:
                self.sent.append((method, message.get("params")))
                self.calls.notify_all()
            if "id" in message:
                self.answer_host_method(message)

    def answer_host_method(self, message):
        method = message["method"]
        with self.calls:
            if method == "get_followed_live" and self.hold_followed_live:
                self.held.append(message)
                self.calls.notify_all()
                return
        result = {"get_followed_live": {"channels": [channel(1)]},
                  "get_panel_values": {"values": {}},
                  "get_credential": {"kind": "twitch.android", "token": "t", "client_id": None,
                                     "user_id": "u", "device_id": None, "expires_at": None}
                  }.get(method, {})
        self.reply(message["id"], result)

    def wait_sent(self, match, timeout=WAIT_S):
        """Waits until the plugin has sent a message for which match(method, params) holds."""
        seen = 0

        def found():
            nonlocal seen
            while seen < len(self.sent):
                if match(*self.sent[seen]):
                    return True
                seen += 1
            return False
        with self.calls:
            return self.calls.wait_for(found, timeout)

    def sent_so_far(self):
        with self.calls:
            return list(self.sent)

    def wait_held(self, timeout=WAIT_S):
        with self.calls:
            return self.calls.wait_for(lambda: self.held, timeout)

    def release_held(self, result):
        """Stops holding get_followed_live and answers the ones held, in order. Written from
        this thread, so whatever this thread writes next comes after the answers on the wire."""
        with self.calls:
            self.hold_followed_live = False
            held, self.held = self.held, []
        for message in held:
            self.wire.write_frame(json.dumps({"jsonrpc": "2.0", "id": message["id"],
                                              "result": result}))

    def reply(self, rid, result):
        self.replies.put(json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}))

    def send_replies(self):
        while True:
            body = self.replies.get()
            try:
                self.wire.write_frame(body)
            except (BrokenPipeError, ValueError):
                return

    def fresh_id(self):
        self.next_id += 1
        return self.next_id

    def peak_memory(self):
        """VmHWM in bytes, or None when the process is gone."""
        try:
            with open("/proc/%d/status" % self.process.pid) as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1]) * 1024
        except OSError:
            return None
        return None


class Checks(Expectations):
    def __init__(self, plugin):
        super().__init__(plugin.wire, plugin.answers, log)
        self.plugin = plugin

    def request(self, what, method, params, code=None):
        rid = self.plugin.fresh_id()
        body = json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return self.expect(what, body, str(rid), code)

    def send_request(self, method, params):
        """Sends a request without waiting for its answer; returns its id (JSON text)."""
        rid = self.plugin.fresh_id()
        self.answers.sent_request(str(rid))
        self.wire.write_frame(json.dumps({"jsonrpc": "2.0", "id": rid, "method": method,
                                          "params": params}))
        return str(rid)

    def event(self, method, params):
        self.wire.write_frame(json.dumps({"jsonrpc": "2.0", "method": method, "params": params}))

    def ping(self, what):
        """The plugin handles messages in order, so the answer to a ping means everything before
        it was handled; nothing may have been answered that should not have been."""
        self.request(what + ": ping", "ping", {})
        stray = self.answers.take_stray()
        if stray:
            self.fail(what + ": answered a notification or a response", stray)
        self.check_answers(what)

    def action(self, what, args_text, code):
        rid = self.plugin.fresh_id()
        return self.expect(what, envelope(rid, "invoke_action",
                                          '{"action":"probe.nothing","args":%s}' % args_text),
                           str(rid), code)

    def handshake(self, state_dir):
        params = {"protocol_version": 1, "host_version": "7.8.6", "plugin_id": "dev.test.plugin",
                  "granted": GRANT, "data_dir": os.path.join(state_dir, "data"),
                  "log_dir": os.path.join(state_dir, "log")}
        os.makedirs(params["data_dir"], exist_ok=True)
        os.makedirs(params["log_dir"], exist_ok=True)
        got = self.request("initialize", "initialize", params)
        self.event("initialized", {})
        return got


# ---- cases: each runs after a good handshake, unless it says otherwise ---------------------

def long_strings(c):
    s = "x" * LONG
    c.event("on_chat_message", chat(1, text=s))
    c.event("on_stream_start", {"channel": channel(1, filler=s)})
    c.event("on_channel_change", {"channel_id": s, "login": "l"})
    c.event("on_watch_tick", {"active_channel_id": s, "ts": "2026-11-23T10:00:00Z"})
    c.event("on_watch_tick", {"active_channel_id": None, "ts": s})  # not a date-time: dropped
    c.event("on_stream_stop", {"channel_id": s})
    c.ping("events with 3 MiB strings")
    c.action("invoke_action with 3 MiB args", json.dumps({"text": s}), METHOD_NOT_FOUND)
    rid = c.plugin.fresh_id()
    c.expect("invoke_action with a 3 MiB action name", envelope(
        rid, "invoke_action", json.dumps({"action": s})), str(rid), METHOD_NOT_FOUND)
    c.request("a 3 MiB method name", "m" * LONG, {}, METHOD_NOT_FOUND)


def deep_nesting(c):
    d = deep(DEEP)
    c.action("invoke_action args 30,000 deep", d, INVALID_REQUEST)
    c.action("invoke_action args 250 deep (within the limit)", deep(250), METHOD_NOT_FOUND)
    c.expect_null_id("an event with a deep unknown member", envelope(
        None, "on_stream_stop", '{"channel_id":"c","x":%s}' % d), INVALID_REQUEST)
    c.expect_null_id("on_settings_change 30,000 objects deep", envelope(
        None, "on_settings_change", '{"keys":[],"x":%s}' % ('{"a":' * DEEP + "1" + "}" * DEEP)),
        INVALID_REQUEST)
    c.expect("the id after the deep member",
             '{"jsonrpc":"2.0","method":"ping","params":{"j":%s},"id":"after"}' % d,
             '"after"', INVALID_REQUEST)
    c.ping("after deep frames")


def numbers(c):
    c.expect_null_id("bits 1e400", envelope(None, "on_chat_message",
                     json.dumps(chat(1)).replace('"bits": null', '"bits": 1e400')),
                     INVALID_REQUEST)
    for bits in ("4294967296", "-1", "1.5", "123456789012345678901234567890"):
        c.event("on_chat_message", json.loads(json.dumps(chat(2)).replace(
            '"bits": null', '"bits": %s' % bits)))
    c.ping("bits out of uint32 range are invalid params of an event: dropped, not answered")
    for wire_id in ("18446744073709551616", "1.5", "1e400", "true", "[1]"):
        c.expect_null_id("id " + wire_id, envelope(wire_id, "ping", "{}"), INVALID_REQUEST)
    c.expect("id -0", envelope("-0", "ping", "{}"), "0")
    c.action("args with -0, a huge integer and a tiny float",
             '[-0, 123456789012345678901234567890, 1e-400]', METHOD_NOT_FOUND)


def duplicate_keys(c):
    c.expect_null_id("two ids", '{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}',
                     INVALID_REQUEST)
    c.expect("two methods", '{"jsonrpc":"2.0","id":3,"method":"ping","method":"shutdown"}', "3",
             INVALID_REQUEST)
    c.expect("duplicate keys inside params: the last wins", envelope(
        4, "invoke_action", '{"action":"x","action":"probe.nothing"}'), "4", METHOD_NOT_FOUND)
    c.ping("after duplicates")


def encoding(c):
    head = b'{"jsonrpc":"2.0","id":5,"method":"invoke_action","params":{"action":"'
    for what, raw in (("invalid UTF-8", b"\xff"), ("an overlong '/'", b"\xc0\xaf"),
                      ("a UTF-8 surrogate", b"\xed\xa0\x80"), ("a raw NUL", b"\x00"),
                      ("a lone high surrogate escape", b"\\ud800"),
                      ("a lone low surrogate escape", b"\\udc00")):
        c.expect_null_id(what, head + raw + b'"}}', PARSE_ERROR)
    c.expect_null_id("a byte order mark", b"\xef\xbb\xbf" + head + b'x"}}', PARSE_ERROR)
    c.expect("an escaped NUL and astral code points", envelope(
        6, "invoke_action", '{"action":"a\\u0000b\\ud83d\\ude00"}'), "6", METHOD_NOT_FOUND)
    c.ping("after encoding errors")


def wide(c):
    c.event("on_followed_live", {"channels": [channel(i) for i in range(15000)]})
    c.ping("on_followed_live with 15,000 channels")
    c.action("args with 300,000 members",
             "{%s}" % ",".join('"k%d":0' % i for i in range(300000)), METHOD_NOT_FOUND)
    c.action("args with 500,000 items", "[%s]" % ",".join(["0"] * 500000), METHOD_NOT_FOUND)


def garbage(c):
    for body in ("42", '"x"', "null", "[]", "{}", '[{"jsonrpc":"2.0","id":7,"method":"ping"}]'):
        c.expect_null_id("frame " + body, body, INVALID_REQUEST)
    c.expect_null_id("an empty frame", b"", PARSE_ERROR)
    c.expect("jsonrpc 1.0", '{"jsonrpc":"1.0","id":8,"method":"ping"}', "8", INVALID_REQUEST)
    c.expect("a method no plugin has", envelope(9, "no_such_method", "{}"), "9",
             METHOD_NOT_FOUND)
    c.expect("a plugin-to-host method sent the wrong way", envelope(10, "notify",
             '{"message":"m"}'), "10", METHOD_NOT_FOUND)
    c.expect("initialize again", envelope(11, "initialize", json.dumps({
        "protocol_version": 1, "host_version": "7.8.6", "plugin_id": "p", "granted": GRANT,
        "data_dir": "/tmp", "log_dir": "/tmp"})), "11", INVALID_REQUEST)
    c.ping("after garbage")


def response_abuse(c):
    for body in ('{"jsonrpc":"2.0","id":987654,"result":{}}',
                 '{"jsonrpc":"2.0","id":"nobody","error":{"code":1,"message":"m"}}',
                 '{"jsonrpc":"2.0","id":987655,"result":1,"error":{"code":1,"message":"m"}}',
                 '{"jsonrpc":"2.0","id":987656,"result":%s}' % deep(DEEP),
                 '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}'):
        c.wire.write_frame(body)
    c.ping("responses nobody asked for are never answered")


def request_flood(c):
    """100,000 pings while not reading: the plugin's answers fill the pipe, it stops reading,
    this side's writes block. Then reading again: every ping is answered, none twice (the
    ping after the flood checks every answer)."""
    count = 100000
    c.plugin.reading.clear()
    first = c.plugin.next_id + 1
    c.plugin.next_id += count
    c.answers.sent_requests(str(first + i) for i in range(count))
    def flood():  # a thousand frames per write, so answers to host calls fit in between
        for start in range(0, count, 1000):
            c.wire.write_raw(frames(envelope(first + i, "ping", "{}").encode()
                                    for i in range(start, min(start + 1000, count))))
    writer = threading.Thread(target=flood, daemon=True)
    writer.start()
    writer.join(2)  # long enough to fill every buffer on the way; correctness does not hang on it
    c.plugin.reading.set()
    writer.join(WAIT_S)
    c.checked += 1
    deadline = time.monotonic() + 3 * WAIT_S  # one outer bound for all of them
    missing = [i for i in range(first, first + count)
               if c.answers.response(str(i), max(0.0, deadline - time.monotonic())) is None]
    if missing:
        c.fail("every one of %d pings answered" % count,
               {"missing": len(missing), "first missing": missing[:5]})
    c.ping("after the flood")


class ProbeSubject:
    """tests/plugin/probe_plugin.cpp: `probe.call` makes its handler call a host method and
    wait for the answer; `probe.chat_ids` lists the ids of the chat messages it handled, in the
    order it handled them."""

    @staticmethod
    def wait_on_host(c):
        return c.send_request("invoke_action", {"action": "probe.call",
                                                "args": {"method": "get_followed_live"}})

    @staticmethod
    def event(i):
        return "on_chat_message", chat(i, id="flood-%d" % i)

    @staticmethod
    def handled(c, what):
        got = c.request(what, "invoke_action", {"action": "probe.chat_ids", "args": {}})
        if got is None or not isinstance(got.get("result"), list):
            return None
        return [int(m.group(1)) for m in (re.fullmatch(r"flood-(\d+)", i)
                                          for i in got["result"]) if m]

    def while_waiting(self, c):
        ids = self.handled(c, "probe.chat_ids answered while a handler waits")
        c.checked += 1
        if ids:
            c.fail("no event runs while a handler waits on the host", ids[:5])

    def after_answer(self, c, waiting):
        c.checked += 1
        got = c.answers.response(waiting)
        if got is None or got.get("result") != {"ok": True}:
            c.fail("probe.call get_followed_live, answered late, succeeds", got)
        return self.handled(c, "probe.chat_ids after the answer")


class LiveAlertsSubject:
    """examples/live_alerts: on start it calls get_followed_live and waits for the answer;
    for each on_followed_live it alerts (notify, from its notifier thread, in order) on every
    channel that went live since the last one; `live-alerts.test` queues an alert with the
    given text behind those."""
    MID, AFTER = "flood: while waiting", "flood: after the answer"
    ALERT = re.compile(r"Name(\d+) is live playing Game")

    @staticmethod
    def wait_on_host(c):
        return None  # its start already waits: get_followed_live is held from the handshake on

    @staticmethod
    def event(i):
        return "on_followed_live", {"channels": [channel(i)]}

    @staticmethod
    def test_alert(c, what, text):
        return c.request(what, "invoke_action", {"action": "live-alerts.test",
                                                 "args": {"text": text}})

    def while_waiting(self, c):
        self.test_alert(c, "live-alerts.test answered while a handler waits", self.MID)

    def after_answer(self, c, waiting):
        self.test_alert(c, "live-alerts.test after the answer", self.AFTER)
        c.checked += 1
        if not c.plugin.wait_sent(lambda m, p: m == "notify" and p.get("message") == self.AFTER,
                                  3 * WAIT_S):
            return c.fail("the alert queued after the flood's is sent", None)
        alerts = [p.get("message") for m, p in c.plugin.sent_so_far() if m == "notify"]
        mid = alerts.index(self.MID) if self.MID in alerts else None
        handled = [(n, int(m.group(1))) for n, m in enumerate(map(self.ALERT.fullmatch, alerts))
                   if m]
        if mid is None or any(n < mid for n, _ in handled):
            c.fail("no event runs while a handler waits on the host (its alert comes before "
                   "the one asked for meanwhile)", alerts[:5])
        return [i for _, i in handled]


SUBJECTS = {"probe_plugin": ProbeSubject(), "live-alerts": LiveAlertsSubject()}


def event_flood(c):
    """While the plugin waits on a host call this side leaves unanswered, 20,000 events flood
    in; a request sent after them is answered meanwhile; then the call's answer comes. The
    spec keeps event delivery in order per plugin (§2); rpckit holds up to HELD_EVENTS events
    while a handler waits, runs none of them meanwhile, and drops the excess with a line on
    stderr. So once the request is answered every event has been read and held or dropped,
    and the plugin handles exactly the first HELD_EVENTS, in the order sent."""
    subject = SUBJECTS[c.plugin.subject]
    waiting = subject.wait_on_host(c)
    c.checked += 1
    if not c.plugin.wait_held():
        return c.fail("the plugin waits on get_followed_live", None)
    bodies = [json.dumps({"jsonrpc": "2.0", "method": method, "params": params}).encode()
              for method, params in map(subject.event, range(FLOOD_EVENTS))]
    for start in range(0, FLOOD_EVENTS, 1000):  # answers to host calls fit in between
        c.wire.write_raw(frames(bodies[start:start + 1000]))
    subject.while_waiting(c)
    c.plugin.release_held({"channels": []})
    handled = subject.after_answer(c, waiting)
    c.checked += 1
    if handled is None:
        return c.fail("the events the plugin handled, as it shows them", None)
    kept = min(FLOOD_EVENTS, HELD_EVENTS)
    if handled != list(range(kept)):
        first_wrong = next((n for n, (a, b) in enumerate(zip(handled, range(kept))) if a != b),
                           min(len(handled), kept))
        c.fail("the first %d events handled, in the order sent, and no other" % kept, {
            "handled": len(handled), "first wrong position": first_wrong,
            "there": handled[first_wrong:first_wrong + 5]})
    event_name = subject.event(0)[0].encode()
    with open(c.plugin.stderr_path, "rb") as f:
        reports = [l for l in f.read().split(b"\n") if event_name in l and b"drop" in l]
    c.checked += 1
    if FLOOD_EVENTS > kept and not reports:
        c.fail("the %d events past the bound reported on stderr" % (FLOOD_EVENTS - kept),
               {"lines naming a dropped %s" % event_name.decode(): 0})
    log("event-flood: %d sent while waiting, %d handled, %d drop report lines on stderr" % (
        FLOOD_EVENTS, len(handled), len(reports)))
    c.ping("after %d events" % FLOOD_EVENTS)


def endless_header(c):
    """A header section past the cap: the plugin's input is broken; it leaves with code 1."""
    try:
        c.wire.write_raw(b"Content-Length: 10\r\nX-Pad: " + b"a" * MIB)
    except BrokenPipeError:
        pass  # the plugin stopped reading at its 8 KiB header cap and left: as it should
    c.checked += 1
    try:
        code = c.plugin.process.wait(WAIT_S)
    except subprocess.TimeoutExpired:
        return c.fail("the plugin left after a broken header", None)
    if code != 1:
        c.fail("exit code after a broken header (expected 1)", code)


def hostile_initialize(c):
    """Before any good handshake: a deep initialize, a wrong version, then the real one."""
    c.expect("initialize with deep params", envelope(
        901, "initialize", '{"junk":%s}' % deep(DEEP)), "901", INVALID_REQUEST)
    got = c.request("initialize with protocol_version 2", "initialize", {
        "protocol_version": 2, "host_version": "7.8.6", "plugin_id": "p", "granted": GRANT,
        "data_dir": "/tmp", "log_dir": "/tmp"}, INVALID_REQUEST)
    if got is not None and got["error"].get("data", {}).get("name") != "protocol_version_mismatch":
        c.fail("version mismatch named in error.data.name", got)


CASES = {
    "long-strings": long_strings,
    "deep-nesting": deep_nesting,
    "numbers": numbers,
    "duplicate-keys": duplicate_keys,
    "encoding": encoding,
    "wide": wide,
    "garbage": garbage,
    "response-abuse": response_abuse,
    "request-flood": request_flood,
    "event-flood": event_flood,
    "endless-header": endless_header,
    "hostile-initialize": hostile_initialize,
}
BREAKS_FRAMING = {"endless-header"}
BEFORE_HANDSHAKE = {"hostile-initialize"}
HOLDS_FROM_START = {"event-flood"}  # get_followed_live is held from the handshake on


def main():
    if sys.argv[1:] == ["--list"]:
        print("\n".join(CASES))
        return 0
    dashes = sys.argv.index("--")
    case, options, command = sys.argv[1], sys.argv[2:dashes], sys.argv[dashes + 1:]
    if case not in CASES or len(options) != 2 or options[0] != "--plugin" or \
            options[1] not in SUBJECTS:
        sys.stderr.write(__doc__)
        return 2
    with tempfile.TemporaryDirectory(prefix="hostile-host-") as state_dir:
        plugin = Plugin(command, state_dir, options[1])
        plugin.hold_followed_live = case in HOLDS_FROM_START
        c = Checks(plugin)
        try:
            if case in BEFORE_HANDSHAKE:
                CASES[case](c)
            if c.handshake(state_dir) is not None and case not in BEFORE_HANDSHAKE:
                CASES[case](c)
        except Exception as e:  # a bug here, or the plugin went away: a failure either way
            c.fail("exception", repr(e))
        if case not in BREAKS_FRAMING:
            c.ping("still serving after " + case)
            peak = plugin.peak_memory()
            if peak is not None and peak > PEAK_MEMORY_LIMIT:
                c.fail("peak memory (VmHWM) within %d MiB" % (PEAK_MEMORY_LIMIT >> 20),
                       "%d MiB" % (peak >> 20))
            c.request("shutdown", "shutdown", {})
            c.event("exit", {})
            try:
                code = plugin.process.wait(WAIT_S)
                if code != 0:
                    c.fail("exit code after exit (expected 0)", code)
            except subprocess.TimeoutExpired:
                c.fail("the plugin left after exit", None)
        if plugin.process.poll() is None:
            plugin.process.kill()
        plugin.reader.join(WAIT_S)  # to the end of its output: every answer it ever gave
        c.check_answers("answers up to the end of " + case)
        stray = plugin.answers.take_stray()
        if stray:
            c.fail("answered a notification or a response", stray)
        with open(os.path.join(state_dir, "stderr.log"), "rb") as f:
            stderr = f.read()
            stderr_tail = stderr[-2000:].decode("utf-8", "replace")
        if os.environ.get("RPCKIT_VALIDATE"):
            check_validation_reports(c, case, stderr)
    log("%s: %d checked, %d failed" % (case, c.checked, len(c.failures)))
    if c.failures:
        log("plugin stderr (tail):\n" + stderr_tail)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
