#!/usr/bin/env python3
"""A loaf server that breaks one rule of the spec, for loaf-client's failure classes.

usage: misbehaving_server.py MODE   (the independent peer tests/interop/loaf_plugin.py,
with one thing wrong)
  silent      never answers rpc.handshake                      -> handshake_timeout
  refuse      answers rpc.handshake with an error              -> handshake_refused
  v2          speaks protocol_version 2.0.0                    -> unsupported_protocol_version
  crash       exits with status 3 at session.create            -> server_exited
  mute        never answers state.get                          -> request_timeout
  bad-result  answers state.get with a result of the wrong shape -> invalid_response
  no-ready    a turn never ends with session.status ready      -> turn_incomplete
  linger      keeps running after stdin closes, ignores SIGTERM -> exit_timeout
  exit-3      exits with status 3 once stdin closes            -> exit_status
Hostile or odd output before its state.get answer (for the client library's tests):
  flood       100000 lines that are not JSON                   -> logged at a falling rate
  overlong    an event line of 160 MiB (over decision 8.7's 64) -> dropped, still served
  bad-event   a state.changed event whose payload is not the spec's, then one of an
              unknown type                                     -> a violation; the other passed on
"""
import os
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "interop"))
import loaf_plugin  # noqa: E402

MODE = sys.argv[1]


class Misbehaving(loaf_plugin.Server):
    def call(self, method, params):
        if MODE == "refuse" and method == "rpc.handshake":
            raise loaf_plugin.internal("not today")
        if MODE == "v2" and method == "rpc.handshake":
            return dict(self.handshake_result(), protocol_version="2.0.0")
        if MODE == "crash" and method == "session.create":
            os._exit(3)
        if MODE == "bad-result" and method == "state.get":
            return {"bogus": True}
        if method == "state.get":
            self.odd_output()
        return super().call(method, params)

    def odd_output(self):
        with self.write_lock:
            if MODE == "flood":
                self.out.write("this is not json {\n" * 100000)
            elif MODE == "overlong":
                head = '{"jsonrpc":"2.0","method":"event","params":{"type":"x.big","timestamp":"t",'
                self.out.write(head + '"payload":{"blob":"')
                chunk = "a" * (1 << 20)
                for _ in range(160):
                    self.out.write(chunk)
                self.out.write('"}}}\n')
            self.out.flush()
        if MODE == "bad-event":
            self.event("state.changed", {"reason": 42})
            self.event("x.future.kind", {"anything": [1, 2]})

    def handle_line(self, line):
        if MODE == "silent" or (MODE == "mute" and '"state.get"' in line):
            return None
        return super().handle_line(line)

    def on_turn_end(self, s, turn_id):
        if MODE != "no-ready":
            super().on_turn_end(s, turn_id)


if __name__ == "__main__":
    if MODE == "linger":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    Misbehaving().serve()
    if MODE == "linger":
        time.sleep(120)
    if MODE == "exit-3":
        sys.exit(3)
