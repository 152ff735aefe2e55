"""Content-Length framing and hostile-frame builders shared by the hostile peers.

Written from the StreamNook spec with Python's standard library only: nothing here comes from
rpckit, so the peers are strangers to the code they test.
"""
import json
import threading

MIB = 1 << 20
DEEP = 30000          # far past the 256-level limit
LONG = 3 * MIB        # a string that fits a 4 MiB frame
WAIT_S = 60           # bound on any single awaited answer (sanitizer builds are slow)

PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS = -32700, -32600, -32601, -32602


class Wire:
    """One side of a Content-Length framed byte stream."""

    def __init__(self, rfile, wfile):
        self.rfile = rfile
        self.wfile = wfile
        self.lock = threading.Lock()
        self.muted = False  # once set, nothing more is written (a peer gone silent)

    def write_frame(self, body):
        if isinstance(body, str):
            body = body.encode("utf-8")
        self.write_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def write_raw(self, data, then_mute=False):
        with self.lock:
            if self.muted:
                return
            self.wfile.write(data)
            self.wfile.flush()
            self.muted = then_mute

    def read_frame(self):
        """One frame's body, or None at EOF (or on a stream that is not framed)."""
        length = None
        while True:
            line = self.rfile.readline()
            if not line:
                return None
            line = line.rstrip(b"\r\n")
            if not line:
                break
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
        if length is None:
            return None
        body = self.rfile.read(length)
        return body if len(body) == length else None


def frames(bodies):
    """Many frames as one byte string (one write puts them back to back on the pipe)."""
    return b"".join(b"Content-Length: %d\r\n\r\n%s" % (len(b), b) for b in bodies)


def deep(levels, open_="[", close="]"):
    return open_ * levels + close * levels


def envelope(rid, method, params_text):
    """A request (rid is JSON text) or, with rid None, a notification, with raw params."""
    head = '{"jsonrpc":"2.0",' + ('"id":%s,' % rid if rid is not None else "")
    return head + '"method":"%s","params":%s}' % (method, params_text)


def describe(answers):
    return " or ".join("a result" if a is None else "error %d" % a for a in answers)


class Expectations:
    """Checks answers: each expect() sends one frame and checks the one answer it must get.

    `answers` collects the peer's responses (see Answers); `checked` and `failures` make the
    verdict."""

    def __init__(self, wire, answers, log):
        self.wire = wire
        self.answers = answers
        self.log = log
        self.checked = 0
        self.failures = []

    def fail(self, what, got):
        text = json.dumps(got)[:300] if got is not None else "no answer within %d s" % WAIT_S
        self.failures.append("%s: %s" % (what, text))
        self.log("FAIL %s: %s" % (what, text))

    def expect(self, what, body, id_json, code=None):
        """`body` is a request with id `id_json`: the answer carries that id and is a result
        (code None), an error `code`, or any of a tuple of those."""
        self.wire.write_frame(body)
        self.checked += 1
        got = self.answers.response(id_json)
        if got is None:
            return self.fail(what, None)
        allowed = code if isinstance(code, tuple) else (code,)
        answer = None if "result" in got else got.get("error", {}).get("code")
        if answer not in allowed:
            return self.fail("%s (expected %s)" % (what, describe(allowed)), got)
        return got

    def expect_null_id(self, what, body, code):
        """The answer to `body` is an error `code` with a null id (the id could not be read,
        or the frame was an invalid notification)."""
        self.wire.write_frame(body)
        self.checked += 1
        got = self.answers.null_id_response()
        if got is None or got.get("error", {}).get("code") != code:
            return self.fail("%s (expected error %d, id null)" % (what, code), got)
        return got


class Answers:
    """Responses from the peer, by id; the reader thread adds, the checks take."""

    def __init__(self):
        self.cv = threading.Condition()
        self.by_id = {}
        self.null_id = []

    def add(self, message):
        with self.cv:
            if message.get("id") is None:
                self.null_id.append(message)
            else:
                self.by_id[json.dumps(message["id"])] = message
            self.cv.notify_all()

    def response(self, id_json):
        with self.cv:
            self.cv.wait_for(lambda: id_json in self.by_id, WAIT_S)
            return self.by_id.pop(id_json, None)

    def null_id_response(self):
        with self.cv:
            self.cv.wait_for(lambda: self.null_id, WAIT_S)
            return self.null_id.pop(0) if self.null_id else None

    def take_stray(self):
        with self.cv:
            stray = list(self.null_id)
            self.null_id.clear()
            return stray
