#!/usr/bin/env python3
"""A loaf RPC v1 server written from the spec alone (Python standard library only).

NDJSON JSON-RPC 2.0 on stdin/stdout. A tiny in-memory runtime with a scripted "model": a
turn streams session.status / message / chunk / completed events; a prompt with "slow"
drafts until interrupted. It is the peer loaf-client must drive through its whole session.

misbehaving_server.py reuses it with a MODE that breaks one rule of the spec.
"""
import datetime
import json
import sys
import threading
import time
import uuid

PROTOCOL_VERSION = "1.0.0"
METHODS = sorted([
    "rpc.handshake", "system.ping", "system.shutdown", "state.get", "session.create",
    "session.get", "session.send", "session.steer", "session.interrupt",
    "session.queue.list", "session.queue.clear", "command.execute", "auth.status",
    "auth.connect.openai", "auth.connect.antigravity", "auth.set.openrouter_key",
    "auth.set.exa_key", "onboarding.status", "onboarding.complete", "model.list",
    "model.select", "model.openrouter.providers", "limits.get", "history.list",
    "history.get", "history.clear_session", "skills.list", "tools.list", "debug.set"])
MODELS = [
    {"id": "gpt-5", "provider": "openai", "label": "GPT-5", "description": "OpenAI",
     "supportedThinkingLevels": ["LOW", "MEDIUM", "HIGH"], "defaultThinkingLevel": "MEDIUM"},
    {"id": "anthropic/claude-sonnet-4", "provider": "openrouter", "label": "Sonnet",
     "description": "OpenRouter", "supportedThinkingLevels": ["OFF", "LOW"],
     "defaultThinkingLevel": "OFF", "routingProviders": ["anthropic"]},
]
HISTORY = [{"id": "h-%d" % i, "title": "chat %d" % i, "provider": "openai", "model": "gpt-5",
            "thinkingLevel": "MEDIUM", "createdAt": "2025-01-0%dT00:00:00.000Z" % i,
            "updatedAt": "2025-01-0%dT00:00:00.000Z" % i, "messageCount": 1,
            "rolloutPath": "/tmp/h-%d.jsonl" % i} for i in (3, 2, 1)]


def now():
    t = datetime.datetime.now(datetime.timezone.utc)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000)


class RpcFailure(Exception):
    def __init__(self, code, message, data):
        super().__init__(message)
        self.code, self.message, self.data = code, message, data


def internal(message):
    return RpcFailure(-32603, message, {"reason": "internal_error"})


def invalid(field=None):
    data = {"reason": "invalid_params"}
    if field:
        data["field"] = field
    return RpcFailure(-32602, "Invalid params", data)


class Server:
    def __init__(self, out=sys.stdout):
        self.out = out
        self.lock = threading.Lock()
        self.write_lock = threading.Lock()
        self.sessions = {}
        self.auth = {"openai": False, "openrouter": False, "antigravity": None}
        self.onboarded = False
        self.model = {"selectedModel": "gpt-5", "selectedThinking": "MEDIUM",
                      "selectedOpenRouterProvider": "", "selectedProvider": None}
        self.debug = False
        self.stopped = False

    # ---- output ---------------------------------------------------------------------------
    def send(self, message):
        with self.write_lock:
            self.out.write(json.dumps(message, separators=(",", ":")) + "\n")
            self.out.flush()

    def event(self, type_, payload):
        self.send({"jsonrpc": "2.0", "method": "event",
                   "params": {"type": type_, "timestamp": now(), "payload": payload}})

    def snapshot(self):
        providers = [p for p in ("openai", "openrouter", "antigravity") if self.auth[p]]
        return {"auth": {"enabledProviders": providers, "hasOpenAiToken": self.auth["openai"],
                         "hasOpenRouterKey": self.auth["openrouter"],
                         "hasAntigravityToken": self.auth["antigravity"] is not None,
                         "antigravityProfile": self.auth["antigravity"]},
                "onboarding": {"completed": self.onboarded}, "model": dict(self.model),
                "sessions": {"count": len(self.sessions), "ids": list(self.sessions)},
                "skills": {"count": 0, "directories": []}}

    def changed(self, reason, session_id=None):
        payload = {"reason": reason, "snapshot": self.snapshot()}
        if session_id:
            payload["session_id"] = session_id
        self.event("state.changed", payload)

    def auth_status(self):
        s = self.snapshot()["auth"]
        return {"enabled_providers": s["enabledProviders"],
                "has_openai_token": s["hasOpenAiToken"],
                "has_openrouter_key": s["hasOpenRouterKey"],
                "has_antigravity_token": s["hasAntigravityToken"],
                "antigravity_profile": s["antigravityProfile"]}

    # ---- sessions -------------------------------------------------------------------------
    def session(self, params):
        sid = self.required(params, "session_id")
        if sid not in self.sessions:
            raise internal("unknown session: " + sid)
        return self.sessions[sid]

    @staticmethod
    def required(params, field):
        value = params.get(field)
        if not isinstance(value, str) or not value.strip():
            raise invalid(field)
        return value.strip()

    def state_of(self, s):
        return {"id": s["id"], "createdAt": s["createdAt"], "updatedAt": now(),
                "pending": s["turn"] is not None, "statusLabel": s["label"],
                "messages": s["messages"], "history": [], "queue": s["queue"],
                "pendingSteerCount": len(s["steer"]), "conversationProvider": None,
                "activeSessionId": None, "contextTokenEstimate": 0,
                "contextTokenSource": "history", "contextTokenProvider": None,
                "contextTokenBreakdown": {"pinned_tokens": 0, "conversation_tokens": 0,
                                          "tool_schema_tokens": 0,
                                          "provider_overhead_tokens": 0}}

    def status(self, s, turn_id, pending, label):
        s["label"] = label
        self.event("session.status", {"session_id": s["id"], "pending": pending,
                                      "status_label": label, "turn_id": turn_id})

    def run_turns(self, s, turn_id, text):
        while True:
            self.run_turn(s, turn_id, text)
            with self.lock:
                if not s["queue"]:
                    s["turn"] = None
                    return
                item = s["queue"].pop(0)
                turn_id, text = item["id"], item["text"]
                s["abort"] = False

    def run_turn(self, s, turn_id, text):
        sid = s["id"]
        self.status(s, turn_id, True, "thinking...")
        s["messages"].append({"id": len(s["messages"]) + 1, "kind": "user", "text": text})
        self.event("session.message.appended", {"session_id": sid, "message": s["messages"][-1]})
        answer = ""
        deadline = time.monotonic() + (60 if "slow" in text else 0)
        for word in ("This", "is", "the", "Python", "peer."):
            answer = (answer + " " + word).strip()
            self.event("session.stream.chunk", {"session_id": sid, "turn_id": turn_id, "chunk": {
                "thoughts": [], "answerText": answer,
                "segments": [{"kind": "answer", "text": word}]}})
        while not s["abort"] and time.monotonic() < deadline:
            time.sleep(0.01)
            if s["steer"]:
                s["steer"].clear()
                self.status(s, turn_id, True, "steer applied; continuing...")
        if s["abort"]:
            self.event("session.interrupted", {"session_id": sid, "turn_id": turn_id,
                                               "partial_output": True})
        elif "fail" in text:
            self.event("session.error", {"session_id": sid, "turn_id": turn_id,
                                         "message": "scripted failure"})
        else:
            s["messages"].append({"id": len(s["messages"]) + 1, "kind": "assistant",
                                  "text": answer})
            self.event("session.completed", {"session_id": sid, "turn_id": turn_id,
                                             "answer_length": len(answer)})
        self.on_turn_end(s, turn_id)

    def on_turn_end(self, s, turn_id):
        self.status(s, turn_id, False, "ready")

    # ---- methods --------------------------------------------------------------------------
    def call(self, method, params):
        p = params if isinstance(params, dict) else {}
        if method == "rpc.handshake":
            if p.get("strict") is True and p.get("protocol_version") != PROTOCOL_VERSION:
                raise RpcFailure(-32602, "unsupported protocol version",
                                 {"reason": "unsupported_protocol_version",
                                  "supported": PROTOCOL_VERSION})
            return self.handshake_result()
        if method == "system.ping":
            return {"ok": True, "time": now()}
        if method == "system.shutdown":
            with self.lock:
                for s in self.sessions.values():
                    s["queue"].clear()
                    s["abort"] = True
            reason = p.get("reason")
            self.changed(reason or "shutdown")
            self.stopped = True
            return {"accepted": True, **({"reason": reason} if reason else {})}
        if method == "state.get":
            return self.snapshot()
        if method == "session.create":
            sid = str(uuid.uuid4())
            self.sessions[sid] = {"id": sid, "createdAt": now(), "label": "ready", "turn": None,
                                  "queue": [], "steer": [], "messages": [], "abort": False}
            self.changed("session_created", sid)
            return {"session_id": sid, "state": self.state_of(self.sessions[sid])}
        if method == "session.get":
            return self.state_of(self.session(p))
        if method == "session.send":
            s = self.session(p)
            text = (p.get("text") or "").strip()
            if not text:
                raise invalid("text")
            turn_id = str(uuid.uuid4())
            with self.lock:
                if s["turn"] is not None:
                    if not p.get("enqueue"):
                        raise internal("session is busy")
                    s["queue"].append({"id": turn_id, "text": text, "images": [],
                                       "enqueuedAt": now()})
                    return {"session_id": s["id"], "turn_id": turn_id, "accepted": True,
                            "queued": True}
                s["turn"], s["abort"] = turn_id, False
            threading.Thread(target=self.run_turns, args=(s, turn_id, text), daemon=True).start()
            return {"session_id": s["id"], "turn_id": turn_id, "accepted": True, "queued": False}
        if method == "session.steer":
            s = self.session(p)
            text = self.required(p, "text")
            running = s["turn"] is not None
            if running:
                s["steer"].append(text)
            return {"session_id": s["id"], "accepted": running}
        if method == "session.interrupt":
            s = self.session(p)
            running = s["turn"] is not None and not s["abort"]
            s["abort"] = True if running else s["abort"]
            return {"session_id": s["id"], "interrupted": running}
        if method == "session.queue.list":
            s = self.session(p)
            return {"session_id": s["id"], "queue": list(s["queue"])}
        if method == "session.queue.clear":
            s = self.session(p)
            with self.lock:
                n = len(s["queue"])
                s["queue"].clear()
            return {"session_id": s["id"], "cleared_count": n}
        if method == "command.execute":
            self.session(p)
            raw = p.get("raw_command", "")
            if not raw.startswith("/"):
                return {"handled": False}
            cmd = raw.split()[0].lower()
            outputs = {"/help": {"commands": [{"name": "/help", "description": "help"}]},
                       "/tools": self.call("tools.list", {}),
                       "/model": dict(self.model_fields(), available=self.call("model.list", {})),
                       "/compress": {"compressed": False, "reason": "none",
                                     "estimated_tokens_before": 0, "estimated_tokens_after": 0,
                                     "model_context_window": 1000, "target_limit": 800,
                                     "anchor_event_index_before": 0,
                                     "anchor_event_index_after": 0}}
            return {"handled": True, "output": outputs.get(cmd, {"error": "unknown command: " + cmd})}
        if method == "auth.status":
            return self.auth_status()
        if method == "auth.connect.openai":
            self.event("auth.flow.started", {"provider": "openai"})
            device = p.get("mode") == "device_code"
            if device:
                self.event("auth.flow.device_code", {
                    "provider": "openai", "verification_url": "https://example.com/device",
                    "user_code": "ABCD", "interval_seconds": 5, "expires_in_seconds": 600})
            else:
                self.event("auth.flow.url", {"provider": "openai", "url": "https://example.com"})
            result = {"provider": "openai", "login_method": "device_code" if device else "browser",
                      "account_id": None}
            self.event("auth.flow.completed", result)
            self.auth["openai"] = True
            self.changed("auth_openai_connected")
            return result
        if method == "auth.connect.antigravity":
            self.event("auth.flow.started", {"provider": "antigravity"})
            profile = {"email": "py@example.com", "name": "Py"}
            result = {"provider": "antigravity", "profile": profile}
            self.event("auth.flow.completed", result)
            self.auth["antigravity"] = profile
            self.changed("auth_antigravity_connected")
            return result
        if method == "auth.set.openrouter_key":
            self.required(p, "api_key")
            self.auth["openrouter"] = True
            self.changed("openrouter_key_updated")
            return {"configured": True, "model_count": 1, "source": "fallback"}
        if method == "auth.set.exa_key":
            skip = self.required(p, "api_key").lower() == "skip"
            self.changed("exa_key_skipped" if skip else "exa_key_updated")
            return {"configured": not skip, "skipped": skip}
        if method == "onboarding.status":
            return {"completed": self.onboarded}
        if method == "onboarding.complete":
            self.onboarded = True
            self.changed("onboarding_complete")
            return {"completed": True}
        if method == "model.list":
            provider = p.get("provider")
            if provider is not None and provider not in ("openai", "openrouter", "antigravity"):
                raise invalid("provider")
            models = [m for m in MODELS if provider in (None, m["provider"])]
            return dict(self.model_fields(), providers=self.auth_status()["enabled_providers"],
                        models=models)
        if method == "model.select":
            model = next((m for m in MODELS if m["id"] == p.get("model_id")
                          and m["provider"] == p.get("provider")), None)
            if model is None:
                raise internal("unknown model")
            level = p.get("thinking_level")
            if level not in model["supportedThinkingLevels"]:
                level = model["defaultThinkingLevel"]
            self.model.update(selectedModel=model["id"], selectedProvider=model["provider"],
                              selectedThinking=level,
                              selectedOpenRouterProvider=p.get("openrouter_provider") or "")
            self.changed("model_selected")
            result = self.model_fields()
            if p.get("compress_immediately"):
                sid = self.session(p)["id"]
                for type_, payload in (
                        ("compaction.started", {"reason": "provider_switch",
                                                "anchor_event_index_before": 0,
                                                "event_count": 1, "context_window_tokens": 1000}),
                        ("compaction.completed", {
                            "compressed": True, "reason": "provider_switch",
                            "estimated_tokens_before": 10, "estimated_tokens_after": 5,
                            "model_context_window": 1000, "target_limit": 800,
                            "high_watermark_limit": 900, "anchor_event_index_before": 0,
                            "anchor_event_index_after": 1})):
                    self.event(type_, dict(payload, session_id=sid))
                result["compression"] = {
                    "requested": True, "applied": True, "reason": "provider_switch",
                    "estimated_tokens_before": 10, "estimated_tokens_after": 5,
                    "model_context_window": 1000, "target_limit": 800,
                    "anchor_event_index_before": 0, "anchor_event_index_after": 1}
            return result
        if method == "model.openrouter.providers":
            if not self.auth["openrouter"]:
                raise internal("no OpenRouter key")
            return {"model_id": self.required(p, "model_id"), "providers": ["anthropic"]}
        if method == "limits.get":
            if not self.auth["openai"] and self.auth["antigravity"] is None:
                raise internal("no OAuth provider connected")
            return {"openai": {"ok": False, "message": "usage unavailable offline"},
                    "antigravity": None}
        if method == "history.list":
            limit = int(p.get("limit") or 100) or 100
            cursor = int(p.get("cursor") or 0)
            page = HISTORY[cursor:cursor + limit]
            nxt = cursor + limit if cursor + limit < len(HISTORY) else None
            return {"total": len(HISTORY), "cursor": cursor, "limit": limit,
                    "sessions": page, "next_cursor": nxt}
        if method == "history.get":
            if p.get("last"):
                return dict(HISTORY[0], messages=[{"role": "user", "text": "hi"}])
            for h in HISTORY:
                if h["id"] == p.get("id") or h["rolloutPath"] == p.get("rollout_path"):
                    return dict(h, messages=[])
            raise internal("not found")
        if method == "history.clear_session":
            return {"session_id": self.session(p)["id"], "cleared": True}
        if method == "skills.list":
            return {"directories": [], "errors": [], "skills": []}
        if method == "tools.list":
            return {"tools": [{"name": "shell", "description": "runs a command"}]}
        if method == "debug.set":
            if not isinstance(p.get("super_debug"), bool):
                raise invalid("super_debug")
            self.debug = p["super_debug"]
            return {"super_debug": self.debug}
        raise RpcFailure(-32601, "Method not found", {"reason": "method_not_found",
                                                      "method": method})

    def handshake_result(self):
        return {"protocol_version": PROTOCOL_VERSION, "server_name": "loaf",
                "capabilities": {"events": True, "command_execute": True,
                                 "multi_session": True, "image_inputs": ["path", "data_url"]},
                "methods": METHODS}

    def model_fields(self):
        return {"selected_model": self.model["selectedModel"],
                "selected_provider": self.model["selectedProvider"],
                "selected_thinking": self.model["selectedThinking"],
                "selected_openrouter_provider": self.model["selectedOpenRouterProvider"]}

    # ---- input ----------------------------------------------------------------------------
    def handle_line(self, line):
        try:
            msg = json.loads(line)
        except ValueError:
            return self.send({"jsonrpc": "2.0", "id": None, "error": {
                "code": -32700, "message": "Parse error", "data": {"reason": "parse_error"}}})
        if not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0" or "method" not in msg:
            return self.send({"jsonrpc": "2.0", "id": None, "error": {
                "code": -32600, "message": "Invalid Request",
                "data": {"reason": "invalid_request"}}})
        if "id" not in msg:
            return None  # client notifications are ignored
        try:
            result = self.call(msg["method"], msg.get("params"))
            self.send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
        except RpcFailure as e:
            self.send({"jsonrpc": "2.0", "id": msg["id"],
                       "error": {"code": e.code, "message": e.message, "data": e.data}})

    def serve(self):
        for line in sys.stdin:
            line = line.strip()
            if line and not self.stopped:
                self.handle_line(line)
        return 0


if __name__ == "__main__":
    sys.exit(Server().serve())
