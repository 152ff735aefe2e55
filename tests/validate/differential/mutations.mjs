// The corpus builder of the differential tests: valid and invalid payloads for every message of
// one protocol folder of schema/, from its example fixtures and seeded systematic mutations.
//
//   import { buildCorpus } from "./mutations.mjs";
//   const { files, protocol, items, perMessage } = buildCorpus({ schemaDir, examplesDir, ... });
//
// For every message of <schemaDir>/protocol.json (x-messages) the corpus holds the example
// envelopes and results of its examples file, the invalid examples, and systematic mutations of
// the valid ones, derived from the schema that applies at each point of the payload: each
// required member dropped, each member given a value of every other JSON type (null included),
// enum and const values swapped for near misses, strings at and past their length bounds,
// strings that break or stretch a pattern (long ones too), format edge cases, numbers at and
// past their bounds, arrays at their size bounds and with repeated items, extra members, deeply
// nested values where any value goes. Mutations are seeded: the corpus is the same on every run.
//
// Each item is {message (the method), kind ("envelope" | "result"), when (for the result of a
// request whose params carry that member, x-result-when; absent otherwise), schema (the schema
// location relative to schemaDir: "messages/ping.json" or
// "messages/ping.json#/definitions/PingResult"),
// mutation (what was done, "example envelope #1" for an example), instance}; no verdicts: the
// caller judges. Users: corpus.mjs (StreamNook against ajv), mcp_sdk.mjs (MCP against the
// TypeScript SDK).

import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, posix, relative, sep } from "node:path";

// ----------------------------------------------------------------------------- schemas
function walkJson(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walkJson(p));
    else if (name.endsWith(".json")) out.push(p);
  }
  return out;
}

// The schema files of one protocol folder, by path relative to it ("messages/ping.json").
export function loadSchemas(schemaDir) {
  const files = new Map();
  for (const abs of walkJson(schemaDir)) {
    files.set(relative(schemaDir, abs).split(sep).join("/"), JSON.parse(readFileSync(abs, "utf8")));
  }
  return files;
}

// The protocol being mutated (set by buildCorpus): its files, and the seeded random source.
let files = new Map();
let random = () => 0;

// A schema node and the file it is in (for its $refs).
function pointerGet(doc, pointer) {
  let node = doc;
  for (const raw of pointer.split("/").slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    node = node?.[key];
  }
  return node;
}
function deref(node, file) {
  const seen = new Set();
  while (node && typeof node === "object" && typeof node.$ref === "string" && !seen.has(node)) {
    seen.add(node);
    const [filePart, pointer = ""] = node.$ref.split("#");
    if (filePart) file = posix.normalize(posix.join(posix.dirname(file), filePart));
    node = pointerGet(files.get(file), pointer);
  }
  return { node, file };
}
// Every schema that applies to one value: the node, and each branch of its combinators.
function applicable(node, file, out = [], depth = 0) {
  ({ node, file } = deref(node, file));
  if (!node || typeof node !== "object" || depth > 20) return out;
  out.push({ node, file });
  for (const k of ["allOf", "anyOf", "oneOf"]) {
    for (const branch of node[k] ?? []) applicable(branch, file, out, depth + 1);
  }
  for (const k of ["if", "then", "else"]) if (node[k]) applicable(node[k], file, out, depth + 1);
  return out;
}
function childSchemas(schemas, key, isIndex) {
  const out = [];
  for (const { node, file } of schemas) {
    if (isIndex) {
      if (Array.isArray(node.items)) {
        if (key < node.items.length) applicable(node.items[key], file, out);
        else if (node.additionalItems !== undefined) applicable(node.additionalItems, file, out);
      } else if (node.items !== undefined) applicable(node.items, file, out);
      continue;
    }
    let matched = false;
    if (node.properties && key in node.properties) {
      matched = true;
      applicable(node.properties[key], file, out);
    }
    for (const [p, s] of Object.entries(node.patternProperties ?? {})) {
      if (new RegExp(p, "u").test(key)) {
        matched = true;
        applicable(s, file, out);
      }
    }
    if (!matched && node.additionalProperties !== undefined) applicable(node.additionalProperties, file, out);
  }
  return out;
}

// ----------------------------------------------------------------------------- values
function mulberry32(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = (list) => list[Math.floor(random() * list.length)];

const clone = (v) => structuredClone(v);
function setAt(root, path, value) {
  if (!path.length) return value;
  const out = clone(root);
  let node = out;
  for (const k of path.slice(0, -1)) node = node[k];
  node[path[path.length - 1]] = value;
  return out;
}
function editAt(root, path, edit) {
  const out = clone(root);
  let node = out;
  for (const k of path) node = node[k];
  edit(node);
  return out;
}

// A plausible value for a member of these schemas (a member the example leaves out).
function sample(schemas) {
  for (const { node } of schemas) {
    if ("const" in node) return clone(node.const);
    if (Array.isArray(node.enum) && node.enum.length) return clone(node.enum[0]);
    if ("default" in node) return clone(node.default);
    if (Array.isArray(node.examples) && node.examples.length) return clone(node.examples[0]);
  }
  const type = schemas.map(({ node }) => node.type).find((t) => t !== undefined);
  switch (Array.isArray(type) ? type[0] : type) {
    case "string": return "sample";
    case "integer": return 7;
    case "number": return 2.5;
    case "boolean": return true;
    case "array": return [];
    case "object": return {};
    case "null": return null;
    default: return "sample";
  }
}

const OTHER_TYPES = [null, true, 0, 2.5, "text", [], {}]; // one of each JSON type (two numbers)

function nested(depth) {
  let v = "leaf";
  for (let i = 0; i < depth; i++) v = i % 2 ? { ["level" + i]: v, n: i } : [v, i, null];
  return v;
}

// Leap years, leap seconds, zones, separators: as RFC 3339 and ajv-formats' full mode read them.
const DATE_TIMES = [
  "2024-05-01T12:00:00Z", "2024-05-01t12:00:00z", "2024-05-01 12:00:00Z", "2024-05-01T12:00:00.123456Z",
  "2024-05-01T12:00:00+02:00", "2024-05-01T12:00:00-0530", "2024-05-01T12:00:00+02", "2024-05-01T12:00:00",
  "2024-02-29T00:00:00Z", "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2000-02-29T00:00:00Z",
  "2024-04-31T00:00:00Z", "2024-13-01T00:00:00Z", "2024-00-10T00:00:00Z", "2024-05-00T00:00:00Z",
  "2024-05-01T24:00:00Z", "2024-05-01T23:60:00Z", "2016-12-31T23:59:60Z", "2016-12-31T23:59:60.5Z",
  "2016-12-31T22:59:60Z", "2016-12-31T15:59:60-08:00", "2016-12-31T23:59:61Z", "2024-05-01T12:00:00+24:00",
  "2024-05-01T12:00:00+02:60", "2024-05-01\t12:00:00Z", "2024-05-01\n12:00:00Z", "2024-05-01\u00a012:00:00Z",
  "2024-05-01T12:00:00.Z", "2024-05-01T1:00:00Z", "24-05-01T12:00:00Z", "2024-5-1T12:00:00Z",
  "2024-05-01T12:00:00ZZ", "2024-05-01TT12:00:00Z", " 2024-05-01T12:00:00Z", "2024-05-01T12:00:00Z ",
  "2024-05-01T12:00:00Z\n", "２０２４-05-01T12:00:00Z", "2024-05-01T12:00:00\u2028", "",
  "now", "2024-05-01", "12:00:00Z", "2024-05-01T12:00",
];
const URIS = [
  "https://example.com", "https://example.com/a/b?c=d#e", "http://user:pw@host:8080/p", "urn:isbn:0451450523",
  "mailto:a@example.com", "file:///tmp/x", "https://[::1]:80/", "https://[v7.abc]/", "https://192.168.0.1/",
  "https://exa mple.com", "https://example.com/%zz", "https://example.com/%41", "//example.com/path",
  "/relative/path", "relative", "example.com", "http:", "http:/", "http://", "1http://x", "h+t.t-p://x",
  "https://example.com/ä", "https://example.com/\"", "https://example.com/<x>", "https://example.com/{x}",
  "https://example.com#a#b", "https://example.com/?q=a b", "https://ex%41mple.com/", "https://example.com:port/",
  "https://example.com/\\x", "a:b", "a:/b", "a://b/c", "tel:+1-816-555-1212", "", ":", "#frag",
];
const LONG = 20000; // characters, for the "long string against a pattern" items

// Strings near a pattern: the example's own value broken and stretched in a few ways.
function patternProbes(value, pattern) {
  const base = typeof value === "string" ? value : "abc";
  const out = ["", " ", base + " ", " " + base, base.toUpperCase(), base + "\n", base + "\u0000",
    base.replace(/[a-z]/, "_"), base.replace(/./, "-"), base + "/..", "../" + base, base + "é", "日本",
    base.repeat(50), "a".repeat(LONG), base + "a".repeat(LONG), "a".repeat(LONG) + base,
    (base + "\u2028").repeat(3), "C:\\x", "\\\\server\\share", "a.b", "a..b", "a.b.c", "A.b",
    "1.2.3", "1.2.3-rc.1+build.5", "01.2.3", "1.2", "1.2.3-", "https://x.y/z", "http://x.y", "https://"];
  if (/\{1,40\}/.test(pattern)) out.push("a".repeat(40), "a".repeat(41), "abc_09");
  return out;
}

function lengthProbes(value, min, max) {
  const out = [];
  const ch = typeof value === "string" && value.length ? value[0] : "a";
  for (const n of [min, max]) {
    if (n === undefined) continue;
    for (const k of [n - 1, n, n + 1]) {
      if (k < 0) continue;
      out.push(ch.repeat(k), "é".repeat(k), "😀".repeat(k)); // code points, not bytes or UTF-16 units
    }
  }
  return out;
}

function numberProbes(node) {
  const out = [0, -0.5, 1, 1e15, -1e15, 2 ** 53, 2 ** 63, 1e300, -1e300, 0.1];
  for (const k of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]) {
    const b = node[k];
    if (typeof b === "number") out.push(b - 1, b - 0.5, b, b + 0.5, b + 1, b - 1e-9, b + 1e-9);
  }
  if (typeof node.multipleOf === "number") out.push(node.multipleOf * 3, node.multipleOf * 3 + 0.5);
  return out;
}

// ----------------------------------------------------------------------------- mutations
// Mutations of `root` at `path`, whose value is `value` and whose schemas are `schemas`.
// Probes of one keyword value (a pattern, a format) are the same wherever it recurs (the key
// of every panel field): they are tried at the first few places of each message only.
let probed = new Map();
let shapesSeen = new Map(); // array path ("params/schema/sections/*/fields") -> item shapes
function firstPlaces(key) {
  const n = (probed.get(key) ?? 0) + 1;
  probed.set(key, n);
  return n <= 3;
}

function mutate(root, path, value, schemas, emit) {
  const at = "/" + path.join("/");
  const replace = (what, v) => emit(`${at}: ${what}`, setAt(root, path, v));
  if (path.length) {
    for (const v of OTHER_TYPES) if (typeof v !== typeof value || Array.isArray(v) !== Array.isArray(value) || v === null) replace(`set to ${JSON.stringify(v)}`, v);
  }
  const constrained = schemas.some(({ node }) => Object.keys(node).some((k) => !/^(\$|x-|title|description|default|examples|definitions)/.test(k)));
  if (!constrained && path.length) {
    replace("deep nesting (any value)", nested(40));
    replace("mixed value (any value)", { a: [1, 2.5, "x", null, true, { b: [] }], "": {}, "~/": nested(6) });
  }
  for (const { node } of schemas) {
    if (Array.isArray(node.enum)) {
      for (const e of node.enum) replace(`enum value ${JSON.stringify(e)}`, e);
      replace("value not in enum", "zz_not_listed");
      replace("enum value in upper case", String(node.enum[0]).toUpperCase());
      replace("number where the enum lists strings", 1);
    }
    if ("const" in node) {
      replace("const changed", typeof node.const === "string" ? node.const + "x" : 12345);
      replace("const as a number", 2);
      if (typeof node.const === "string") replace("const in upper case", node.const.toUpperCase());
    }
    if (typeof value === "string" || node.type === "string") {
      if (typeof node.pattern === "string" && firstPlaces(`pattern ${node.pattern}`)) {
        for (const s of patternProbes(value, node.pattern)) replace(`pattern probe (${s.length} chars)`, s);
      }
      if ((node.minLength !== undefined || node.maxLength !== undefined) &&
          firstPlaces(`length ${node.minLength} ${node.maxLength}`)) {
        for (const s of lengthProbes(value, node.minLength, node.maxLength)) replace(`length probe (${s.length} UTF-16 units)`, s);
      }
      if (node.format === "date-time" && firstPlaces("date-time")) for (const s of DATE_TIMES) replace(`date-time ${JSON.stringify(s)}`, s);
      if (node.format === "uri" && firstPlaces("uri")) for (const s of URIS) replace(`uri ${JSON.stringify(s)}`, s);
    }
    if (typeof value === "number" || node.type === "integer" || node.type === "number") {
      for (const n of numberProbes(node)) replace(`number ${n}`, n);
    }
    if (Array.isArray(value)) {
      if (value.length) {
        emit(`${at}: first item repeated`, editAt(root, path, (a) => a.push(clone(a[0]))));
        emit(`${at}: last item dropped`, editAt(root, path, (a) => a.pop()));
        emit(`${at}: items doubled`, editAt(root, path, (a) => a.push(...clone(a))));
      }
      if (node.items && !Array.isArray(node.items)) {
        emit(`${at}: sample item added`, editAt(root, path, (a) => a.push(sample(applicable(node.items, schemas[0].file)))));
      }
      for (const k of ["minItems", "maxItems"]) {
        const n = node[k];
        if (typeof n !== "number" || !value.length) continue;
        for (const size of [n - 1, n, n + 1]) {
          if (size < 0 || size > 200) continue;
          const items = Array.from({ length: size }, (_, i) => clone(value[i % value.length]));
          replace(`${size} items (${k} ${n})`, items);
        }
      }
      replace("empty array", []);
    }
    if (value && typeof value === "object" && !Array.isArray(value)) {
      for (const name of node.required ?? []) {
        if (name in value) emit(`${at}: required "${name}" dropped`, editAt(root, path, (o) => delete o[name]));
      }
      for (const [name, s] of Object.entries(node.properties ?? {})) {
        if (!(name in value)) {
          emit(`${at}: optional "${name}" added`, editAt(root, path, (o) => (o[name] = sample(applicable(s, schemas[0].file)))));
        }
      }
      for (const k of ["minProperties", "maxProperties"]) {
        if (typeof node[k] === "number") {
          emit(`${at}: all members dropped (${k})`, setAt(root, path, {}));
          emit(`${at}: ${node[k] + 1} extra members (${k})`, editAt(root, path, (o) => {
            for (let i = 0; i <= node[k]; i++) o[`zz_${i}`] = i;
          }));
        }
      }
    }
  }
  if (value && typeof value === "object" && !Array.isArray(value)) {
    for (const name of Object.keys(value)) {
      emit(`${at}: member "${name}" dropped`, editAt(root, path, (o) => delete o[name]));
    }
    emit(`${at}: extra member`, editAt(root, path, (o) => (o.zz_extra = pick(OTHER_TYPES))));
    emit(`${at}: extra member "__proto__"-like name`, editAt(root, path, (o) => (o["constructor"] = 1)));
    emit(`${at}: empty object`, setAt(root, path, {}));
  }
}

function walk(root, path, value, schemas, emit) {
  mutate(root, path, value, schemas, emit);
  if (Array.isArray(value)) {
    // Long arrays of alike items (a panel's fields) would multiply the corpus, not its reach:
    // the first two items, then only items of a shape this message has not shown yet there.
    const where = path.map((k) => (typeof k === "number" ? "*" : k)).join("/");
    if (!shapesSeen.has(where)) shapesSeen.set(where, new Set());
    const shapes = shapesSeen.get(where);
    value.forEach((item, i) => {
      const shape = item && typeof item === "object" && !Array.isArray(item)
        ? Object.keys(item).sort().join(",") + "|" + JSON.stringify(item.type ?? item.kind ?? null)
        : typeof item;
      if (i >= 2 && shapes.has(shape)) return;
      shapes.add(shape);
      walk(root, [...path, i], item, childSchemas(schemas, i, true), emit);
    });
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) walk(root, [...path, k], v, childSchemas(schemas, k, false), emit);
  }
}

// ----------------------------------------------------------------------------- corpus
// schemaDir: the protocol folder (holding protocol.json); examplesDir: its examples.
// exampleFile(method, file): the examples file name of a message (file: "messages/x.json").
// invalidKeys: the members of an examples file listing invalid payloads ({"envelope": ...} or
// {"result": ...} entries, each key read in turn).
export function buildCorpus({ schemaDir, examplesDir, exampleFile, invalidKeys = ["invalid"], seed }) {
  files = loadSchemas(schemaDir);
  random = mulberry32(seed);
  const protocol = files.get("protocol.json");
  const items = [];
  const perMessage = [];
  for (const entry of protocol["x-messages"]) {
    const file = posix.normalize(entry);
    const message = files.get(file);
    const method = message.properties.method.const;
    const example = JSON.parse(readFileSync(join(examplesDir, exampleFile(method, file)), "utf8"));
    const invalid = invalidKeys.flatMap((k) => example[k] ?? []);
    const resultRef = message["x-result"]?.$ref;
    const targets = [{ kind: "envelope", schema: file, valid: example.envelopes ?? [], invalid: invalid.filter((c) => "envelope" in c).map((c) => c.envelope) }];
    if (resultRef) {
      targets.push({ kind: "result", schema: file + resultRef, ref: resultRef, valid: example.results ?? [], invalid: invalid.filter((c) => "result" in c).map((c) => c.result) });
    }
    // x-result-when: the results of requests whose params carry a member (`when`), from the
    // examples file's {"results_when": {"<member>": [...]}}.
    for (const when of Object.keys(message["x-result-when"] ?? {})) {
      const ref = `#/x-result-when/${when}`;
      targets.push({ kind: "result", when, schema: file + ref, ref, valid: example.results_when?.[when] ?? [], invalid: [] });
    }
    const seen = new Set();
    let count = 0;
    probed = new Map();
    shapesSeen = new Map();
    for (const t of targets) {
      const add = (mutation, instance) => {
        const key = JSON.stringify(instance);
        if (seen.has(t.schema + key)) return;
        seen.add(t.schema + key);
        count++;
        items.push({ message: method, kind: t.kind, ...(t.when ? { when: t.when } : {}), schema: t.schema, mutation, instance });
      };
      const name = t.when ? `${t.kind} when ${t.when}` : t.kind;
      t.valid.forEach((v, i) => add(`example ${name} #${i + 1}`, v));
      t.invalid.forEach((v, i) => add(`invalid example #${i + 1}`, v));
      const schemas = applicable(t.kind === "envelope" ? message : { $ref: t.ref }, file);
      t.valid.forEach((v, i) => walk(v, [], v, schemas, (m, inst) => add(`${name} #${i + 1} ${m}`, inst)));
    }
    perMessage.push({ method, file, count });
  }
  return { files, protocol, items, perMessage };
}
