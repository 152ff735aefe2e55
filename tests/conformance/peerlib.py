"""Shared plumbing for the conformance peers (Python 3 standard library only).

A Child is a spawned peer with its three pipes drained by threads: stdout is split into LF
lines (kept raw and, when they parse, as JSON), stderr is counted and its tail kept. A Suite
runs named checks, each in fresh processes, and prints one PASS/FAIL line per check.

Nothing here knows a protocol; the per-protocol scripts say what the spec expects.
"""

import json
import os
import signal
import subprocess
import sys
import threading
import time

# Generous outer bounds only: a conforming peer is far below all of them.
REPLY_TIMEOUT = 10.0      # an ordinary answer
BIG_REPLY_TIMEOUT = 120.0  # an answer queued behind a line of tens of MiB
EXIT_TIMEOUT = 10.0       # exit after stdin EOF / shutdown / signal
GRACE = 0.5               # extra wait for an answer that must NOT come (after a sentinel)

MIB = 1024 * 1024
STDOUT_LINE_KEEP = 4096   # bytes of an over-long stdout line kept for the report


class CheckFailed(Exception):
    pass


def expect(cond, message):
    if not cond:
        raise CheckFailed(message)


def short(value, limit=300):
    """A JSON-ish rendering of value cut to limit characters, for failure messages."""
    if isinstance(value, (bytes, bytearray)):
        text = repr(bytes(value[:limit]))
    else:
        try:
            text = json.dumps(value, separators=(",", ":"))
        except (TypeError, ValueError):
            text = repr(value)
    return text if len(text) <= limit else text[:limit] + "...(%d chars)" % len(text)


def dumps(obj):
    return json.dumps(obj, separators=(",", ":")).encode("utf-8")


class Line:
    """One stdout line of the child: raw bytes (cut to STDOUT_LINE_KEEP), length, parsed value."""

    __slots__ = ("t", "raw", "length", "msg", "is_json")

    def __init__(self, t, raw, length, msg, is_json):
        self.t, self.raw, self.length, self.msg, self.is_json = t, raw, length, msg, is_json


class Child:
    def __init__(self, argv, env=None, on_message=None):
        self.argv = list(argv)
        self.on_message = on_message
        self.cond = threading.Condition()
        self.lines = []           # Line objects, in arrival order
        self.stdout_eof_at = None
        self.stderr_bytes = 0
        self.stderr_lines = 0
        self.stderr_tail = bytearray()
        self.write_lock = threading.Lock()
        self.broken_pipe = False
        self.t0 = time.monotonic()
        full_env = dict(os.environ)
        if env:
            full_env.update(env)
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, bufsize=0, env=full_env)
        self.pid = self.proc.pid
        self._threads = [threading.Thread(target=self._read_stdout, daemon=True),
                         threading.Thread(target=self._read_stderr, daemon=True)]
        for th in self._threads:
            th.start()

    # --- readers -------------------------------------------------------------------------
    def _read_stdout(self):
        fd = self.proc.stdout.fileno()
        pending = bytearray()
        pending_len = 0
        while True:
            try:
                chunk = os.read(fd, 1 << 20)
            except OSError:
                chunk = b""
            if not chunk:
                break
            start = 0
            while True:
                nl = chunk.find(b"\n", start)
                if nl < 0:
                    piece = chunk[start:]
                    room = STDOUT_LINE_KEEP * 4 - len(pending)
                    if room > 0:
                        pending += piece[:room]
                    pending_len += len(piece)
                    break
                piece = chunk[start:nl]
                room = STDOUT_LINE_KEEP * 4 - len(pending)
                if room > 0:
                    pending += piece[:room]
                pending_len += len(piece)
                self._add_line(bytes(pending), pending_len)
                pending = bytearray()
                pending_len = 0
                start = nl + 1
        if pending_len:
            self._add_line(bytes(pending), pending_len)
        with self.cond:
            self.stdout_eof_at = time.monotonic()
            self.cond.notify_all()

    def _add_line(self, raw, length):
        msg, is_json = None, False
        if length == len(raw):
            try:
                msg = json.loads(raw.decode("utf-8"))
                is_json = True
            except (ValueError, UnicodeDecodeError):
                pass
        line = Line(time.monotonic(), raw[:STDOUT_LINE_KEEP], length, msg, is_json)
        with self.cond:
            self.lines.append(line)
            self.cond.notify_all()
        if is_json and self.on_message is not None:
            try:
                self.on_message(self, msg)
            except Exception as exc:  # a broken hook must not kill the reader
                sys.stderr.write("conformance: on_message hook failed: %r\n" % (exc,))

    def _read_stderr(self):
        fd = self.proc.stderr.fileno()
        while True:
            try:
                chunk = os.read(fd, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                break
            with self.cond:
                self.stderr_bytes += len(chunk)
                self.stderr_lines += chunk.count(b"\n")
                self.stderr_tail += chunk
                if len(self.stderr_tail) > 16384:
                    del self.stderr_tail[:-16384]
                self.cond.notify_all()

    # --- writing -------------------------------------------------------------------------
    def send_raw(self, data):
        """Writes data to the child's stdin; False when the pipe is closed (child stopped reading)."""
        with self.write_lock:
            try:
                view = memoryview(data)
                while view:
                    n = os.write(self.proc.stdin.fileno(), view)
                    view = view[n:]
                return True
            except (BrokenPipeError, ValueError, OSError):
                self.broken_pipe = True
                return False

    def send_bounded(self, data, timeout=BIG_REPLY_TIMEOUT):
        """Writes data from a helper thread: "ok", "broken" (stdin closed by the child) or
        "blocked" (the child stopped reading without closing stdin for timeout seconds)."""
        outcome = []
        th = threading.Thread(target=lambda: outcome.append(self.send_raw(data)), daemon=True)
        th.start()
        th.join(timeout)
        if th.is_alive():
            return "blocked"
        return "ok" if outcome and outcome[0] else "broken"

    def send(self, obj, end=b"\n"):
        return self.send_raw(dumps(obj) + end)

    def close_stdin(self):
        with self.write_lock:
            try:
                self.proc.stdin.close()
            except OSError:
                pass

    # --- observing -----------------------------------------------------------------------
    def messages(self, since=0):
        with self.cond:
            return [ln.msg for ln in self.lines[since:] if ln.is_json]

    def mark(self):
        """An index into the stdout lines: pass it as since= to look only at later lines."""
        with self.cond:
            return len(self.lines)

    def wait_for(self, pred, timeout=REPLY_TIMEOUT, since=0):
        """The first JSON stdout message from index since on that satisfies pred, or None."""
        deadline = time.monotonic() + timeout
        with self.cond:
            i = since
            while True:
                while i < len(self.lines):
                    ln = self.lines[i]
                    i += 1
                    if ln.is_json:
                        try:
                            if pred(ln.msg):
                                return ln.msg
                        except Exception:
                            pass
                if self.stdout_eof_at is not None:
                    return None
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.cond.wait(min(left, 0.5))

    def wait_response(self, id_value, timeout=REPLY_TIMEOUT, since=0):
        """The response (no method, has result or error) whose id equals id_value with its type."""
        return self.wait_for(lambda m: is_response(m) and same_id(m.get("id"), id_value),
                             timeout, since)

    def responses_to(self, id_value, since=0):
        return [m for m in self.messages(since) if is_response(m) and same_id(m.get("id"), id_value)]

    def wait_exit(self, timeout=EXIT_TIMEOUT):
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def alive(self):
        return self.proc.poll() is None

    def wait_stdout_eof(self, timeout=EXIT_TIMEOUT):
        deadline = time.monotonic() + timeout
        with self.cond:
            while self.stdout_eof_at is None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.cond.wait(min(left, 0.5))
        return True

    def stderr_snapshot(self):
        with self.cond:
            return self.stderr_bytes, self.stderr_lines

    def stderr_text(self):
        with self.cond:
            return bytes(self.stderr_tail).decode("utf-8", "replace")

    def vm_hwm_kib(self):
        """Peak resident set size (VmHWM) of the child, in KiB, or None once it has gone."""
        try:
            with open("/proc/%d/status" % self.pid) as f:
                for row in f:
                    if row.startswith("VmHWM:"):
                        return int(row.split()[1])
        except OSError:
            return None
        return None

    def start_hwm_sampler(self, period=0.05):
        """Polls VmHWM in the background so that a peak is known even if the child dies."""
        self.hwm_sampled = self.vm_hwm_kib()

        def poll():
            while self.proc.poll() is None:
                v = self.vm_hwm_kib()
                if v is not None and (self.hwm_sampled is None or v > self.hwm_sampled):
                    self.hwm_sampled = v
                time.sleep(period)
        threading.Thread(target=poll, daemon=True).start()
        return self.hwm_sampled

    def peak_hwm_kib(self):
        v = self.vm_hwm_kib()
        s = getattr(self, "hwm_sampled", None)
        if v is None:
            return s
        return v if s is None else max(v, s)

    def describe_end(self):
        rc = self.proc.poll()
        state = "still running" if rc is None else "exited with status %s" % describe_status(rc)
        tail = self.stderr_text().strip().splitlines()[-3:]
        return "%s; last stderr lines: %s" % (state, short(tail, 400))

    def kill(self):
        if self.proc.poll() is None:
            try:
                self.proc.kill()
            except OSError:
                pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            pass
        self.close_stdin()
        for th in self._threads:
            th.join(2)


def describe_status(rc):
    if rc is None:
        return "none (still running)"
    if rc < 0:
        try:
            return "%d (killed by %s)" % (rc, signal.Signals(-rc).name)
        except ValueError:
            return str(rc)
    return str(rc)


def is_response(m):
    return isinstance(m, dict) and "method" not in m and "id" in m and ("result" in m or "error" in m)


def is_request(m):
    return isinstance(m, dict) and isinstance(m.get("method"), str) and "id" in m


def is_notification(m):
    return isinstance(m, dict) and isinstance(m.get("method"), str) and "id" not in m


def same_id(a, b):
    """Equal as JSON values, type included (1 is not "1", true is not 1)."""
    if type(a) is not type(b):
        if isinstance(a, (int, float)) and isinstance(b, (int, float)) \
                and not isinstance(a, bool) and not isinstance(b, bool):
            return a == b
        return False
    return a == b


def error_of(m):
    e = m.get("error") if isinstance(m, dict) else None
    return e if isinstance(e, dict) else None


class Suite:
    """Named checks; run() prints PASS/FAIL per check and returns the exit status."""

    def __init__(self, title, argv):
        self.title = title
        self.checks = []
        self.argv = argv
        self.results = []   # (name, ref, ok, message)
        self._children = []

    def check(self, name, ref):
        def register(fn):
            self.checks.append((name, ref, fn))
            return fn
        return register

    def spawn(self, env=None, on_message=None):
        child = Child(self.argv, env=env, on_message=on_message)
        self._children.append(child)
        return child

    def record(self, name, ref, ok, message):
        self.results.append((name, ref, ok, message))
        status = "PASS" if ok else "FAIL"
        line = "%s %s [%s]" % (status, name, ref)
        if message:
            line += ": " + message
        print(line, flush=True)

    def run(self, only=None):
        print("# %s against: %s" % (self.title, " ".join(self.argv)), flush=True)
        for name, ref, fn in self.checks:
            if only and not any(o in name for o in only):
                continue
            ctx = CheckContext(self, name, ref)
            try:
                info = fn(ctx)
                if not ctx.recorded_main:
                    self.record(name, ref, True, info or "")
            except CheckFailed as exc:
                self.record(name, ref, False, str(exc))
            except Exception as exc:  # a bug in the probe or an unexpected peer state
                self.record(name, ref, False, "probe error: %r" % (exc,))
            finally:
                for child in self._children:
                    child.kill()
                self._children = []
        failed = [r for r in self.results if not r[2]]
        print("# %d checks, %d passed, %d failed" % (len(self.results),
                                                     len(self.results) - len(failed), len(failed)))
        if failed:
            print("# failed checks:")
            for name, ref, _, message in failed:
                print("#   %s [%s]: %s" % (name, ref, message))
        return 1 if failed else 0


class CheckContext:
    def __init__(self, suite, name, ref):
        self.suite, self.name, self.ref = suite, name, ref
        self.recorded_main = False

    def spawn(self, env=None, on_message=None):
        return self.suite.spawn(env=env, on_message=on_message)

    def sub(self, suffix, ref, ok, message):
        """Records a separate result named <check>.<suffix> (several rules seen in one run)."""
        self.suite.record("%s.%s" % (self.name, suffix), ref, ok, message)
        self.recorded_main = True


def main(title, build_suite):
    """Parses `[--only NAME]... [--list] [--] <plugin command...>` and runs the suite."""
    args = sys.argv[1:]
    only, list_only = [], False
    while args and args[0].startswith("--"):
        opt = args.pop(0)
        if opt == "--":
            break
        if opt == "--only" and args:
            only.append(args.pop(0))
        elif opt == "--list":
            list_only = True
        elif opt in ("-h", "--help"):
            print(__doc_usage__(title))
            return 0
        else:
            sys.stderr.write("unknown option %s\n%s\n" % (opt, __doc_usage__(title)))
            return 2
    if not args and not list_only:
        sys.stderr.write(__doc_usage__(title) + "\n")
        return 2
    suite = Suite(title, args)
    build_suite(suite)
    if list_only:
        for name, ref, _ in suite.checks:
            print("%s [%s]" % (name, ref))
        return 0
    return suite.run(only or None)


def __doc_usage__(title):
    return ("usage: %s [--only NAME]... [--list] [--] <plugin command...>\n"
            "  %s; exit 0 when every check passed, 1 otherwise, 2 on a usage error"
            % (os.path.basename(sys.argv[0]), title))


def big_line(prefix, suffix, total):
    """prefix + padding + suffix + LF, exactly total bytes including the LF."""
    pad = total - len(prefix) - len(suffix) - 1
    assert pad >= 0
    return prefix + b"x" * pad + suffix + b"\n"


def mib(kib):
    return "%.1f MiB" % (kib / 1024.0)


def memory_verdict(child, base, line_len, limit):
    """(ok, message) for the rule "an over-long line is never held whole twice".

    The bound is growth of peak RSS (VmHWM) < 2 x the line's length: one complete copy of the
    line (a reader that buffers it whole before noticing it is too long) stays below it, a
    second copy (e.g. the buffer copied into a string before the length check) passes it. A
    reader that drops the line at the limit stays near the limit (plus one read buffer)."""
    peak = child.peak_hwm_kib()
    if base is None or peak is None:
        return False, "could not read VmHWM of pid %d (peer %s)" % (child.pid, child.describe_end())
    growth = peak - base
    bound = 2 * line_len // 1024
    if not child.alive():
        return False, ("not measurable: the peer exited before its peak could be read (last "
                       "sample %s above the baseline; %s)" % (mib(growth), child.describe_end()))
    note = ""
    return growth < bound, (
        "peak RSS (VmHWM) grew by %s for a %d MiB line; bound: < %s (twice the line: the line "
        "is never held whole twice); a reader that drops the line at the %d MiB limit stays "
        "within about %d MiB%s" % (mib(growth), line_len // MIB, mib(bound), limit // MIB,
                                  2 * limit // MIB, note))
