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
        self.answers.sent_request(id_json)
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

    def check_answers(self, what):
        """Every answer so far was to a request this side sent, and the only one to it."""
        self.checked += 1
        for problem in self.answers.take_problems():
            self.failures.append("%s: %s" % (what, problem))
            self.log("FAIL %s: %s" % (what, problem))

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
    """Responses from the peer, by id; the reader thread adds, the checks take.

    Every request this side sends is announced first (sent_request), so an answer is matched
    against what was asked: an answer to an id no request carried (a stray) and a second
    answer to one request (a duplicate) are kept as problems, named with the id and frame,
    for take_problems(). Null-id answers are kept apart: the spec gives them to frames whose
    id could not be read, and the checks take them one by one (take_stray() the rest)."""

    def __init__(self):
        self.cv = threading.Condition()
        self.by_id = {}          # id (JSON text) -> answers not taken yet, in arrival order
        self.null_id = []
        self.awaited = {}        # id -> requests sent with it and not answered yet
        self.asked = set()       # every id a request carried
        self.problems = []

    def sent_request(self, id_json):
        """A request with this id is about to be written (before it is, so its answer is known)."""
        self.sent_requests((id_json,))

    def sent_requests(self, ids_json):
        with self.cv:
            for id_json in ids_json:
                self.awaited[id_json] = self.awaited.get(id_json, 0) + 1
                self.asked.add(id_json)

    def add(self, message, frame=None):
        with self.cv:
            if message.get("id") is None:
                self.null_id.append(message)
            else:
                key = json.dumps(message["id"])
                left = self.awaited.get(key, 0)
                if left > 0:
                    self.awaited[key] = left - 1
                else:
                    text = frame.decode("utf-8", "replace") if isinstance(frame, bytes) else (
                        frame if frame is not None else json.dumps(message))
                    self.problems.append("%s answer to id %s: %s" % (
                        "a second" if key in self.asked else "an unasked-for (stray)", key,
                        text[:300]))
                self.by_id.setdefault(key, []).append(message)
            self.cv.notify_all()

    def response(self, id_json, timeout=WAIT_S):
        with self.cv:
            self.cv.wait_for(lambda: self.by_id.get(id_json), timeout)
            waiting = self.by_id.get(id_json)
            if not waiting:
                return None
            got = waiting.pop(0)
            if not waiting:
                del self.by_id[id_json]
            return got

    def null_id_response(self):
        with self.cv:
            self.cv.wait_for(lambda: self.null_id, WAIT_S)
            return self.null_id.pop(0) if self.null_id else None

    def take_stray(self):
        with self.cv:
            stray = list(self.null_id)
            self.null_id.clear()
            return stray

    def take_problems(self):
        with self.cv:
            problems = list(self.problems)
            self.problems.clear()
            return problems
