#!/usr/bin/env python3
"""Seed corpora and the dictionary of the fuzz targets, made from the schema and the fixtures.

    make_corpus.py <source dir> <output dir>

Writes <output>/corpus/<target>/<n> for each target (framing, json_reader, endpoint_frame,
decoders, mcp_decoders, manifest, uri_template) and <output>/streamnook.dict: every method name, member name, enum and
const value of schema/, the JSON-RPC envelope's words, framing and TOML tokens.
"""
import json
import os
import sys


def walk(value, visit):
    visit(value)
    if isinstance(value, dict):
        for item in value.values():
            walk(item, visit)
    elif isinstance(value, list):
        for item in value:
            walk(item, visit)


def load_schema(root):
    schema = {}
    for folder, _, files in os.walk(os.path.join(root, "schema")):
        for name in files:
            if name.endswith(".json"):
                path = os.path.join(folder, name)
                with open(path) as f:
                    schema[os.path.relpath(path, os.path.join(root, "schema"))] = json.load(f)
    return schema


def message_order(schema, folder=""):
    """The methods in the order of the generated dispatch tables of the protocol in
    schema/<folder>: the first role's messages to the second, then the second's to the first,
    each in x-messages order (a message both sides send is in both)."""
    protocol = schema[folder + "protocol.json"]
    messages = [schema[folder + m] for m in protocol["x-messages"]]
    roles = protocol["x-roles"]
    order = []
    for direction in ("%s_to_%s" % (roles[0], roles[1]), "%s_to_%s" % (roles[1], roles[0])):
        for m in messages:
            routes = m["x-direction"] if isinstance(m["x-direction"], list) else [m["x-direction"]]
            if direction in routes:
                order.append(m["properties"]["method"]["const"])
    return order


def decoder_seeds(fixtures, order):
    """A decoders target's seeds: each fixture's params and results, behind the byte that picks
    its message (the first place the method has in `order`)."""
    seeds = []
    selectors = {method.replace("/", "_"): bytes([order.index(method)]) for method in order}
    for name in sorted(os.listdir(fixtures)):
        if not name.endswith(".json") or name[:-len(".json")] not in selectors:
            continue
        selector = selectors[name[:-len(".json")]]
        with open(os.path.join(fixtures, name)) as f:
            fixture = json.load(f)
        envelopes = fixture.get("envelopes", []) + [
            i["envelope"] for i in fixture.get("invalid", []) if "envelope" in i]
        for envelope in envelopes:
            if isinstance(envelope, dict) and "params" in envelope:
                seeds.append(selector + json.dumps(envelope["params"]).encode())
        for result in fixture.get("results", []) + [
                i["result"] for i in fixture.get("invalid_results", []) if "result" in i]:
            seeds.append(selector + json.dumps(result).encode())
    return seeds


def dictionary(schema):
    words = {"jsonrpc", "2.0", "method", "params", "id", "result", "error", "code", "message",
             "data"}

    def visit(node):
        if not isinstance(node, dict):
            return
        for key in ("properties", "definitions"):
            if isinstance(node.get(key), dict):
                words.update(node[key].keys())
        for key in ("enum", "const"):
            value = node.get(key)
            for v in value if isinstance(value, list) else [value]:
                if isinstance(v, str):
                    words.add(v)
        for key in ("x-enum-names",):
            if isinstance(node.get(key), list):
                words.update(v for v in node[key] if isinstance(v, str))
    for document in schema.values():
        walk(document, visit)
    tokens = ['"%s"' % w for w in sorted(words)] + sorted(words)
    tokens += ["{", "}", "[", "]", ":", ",", "true", "false", "null", "\\u0000", "\\ud800",
               "\\udc00", "1e400", "-0", "0.5", "18446744073709551616", "Content-Length: ",
               "\r\n", "\r\n\r\n", "\n", "[runtime]", "[capabilities]", "[contributes]", " = ",
               "'''", '"""', "#", b"\xef\xbb\xbf", b"\xff", b"\xed\xa0\x80"]
    return tokens


def dict_line(token):
    out = ""
    for byte in token if isinstance(token, bytes) else token.encode("utf-8"):
        c = chr(byte)
        if c in '"\\':
            out += "\\" + c
        elif 0x20 <= byte < 0x7F:
            out += c
        else:
            out += "\\x%02X" % byte
    return '"%s"\n' % out


def toml_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    if isinstance(value, str):
        return json.dumps(value)  # TOML basic strings take JSON's escapes for these
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join("%s = %s" % (json.dumps(k), toml_value(v)) for k, v in value.items()) + "}"


def to_toml(manifest):
    lines = ["%s = %s" % (k, toml_value(v)) for k, v in manifest.items() if not isinstance(v, dict)]
    for table, body in manifest.items():
        if isinstance(body, dict):
            lines.append("\n[%s]" % table)
            lines += ["%s = %s" % (k, toml_value(v)) for k, v in body.items()]
    return "\n".join(lines) + "\n"


# A template and a URI, one per expression kind UriTemplate takes (and one it refuses).
URI_TEMPLATE_SEEDS = [
    ("sample://echo/{text}", "sample://echo/h%C3%A9llo%20there"),
    ("db://{table}/{id}{.format}", "db://users/42.json"),
    ("x://{a,b}{c}", "x://1,2abc"),
    ("file:///{+path}{?rev,lines}{&raw}", "file:///src/a%20b.cpp?lines=1-9&rev=3"),
    ("doc://x{/page,part}{#section}", "doc://x/1/2#a/b"),
    ("x://{list*}", "x://a,b"),
]


def main():
    root, out = sys.argv[1], sys.argv[2]
    schema = load_schema(root)
    order = message_order(schema)
    corpora = {t: [] for t in ("framing", "json_reader", "endpoint_frame", "manifest")}
    corpora["decoders"] = decoder_seeds(os.path.join(root, "tests", "fixtures", "examples"), order)
    corpora["mcp_decoders"] = decoder_seeds(
        os.path.join(root, "tests", "fixtures", "mcp_2025_11_25"), message_order(schema, "mcp/"))
    examples = os.path.join(root, "tests", "fixtures", "examples")
    for name in sorted(os.listdir(examples)):
        path = os.path.join(examples, name)
        if not name.endswith(".json"):
            continue
        with open(path) as f:
            fixture = json.load(f)
        if name == "manifest.json":
            for manifest in fixture.get("valid", []):
                corpora["manifest"].append(to_toml(manifest).encode())
            for bad in fixture.get("invalid", []):
                if isinstance(bad.get("manifest"), dict):
                    corpora["manifest"].append(to_toml(bad["manifest"]).encode())
            continue
        envelopes = fixture.get("envelopes", []) + [
            i["envelope"] for i in fixture.get("invalid", []) if "envelope" in i]
        for envelope in envelopes:
            body = json.dumps(envelope).encode()
            corpora["endpoint_frame"].append(body)
            corpora["json_reader"].append(body)
            corpora["framing"].append(b"\0" + b"Content-Length: %d\r\n\r\n" % len(body) + body)
            corpora["framing"].append(b"\x43" + body + b"\n")
    with open(os.path.join(root, "examples", "live_alerts", "plugin.toml"), "rb") as f:
        corpora["manifest"].append(f.read())
    corpora["uri_template"] = [(t + "\n" + u).encode() for t, u in URI_TEMPLATE_SEEDS]
    for target, seeds in corpora.items():
        folder = os.path.join(out, "corpus", target)
        os.makedirs(folder, exist_ok=True)
        for i, seed in enumerate(seeds):
            with open(os.path.join(folder, "seed-%04d" % i), "wb") as f:
                f.write(seed)
    with open(os.path.join(out, "streamnook.dict"), "w") as f:
        f.writelines(dict_line(t) for t in dictionary(schema))


if __name__ == "__main__":
    main()
