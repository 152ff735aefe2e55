#!/usr/bin/env python3
"""An independent Codex metadata plugin (protocol 1.0), written from the spec with Python's
standard library only: a tiny catalog behind metadata/search, metadata/get and metadata/match,
credentials from API_KEY or initialize's params.credentials (spec 2.2). It logs on stderr and
exits 0 after answering shutdown or at stdin EOF. codex-metadata-host drives it end to end.
"""
import json
import os
import sys

CATALOG = [
    {"externalId": "py-1", "title": "Blue Harbor", "year": 2011, "status": "completed"},
    {"externalId": "py-2", "title": "Harbor Lights", "year": 2015, "status": "ongoing"},
    {"externalId": "py-3", "title": "Quiet Mountain", "year": 2001, "status": "hiatus"},
]
state = {"initialized": False, "api_key": None}


def log(text):
    sys.stderr.write(f"py-catalog: {text}\n")
    sys.stderr.flush()


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


class Failure(Exception):
    def __init__(self, code, message, data=None):
        super().__init__(message)
        self.code, self.message, self.data = code, message, data


def words(text):
    return [w for w in "".join(c.lower() if c.isalnum() else " " for c in text).split() if w]


def hits(query):
    wanted = words(query)
    out = []
    for s in CATALOG:
        have = words(s["title"])
        if wanted and all(w in have for w in wanted):
            out.append(dict(s, score=100.0 if wanted == have else 80.0 * len(wanted) / len(have)))
    return sorted(out, key=lambda s: -s["score"])


def params_object(params, method):
    if params is None:
        return {}
    if not isinstance(params, dict):
        raise Failure(-32602, f"{method}: params must be an object")
    return params


def ready():
    if not state["initialized"]:
        raise Failure(-32600, "initialize first")
    if not state["api_key"]:
        raise Failure(-32005, "missing credential api_key")


def initialize(p):
    creds = p.get("credentials") or {}
    state["api_key"] = creds.get("api_key") or os.environ.get("API_KEY")
    state["initialized"] = True
    log("initialized with " + ("a credential" if state["api_key"] else "no credential"))
    return {"name": "py-catalog", "displayName": "Python Catalog", "version": "0.1.0",
            "description": "Stranger plugin", "author": "interop tests", "protocolVersion": "1.0",
            "capabilities": {"seriesMetadataProvider": True},
            "requiredCredentials": [{"key": "api_key", "label": "API key", "required": True,
                                     "sensitive": True}]}


def search(p):
    ready()
    query, limit = p.get("query"), p.get("limit", 10)
    if not isinstance(query, str) or not query.strip():
        raise Failure(-32602, "query must be a non-empty string")
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise Failure(-32602, "limit must be an integer >= 1")
    found = hits(query)
    return {"results": found[:limit], "totalResults": len(found), "page": 1,
            "hasNextPage": len(found) > limit}


def get(p):
    ready()
    for s in CATALOG:
        if s["externalId"] == p.get("externalId"):
            return {"externalId": s["externalId"], "titles": [{"value": s["title"], "primary": True}],
                    "year": s["year"], "status": s["status"], "rating": 7.5}
    if not isinstance(p.get("externalId"), str):
        raise Failure(-32602, "externalId must be a string")
    raise Failure(-32002, "unknown externalId")


def match(p):
    ready()
    if not isinstance(p.get("title"), str):
        raise Failure(-32602, "title must be a string")
    found = hits(p["title"])
    if not found or found[0]["score"] < 60:
        return {"match": None, "confidence": 0}
    return {"match": found[0], "confidence": found[0]["score"], "alternatives": found[1:]}


METHODS = {"initialize": initialize, "metadata/search": search, "metadata/get": get,
           "metadata/match": match}


def serve():
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError:
            send({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
            continue
        rid = message.get("id") if isinstance(message, dict) else None
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0" or \
                not isinstance(message.get("method"), str):
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32600, "message": "Invalid Request"}})
            continue
        method = message["method"]
        try:
            if method == "ping":
                result = "pong"
            elif method == "shutdown":
                send({"jsonrpc": "2.0", "id": rid, "result": None})
                log("shutdown")
                return
            elif method in METHODS:
                result = METHODS[method](params_object(message.get("params"), method))
            else:
                raise Failure(-32601, f"Method not found: {method}")
            send({"jsonrpc": "2.0", "id": rid, "result": result})
        except Failure as f:
            error = {"code": f.code, "message": f.message}
            if f.data is not None:
                error["data"] = f.data
            send({"jsonrpc": "2.0", "id": rid, "error": error})


serve()
sys.exit(0)
