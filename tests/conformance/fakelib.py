"""Shared plumbing for the fake plugins/servers that the hosts spawn (Python 3 stdlib only).

A Fake reads stdin on the main thread and writes stdout from a writer thread (so a host that
stops reading our stdout never stops us from seeing what arrives on stdin, e.g. its EOF), and
keeps a JSON report in the file named by $FAKE_REPORT:

    {"runs": [ {"pid", "mode", "argv", "started", "received": [{"t", "msg"} | {"t", "raw"}],
                "sent": [{"t", "msg"}], "events": [{"t", "what", ...}], "stdin_eof_at",
                "signals": [{"t", "name"}], "exit": {"t", "code"} | null, ...}, ... ] }

One entry per process (a host that restarts the fake adds runs); times are time.time()
seconds. The file is rewritten whole under an flock after every event, so it is complete up to
the moment a process is killed. $FAKE_TIME_SCALE (default 1) is the host's --time-scale, for
fakes that must judge a host's waits.
"""

import fcntl
import json
import os
import queue
import signal
import sys
import threading
import time

SENT_KEEP = 200        # sent messages kept in the report (floods are counted, not kept)
RAW_KEEP = 300         # characters of a non-JSON received line kept


class Fake:
    def __init__(self, mode, modes):
        if mode not in modes:
            sys.stderr.write("unknown mode %r; modes: %s\n" % (mode, ", ".join(modes)))
            sys.exit(2)
        self.mode = mode
        self.report_path = os.environ.get("FAKE_REPORT")
        self.time_scale = float(os.environ.get("FAKE_TIME_SCALE", "1"))
        self.lock = threading.RLock()
        self.run = {"pid": os.getpid(), "mode": mode, "argv": sys.argv, "started": time.time(),
                    "received": [], "sent": [], "sent_count": 0, "sent_bytes": 0,
                    "events": [], "stdin_eof_at": None, "signals": [], "exit": None}
        self.run_index = self._save(first=True)
        self.out = queue.Queue()
        self._writer = threading.Thread(target=self._write_loop, daemon=True)
        self._writer.start()

    # --- report --------------------------------------------------------------------------
    def _save(self, first=False):
        """Writes this process's entry into the report; returns its index among the runs."""
        if not self.report_path:
            return 0
        with self.lock:
            with open(self.report_path + ".lock", "a+") as lk:
                fcntl.flock(lk, fcntl.LOCK_EX)
                try:
                    try:
                        with open(self.report_path) as f:
                            data = json.load(f)
                    except (OSError, ValueError):
                        data = {"runs": []}
                    runs = data.setdefault("runs", [])
                    index = next((i for i, r in enumerate(runs) if r.get("pid") == self.run["pid"]
                                  and r.get("started") == self.run["started"]), None)
                    if index is None:
                        runs.append(self.run)
                        index = len(runs) - 1
                    else:
                        runs[index] = self.run
                    tmp = "%s.%d.tmp" % (self.report_path, os.getpid())
                    with open(tmp, "w") as f:
                        json.dump(data, f, indent=1)
                    os.replace(tmp, self.report_path)
                    return index
                finally:
                    fcntl.flock(lk, fcntl.LOCK_UN)

    def event(self, what, **fields):
        with self.lock:
            self.run["events"].append(dict({"t": time.time(), "what": what}, **fields))
            self._save()

    def note(self, key, value):
        with self.lock:
            self.run[key] = value
            self._save()

    # --- output --------------------------------------------------------------------------
    def send(self, msg, record=True):
        data = (json.dumps(msg, separators=(",", ":")) + "\n").encode("utf-8")
        self.out.put((data, msg if record else None, None))

    def send_raw(self, data, label=None):
        self.out.put((data, {"raw": label} if label else None, None))

    def _write_loop(self):
        fd = sys.stdout.fileno()
        broken = False
        while True:
            data, msg, done = self.out.get()
            if done is not None:
                done.set()
                continue
            if broken:
                continue
            try:
                view = memoryview(data)
                while view:
                    n = os.write(fd, view)
                    view = view[n:]
            except OSError as exc:
                broken = True
                self.event("stdout_write_failed", error=str(exc))
                continue
            with self.lock:
                before = self.run["sent_bytes"]
                self.run["sent_count"] += 1
                self.run["sent_bytes"] += len(data)
                crossed = before // (16 << 20) != self.run["sent_bytes"] // (16 << 20)
                if msg is not None and len(self.run["sent"]) < SENT_KEEP:
                    self.run["sent"].append({"t": time.time(), "msg": msg})
                    self._save()
                elif crossed:
                    self._save()  # floods: progress every 16 MiB

    def flush(self, timeout=5.0):
        """Waits until everything queued so far has been written; False on timeout."""
        done = threading.Event()
        self.out.put((b"", None, done))
        return done.wait(timeout)

    # --- input ---------------------------------------------------------------------------
    def lines(self):
        """Yields parsed stdin messages (or None for a non-JSON line); records EOF."""
        stdin = sys.stdin.buffer
        while True:
            try:
                line = stdin.readline()
            except (OSError, ValueError):
                line = b""
            if not line:
                with self.lock:
                    self.run["stdin_eof_at"] = time.time()
                    self._save()
                return
            text = line.rstrip(b"\r\n")
            if not text.strip():
                continue
            try:
                msg = json.loads(text.decode("utf-8"))
            except (ValueError, UnicodeDecodeError):
                msg = None
            with self.lock:
                entry = {"t": time.time()}
                if msg is None:
                    entry["raw"] = text[:RAW_KEEP].decode("utf-8", "replace")
                else:
                    entry["msg"] = msg
                self.run["received"].append(entry)
                self._save()
            yield msg

    # --- signals and exit ----------------------------------------------------------------
    def on_signal(self, signum, action):
        """Records the signal, then runs action(signame) on a helper thread (the handler itself
        must not take the report lock: the main thread may hold it)."""
        def handler(num, _frame):
            name = signal.Signals(num).name
            self.run["signals"].append({"t": time.time(), "name": name})

            def later():
                with self.lock:
                    self._save()
                action(name)
            threading.Thread(target=later, daemon=True).start()
        signal.signal(signum, handler)

    def exit(self, code):
        self.flush()
        with self.lock:
            self.run["exit"] = {"t": time.time(), "code": code}
            self._save()
        os._exit(code)

    def sleep_forever(self):
        while True:
            time.sleep(3600)
