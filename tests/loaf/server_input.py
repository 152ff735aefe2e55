#!/usr/bin/env python3
"""Drives loaf-server over pipes: its answers to malformed input and its three ways to stop.

usage: server_input.py <loaf-server> MODE
  malformed  every malformed input of spec section 3 gets the spec's error
  shutdown   system.shutdown: state.changed, {accepted, reason}; exits 0 once stdin closes
  eof        stdin closed: exits 0 with no state.changed
  sigterm    SIGTERM: state.changed reason "sigterm", exits 0
Rules the runtime does not do yet (run by DISABLED_ tests in loaf_e2e_test.cpp):
  ignored_after_shutdown  after the shutdown answer every line is ignored (requests, non-JSON)
  sigint                  SIGINT: state.changed reason "sigint", exits 0
"""
import json
import signal
import subprocess
import sys
import threading

TIMEOUT = 30


def start(server):
    proc = subprocess.Popen([server, "rpc"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, bufsize=1)
    lines = []
    cond = threading.Condition()

    def read():
        for line in proc.stdout:
            with cond:
                lines.append(json.loads(line))
                cond.notify_all()
    threading.Thread(target=read, daemon=True).start()

    def send(text):
        proc.stdin.write(text + "\n")
        proc.stdin.flush()

    def wait(pred, what):
        with cond:
            if not cond.wait_for(lambda: any(pred(m) for m in lines), TIMEOUT):
                raise SystemExit("missing: " + what + "\n" + "\n".join(map(str, lines)))
            return next(m for m in lines if pred(m))
    return proc, send, wait, lines


def reply(rid):
    return lambda m: m.get("id") == rid and ("result" in m or "error" in m)


def check_error(m, code, reason, **data):
    err = m["error"]
    assert err["code"] == code and err["data"]["reason"] == reason, m
    for k, v in data.items():
        assert err["data"].get(k) == v, (k, m)


def malformed(server):
    proc, send, wait, lines = start(server)
    send("this is not json")
    send("[1,2]")
    send('{"jsonrpc":"1.0","id":5,"method":"system.ping"}')
    send('{"jsonrpc":"2.0","id":{"x":1},"method":"system.ping"}')
    send('{"jsonrpc":"2.0","id":6,"method":"   "}')
    send('{"jsonrpc":"2.0","id":7,"method":"no.such.method"}')
    send('{"jsonrpc":"2.0","id":8,"method":"session.get"}')
    send('{"jsonrpc":"2.0","id":9,"method":"session.get","params":{"session_id":""}}')
    send('{"jsonrpc":"2.0","id":10,"method":"session.get","params":{"session_id":"zz"}}')
    send('{"jsonrpc":"2.0","id":11,"method":"model.list","params":{"provider":"mars"}}')
    send('{"jsonrpc":"2.0","id":12,"method":"rpc.handshake",'
         '"params":{"protocol_version":"9.0.0","strict":true}}')
    send('{"jsonrpc":"2.0","id":13,"method":"rpc.handshake","params":{"strict":"yes"}}')
    send('{"jsonrpc":"2.0","id":"s","method":"system.ping","params":[1,2]}')
    send('{"jsonrpc":"2.0","method":"system.ping"}')  # a notification: ignored
    send('  {"jsonrpc":"2.0","id":14,"method":"system.ping"}\r{"jsonrpc":"2.0","id":15,'
         '"method":"system.ping"}  ')
    nulls = lambda: [m for m in lines if m.get("id") is None and "error" in m]
    wait(lambda m: len(nulls()) >= 5, "five errors with id null")
    reasons = sorted(m["error"]["data"]["reason"] for m in nulls())
    assert reasons == ["batch_not_supported"] + ["invalid_request"] * 3 + ["parse_error"], reasons
    # Spec 3: jsonrpc != "2.0" and a blank method are -32600 invalid_request with id null,
    # whatever id the request carried.
    wrong_version = lambda m: "error" in m and "jsonrpc" in m["error"]["message"]
    answer = wait(wrong_version, "jsonrpc 1.0")
    check_error(answer, -32600, "invalid_request")
    assert answer["id"] is None, answer
    blank = lambda m: "error" in m and "blank" in m["error"]["message"]
    answer = wait(blank, "blank method")
    check_error(answer, -32600, "invalid_request")
    assert answer["id"] is None, answer
    assert not [m for m in lines if m.get("id") == 6], "a blank method answered with its id"
    check_error(wait(reply(7), "7"), -32601, "method_not_found", method="no.such.method")
    check_error(wait(reply(8), "8"), -32602, "invalid_params")
    check_error(wait(reply(9), "9"), -32602, "invalid_params", field="session_id")
    check_error(wait(reply(10), "10"), -32603, "internal_error")
    assert "unknown session: zz" in wait(reply(10), "10")["error"]["message"]
    check_error(wait(reply(11), "11"), -32602, "invalid_params", field="provider")
    check_error(wait(reply(12), "12"), -32602, "unsupported_protocol_version",
                supported="1.0.0")
    check_error(wait(reply(13), "13"), -32602, "invalid_params", field="strict")
    assert wait(reply("s"), "s")["result"]["ok"] is True  # ignored params
    wait(reply(14), "14")
    wait(reply(15), "15 after a lone CR")
    proc.stdin.close()
    assert proc.wait(timeout=TIMEOUT) == 0
    assert not [m for m in lines if m.get("id") is None and "result" in m], "notification answered"


def shutdown(server):
    proc, send, wait, lines = start(server)
    send('{"jsonrpc":"2.0","id":1,"method":"session.create"}')
    wait(reply(1), "session.create")
    send('{"jsonrpc":"2.0","id":2,"method":"system.shutdown","params":{"reason":"bye"}}')
    assert wait(reply(2), "shutdown")["result"] == {"accepted": True, "reason": "bye"}
    wait(lambda m: m.get("method") == "event" and m["params"]["type"] == "state.changed"
         and m["params"]["payload"]["reason"] == "bye", "state.changed bye")
    proc.stdin.close()
    assert proc.wait(timeout=TIMEOUT) == 0


def ignored_after_shutdown(server):
    proc, send, wait, lines = start(server)
    send('{"jsonrpc":"2.0","id":2,"method":"system.shutdown"}')
    wait(reply(2), "shutdown")
    send('{"jsonrpc":"2.0","id":3,"method":"system.ping"}')  # ignored from now on
    send("not json")
    send('{"jsonrpc":"2.0","id":4,"method":"system.ping"}')
    proc.stdin.close()
    assert proc.wait(timeout=TIMEOUT) == 0
    later = [m for m in lines if m.get("id") != 2 and m.get("method") != "event"]
    assert not later, "answered after shutdown: %s" % later


def eof(server):
    proc, send, wait, lines = start(server)
    send('{"jsonrpc":"2.0","id":1,"method":"session.create"}')
    wait(reply(1), "session.create")
    count = len(lines)
    proc.stdin.close()
    assert proc.wait(timeout=TIMEOUT) == 0
    assert not [m for m in lines[count:] if m.get("method") == "event"], "event after EOF"


def stopped_by(server, sig, reason):
    proc, send, wait, lines = start(server)
    send('{"jsonrpc":"2.0","id":1,"method":"system.ping"}')
    wait(reply(1), "ping")
    proc.send_signal(sig)
    assert proc.wait(timeout=TIMEOUT) == 0
    wait(lambda m: m.get("method") == "event"
         and m["params"]["payload"].get("reason") == reason, "state.changed " + reason)


def sigterm(server):
    stopped_by(server, signal.SIGTERM, "sigterm")


def sigint(server):
    stopped_by(server, signal.SIGINT, "sigint")


if __name__ == "__main__":
    {"malformed": malformed, "shutdown": shutdown, "eof": eof, "sigterm": sigterm,
     "ignored_after_shutdown": ignored_after_shutdown,
     "sigint": sigint}[sys.argv[2]](sys.argv[1])
    print("ok")
