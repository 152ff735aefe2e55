#!/usr/bin/env node
// Checks schema/ (StreamNook plugin protocol v1) with ajv, the reference JSON Schema validator.
//
//   node tests/schema/check_schemas.mjs        (from anywhere; paths are relative to this file)
//
// 1. Every *.json under schema/ parses, declares draft-07, is a valid draft-07 schema, and
//    compiles with ajv in strict mode (x- annotation keywords registered); every definition
//    is compiled too. Files get ids from their path (file:///schema/messages/ping.json) so
//    relative $refs resolve.
// 2. Every file follows the conventions of schema/README.md (keyword whitelist, titles of
//    inline objects, nullable and union patterns, message file shape and metadata, the
//    protocol.json index and constants).
// 3. The example payloads under tests/fixtures/examples/ validate: every valid example must
//    pass and every invalid example must fail.
//
// Prints one line per check and ends with "N passed, M failed"; exits non-zero on any failure.

import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, posix, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const SCHEMA_DIR = join(ROOT, "schema");
const EXAMPLES_DIR = join(ROOT, "tests", "fixtures", "examples");
const ID_BASE = "file:///schema/";
const DRAFT7 = "http://json-schema.org/draft-07/schema#";

// ----------------------------------------------------------------------------- dependencies
const require = createRequire(join(ROOT, "package.json"));
let Ajv;
let addFormats;
try {
  Ajv = require("ajv");
  addFormats = require("ajv-formats");
} catch (e) {
  console.error(`check_schemas: cannot load ajv / ajv-formats (${e.code ?? e.message}).`);
  console.error(`The Node dev dependencies are not installed: run \`npm ci\` in ${ROOT} first.`);
  process.exit(2);
}
Ajv = Ajv.default ?? Ajv;
addFormats = addFormats.default ?? addFormats;

// ----------------------------------------------------------------------------- reporting
let passed = 0;
let failed = 0;

// Runs one check. fn returns nothing/true on success, or a string (or array of strings)
// describing the failure; a thrown exception is a failure too.
function check(name, fn) {
  let problem;
  try {
    const r = fn();
    if (Array.isArray(r)) problem = r.length ? r.join("; ") : undefined;
    else if (typeof r === "string") problem = r;
  } catch (e) {
    problem = e.message;
  }
  if (problem) {
    failed++;
    console.log(`FAIL ${name}: ${problem}`);
  } else {
    passed++;
    console.log(`ok   ${name}`);
  }
  return !problem;
}

// Formats ajv errors, most specific first: inside a union the deepest error names the real
// problem, not the first member that did not match.
function errorsText(errors, max = 3) {
  if (!errors || !errors.length) return "(no error reported)";
  // Errors of tagged-union members whose tag did not match only hide the real problem.
  const tagMismatch = (e) => e.keyword === "const" && DISCRIMINATORS.has(e.instancePath.split("/").pop());
  const wrongBranches = errors
    .filter(tagMismatch)
    .map((e) => e.schemaPath.replace(/properties\/[^/]+\/const$/, ""))
    .filter((b) => b.length > 2); // "#/": a member compiled on its own, cannot tell its errors apart
  const rest = errors.filter((e) => !wrongBranches.some((b) => e.schemaPath.startsWith(b)));
  if (rest.some((e) => e.keyword !== "oneOf" && !tagMismatch(e))) errors = rest;
  const depth = (e) => (e.instancePath.match(/\//g) ?? []).length;
  const summary = (e) => (e.keyword === "oneOf" || e.keyword === "anyOf" ? 2 : tagMismatch(e) ? 1 : 0);
  errors = errors
    .map((e, i) => ({ e, i }))
    .sort((a, b) => summary(a.e) - summary(b.e) || depth(b.e) - depth(a.e) || a.i - b.i)
    .map(({ e }) => e);
  const parts = errors.slice(0, max).map((e) => {
    const extra = e.params && e.params.allowedValue !== undefined ? ` ${JSON.stringify(e.params.allowedValue)}` : "";
    return `${e.instancePath || "/"} ${e.message}${extra}`;
  });
  return parts.join(" | ") + (errors.length > max ? ` | (+${errors.length - max} more)` : "");
}

// ----------------------------------------------------------------------------- loading
// A subfolder with a protocol.json of its own is another protocol (schema/<protocol>/), which
// check_protocol.mjs checks.
function walkJson(dir, top = true) {
  const out = [];
  if (!top && existsSync(join(dir, "protocol.json"))) return out;
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walkJson(p, false));
    else if (name.endsWith(".json")) out.push(p);
  }
  return out;
}

const toPosix = (p) => p.split(sep).join("/");

if (!existsSync(SCHEMA_DIR)) {
  console.error(`check_schemas: no schema directory at ${SCHEMA_DIR}`);
  process.exit(2);
}

const files = new Map(); // rel path ("messages/ping.json") -> parsed schema
for (const abs of walkJson(SCHEMA_DIR)) {
  const rel = toPosix(relative(SCHEMA_DIR, abs));
  check(`schema/${rel}: parses as JSON`, () => {
    files.set(rel, JSON.parse(readFileSync(abs, "utf8")));
  });
}

// ----------------------------------------------------------------------------- ajv
const X_KEYWORDS = [
  "x-namespace", "x-module", "x-roles", "x-messages", "x-types", "x-error-codes", "x-default-deadline",
  "x-kind", "x-direction", "x-gate", "x-errors", "x-deadline", "x-result", "x-profile",
  "x-unit", "x-discriminator", "x-enum-names", "x-enum-descriptions", "x-error-messages",
];
const ajv = new Ajv({ strict: true, allowUnionTypes: true, allErrors: true });
addFormats(ajv);
ajv.addVocabulary(X_KEYWORDS);

const idOf = (rel) => ID_BASE + rel;
for (const [rel, schema] of files) {
  // Not validated here: an invalid file fails its "valid draft-07 schema" check below instead.
  try {
    ajv.addSchema(schema, idOf(rel), undefined, false);
  } catch (e) {
    check(`schema/${rel}: can be registered with ajv`, () => e.message);
  }
}

// x-discriminator property names in use (to explain tagged-union failures).
const DISCRIMINATORS = new Set();
(function collect(node) {
  if (Array.isArray(node)) node.forEach(collect);
  else if (node && typeof node === "object") {
    if (typeof node["x-discriminator"] === "string") DISCRIMINATORS.add(node["x-discriminator"]);
    Object.values(node).forEach(collect);
  }
})([...files.values()]);

// Compiles the schema at an absolute ref ("file:///schema/x.json#/definitions/Y").
const compiled = new Map();
function validatorFor(ref) {
  if (!compiled.has(ref)) {
    const v = ajv.getSchema(ref);
    if (!v) throw new Error(`cannot resolve ${ref}`);
    compiled.set(ref, v);
  }
  return compiled.get(ref);
}

for (const [rel, schema] of files) {
  check(`schema/${rel}: declares draft-07`, () =>
    schema.$schema === DRAFT7 ? undefined : `$schema is ${JSON.stringify(schema.$schema)}`);
  check(`schema/${rel}: valid draft-07 schema`, () =>
    ajv.validateSchema(schema) ? undefined : ajv.errorsText(ajv.errors));
  check(`schema/${rel}: compiles in strict mode (root and every definition)`, () => {
    const problems = [];
    const refs = [idOf(rel)];
    for (const name of Object.keys(schema.definitions ?? {})) refs.push(`${idOf(rel)}#/definitions/${name}`);
    for (const ref of refs) {
      try {
        validatorFor(ref);
      } catch (e) {
        problems.push(`${ref}: ${e.message}`);
      }
    }
    return problems;
  });
}

// ----------------------------------------------------------------------------- ref resolution
function pointerGet(node, pointer) {
  if (!pointer) return node;
  for (const raw of pointer.replace(/^\//, "").split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === undefined || node === null) return undefined;
    node = node[key];
  }
  return node;
}

// Resolves a $ref written in file `rel`; returns {rel, node} of the target.
function resolveRef(rel, ref) {
  const [path, fragment = ""] = ref.split("#");
  const targetRel = path ? posix.normalize(posix.join(posix.dirname(rel), path)) : rel;
  const doc = files.get(targetRel);
  if (!doc) throw new Error(`$ref ${ref} in ${rel}: no file schema/${targetRel}`);
  const node = pointerGet(doc, fragment);
  if (node === undefined) throw new Error(`$ref ${ref} in ${rel}: no ${fragment} in schema/${targetRel}`);
  return { rel: targetRel, node };
}

// Follows $refs until a schema without $ref.
function deref(rel, node) {
  for (let i = 0; node && node.$ref && i < 20; i++) ({ rel, node } = resolveRef(rel, node.$ref));
  return { rel, node };
}

// ----------------------------------------------------------------------------- conventions
const WHITELIST = new Set([
  "$schema", "$ref", "$comment", "title", "description", "examples", "default", "definitions",
  "type", "properties", "required", "additionalProperties", "items", "enum", "const", "oneOf",
  "anyOf", "format", "pattern", "minLength", "maxLength", "minimum", "maximum", "minItems",
  "maxItems", "uniqueItems", "not", ...X_KEYWORDS,
]);
const JSON_TYPES = new Set(["null", "boolean", "integer", "number", "string", "array", "object"]);

function jsonTypeOf(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (Number.isInteger(v)) return "integer";
  return typeof v;
}

function typeAccepts(type, value) {
  const t = jsonTypeOf(value);
  const types = Array.isArray(type) ? type : [type];
  return types.includes(t) || (t === "integer" && types.includes("number"));
}

// Lints one schema file against schema/README.md; returns a list of problems.
function lintFile(rel, doc) {
  const problems = [];
  const bad = (ptr, msg) => problems.push(`${ptr || "/"}: ${msg}`);

  function walk(s, ptr, where) {
    if (typeof s !== "object" || s === null || Array.isArray(s)) {
      bad(ptr, "a schema must be an object");
      return;
    }
    for (const k of Object.keys(s)) if (!WHITELIST.has(k)) bad(ptr, `keyword "${k}" is not supported`);
    if (ptr !== "" && "$schema" in s) bad(ptr, "$schema belongs at the root only");
    for (const k of ["x-namespace", "x-module", "x-roles", "x-messages", "x-types", "x-error-codes", "x-default-deadline", "x-profile", "x-kind", "x-direction",
      "x-gate", "x-errors", "x-deadline", "x-result"]) {
      if (k in s && ptr !== "") bad(ptr, `${k} belongs at the root of a file only`);
    }

    const types = s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type];
    for (const t of types) if (!JSON_TYPES.has(t)) bad(ptr, `unknown type "${t}"`);
    if (Array.isArray(s.type) && !(s.type.length === 2 && s.type.includes("null") && s.type[0] !== s.type[1])) {
      bad(ptr, "a type array is only for nullable: [T, \"null\"] (use anyOf for unions)");
    }
    if (where === "inline" && types.includes("object") && !s.title) {
      bad(ptr, "an inline object schema needs a title (its C++ name)");
    }
    if (s.additionalProperties === false) bad(ptr, "additionalProperties: false is not allowed (spec 9.6)");
    if ("not" in s) {
      const n = s.not;
      if (typeof n !== "object" || n === null || Object.keys(n).length !== 1 || typeof n.pattern !== "string") {
        bad(ptr, "not is only allowed as {\"pattern\": ...}");
      }
    }
    for (const pat of [s.pattern, s.not?.pattern]) {
      if (pat === undefined) continue;
      try {
        new RegExp(pat, "u");
      } catch (e) {
        bad(ptr, `bad pattern: ${e.message}`);
      }
    }
    if (s.required) {
      if (new Set(s.required).size !== s.required.length) bad(ptr, "duplicate names in required");
      for (const r of s.required) if (!s.properties || !(r in s.properties)) bad(ptr, `required "${r}" is not in properties`);
    }
    if (s.enum) {
      if (s.type === undefined) bad(ptr, "an enum needs a type");
      for (const v of s.enum) if (s.type !== undefined && !typeAccepts(s.type, v)) bad(ptr, `enum value ${JSON.stringify(v)} does not match type`);
      if (new Set(s.enum.map((v) => JSON.stringify(v))).size !== s.enum.length) bad(ptr, "duplicate enum values");
    }
    for (const k of ["x-enum-names", "x-enum-descriptions"]) {
      if (k in s) {
        if (!s.enum) bad(ptr, `${k} without enum`);
        else if (!Array.isArray(s[k]) || s[k].length !== s.enum.length) bad(ptr, `${k} must have one entry per enum value`);
        else if (s[k].some((x) => typeof x !== "string" || !x)) bad(ptr, `${k} entries must be non-empty strings`);
      }
    }
    if ("x-enum-names" in s && Array.isArray(s["x-enum-names"])) {
      for (const n of s["x-enum-names"]) if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(n)) bad(ptr, `x-enum-names entry "${n}" is not an identifier`);
    }
    if ("const" in s && s.type !== undefined && !typeAccepts(s.type, s.const)) bad(ptr, "const does not match type");
    if ("default" in s && s.type !== undefined && !typeAccepts(s.type, s.default)) bad(ptr, "default does not match type");
    if ("x-unit" in s && s["x-unit"] !== "ms") bad(ptr, `unknown x-unit "${s["x-unit"]}"`);
    if ("x-error-messages" in s) {
      const m = s["x-error-messages"];
      if (typeof m !== "object" || m === null || Array.isArray(m)) bad(ptr, "x-error-messages must be an object");
      else for (const [k, v] of Object.entries(m)) {
        if (k !== "pattern" && k !== "not") bad(ptr, `x-error-messages: only "pattern" and "not" take a message, got "${k}"`);
        else if (!(k in s)) bad(ptr, `x-error-messages: no "${k}" on this schema to explain`);
        if (typeof v !== "string" || !v) bad(ptr, `x-error-messages.${k} must be a non-empty string`);
      }
    }

    if (s.oneOf) {
      const nullable = s.oneOf.length === 2 && s.oneOf.some((m) => JSON.stringify(m) === '{"type":"null"}');
      if (!nullable && !("x-discriminator" in s)) {
        bad(ptr, "oneOf is only for [X, {\"type\": \"null\"}] or a tagged union with x-discriminator");
      }
    }
    if ("x-discriminator" in s) {
      const tag = s["x-discriminator"];
      if (!s.oneOf) bad(ptr, "x-discriminator without oneOf");
      else {
        const seen = new Set();
        s.oneOf.forEach((m, i) => {
          try {
            const { node } = deref(rel, m);
            const c = node?.properties?.[tag]?.const;
            if (node?.type !== "object" || c === undefined) bad(`${ptr}/oneOf/${i}`, `member must be an object with properties.${tag}.const`);
            else if (!(node.required ?? []).includes(tag)) bad(`${ptr}/oneOf/${i}`, `member must require "${tag}"`);
            else if (seen.has(c)) bad(`${ptr}/oneOf/${i}`, `duplicate tag ${JSON.stringify(c)}`);
            else seen.add(c);
          } catch (e) {
            bad(`${ptr}/oneOf/${i}`, e.message);
          }
        });
      }
    }
    if (s.anyOf) {
      const kinds = new Set();
      s.anyOf.forEach((m, i) => {
        try {
          const { node } = deref(rel, m);
          if (typeof node?.type !== "string") {
            bad(`${ptr}/anyOf/${i}`, "an untagged union member needs a single type");
            return;
          }
          const kind = node.type === "array" ? `array of ${JSON.stringify(node.items)}` : node.type;
          if (kinds.has(kind)) bad(`${ptr}/anyOf/${i}`, `members must differ in JSON type (${kind} twice)`);
          kinds.add(kind);
        } catch (e) {
          bad(`${ptr}/anyOf/${i}`, e.message);
        }
      });
      if (kinds.has("integer") && kinds.has("number")) bad(ptr, "anyOf with both integer and number is ambiguous");
    }
    if (s.$ref) {
      try {
        resolveRef(rel, s.$ref);
      } catch (e) {
        bad(ptr, e.message);
      }
    }

    for (const [name, sub] of Object.entries(s.properties ?? {})) walk(sub, `${ptr}/properties/${name}`, "inline");
    for (const [name, sub] of Object.entries(s.definitions ?? {})) walk(sub, `${ptr}/definitions/${name}`, "definition");
    if (s.items !== undefined) {
      if (Array.isArray(s.items)) bad(ptr, "tuple items are not supported");
      else walk(s.items, `${ptr}/items`, "inline");
    }
    if (typeof s.additionalProperties === "object") walk(s.additionalProperties, `${ptr}/additionalProperties`, "inline");
    (s.oneOf ?? []).forEach((m, i) => walk(m, `${ptr}/oneOf/${i}`, "inline"));
    (s.anyOf ?? []).forEach((m, i) => walk(m, `${ptr}/anyOf/${i}`, "inline"));
    if (s["x-result"] !== undefined) walk(s["x-result"], `${ptr}/x-result`, "inline");
  }

  walk(doc, "", "root");
  if (doc.type === undefined && !doc.oneOf && !doc.anyOf && !doc.$ref) {
    if (doc.title) bad("", "a definitions-only file has no title");
    if (!doc.definitions || !Object.keys(doc.definitions).length) bad("", "a file without a root type must hold definitions");
  } else if (!doc.title) {
    bad("", "the root needs a title");
  }
  if (typeof doc.description !== "string" || !doc.description) bad("", "the root needs a description");
  return problems;
}

for (const [rel, doc] of files) check(`schema/${rel}: follows schema/README.md conventions`, () => lintFile(rel, doc));

// ----------------------------------------------------------------------------- protocol.json
const protocol = files.get("protocol.json");
const messageRels = [...files.keys()].filter((r) => r.startsWith("messages/"));
const typeRels = [...files.keys()].filter((r) => r.startsWith("types/"));
const constants = protocol?.properties ?? {};
// x-errors names are the x-enum-names of the integer enum that protocol.json x-error-codes names.
let errorCodes;
try {
  if (typeof protocol?.["x-error-codes"] === "string") errorCodes = deref("protocol.json", { $ref: protocol["x-error-codes"] }).node;
} catch {
  errorCodes = undefined;
}
const errorNames = errorCodes?.["x-enum-names"] ?? [];
const roles = protocol?.["x-roles"] ?? [];

check("schema/protocol.json: index metadata", () => {
  if (!protocol) return "missing";
  const p = [];
  if (protocol.title === undefined) p.push("no title");
  if (protocol["x-namespace"] !== "streamnook::v1") p.push("x-namespace");
  if (protocol["x-module"] !== "streamnook_v1") p.push("x-module");
  if (JSON.stringify(roles) !== '["host","plugin"]') p.push("x-roles");
  return p;
});
check("schema/protocol.json: x-error-codes names an integer enum with x-enum-names", () => {
  const ref = protocol?.["x-error-codes"];
  if (typeof ref !== "string") return "x-error-codes missing (x-errors names need it)";
  if (!errorCodes) return `${ref} resolves to nothing`;
  if (errorCodes.type !== "integer" || !Array.isArray(errorCodes.enum)) return `${ref} is not an integer enum`;
  if (!Array.isArray(errorCodes["x-enum-names"])) return `${ref} has no x-enum-names`;
  return undefined;
});
check("schema/protocol.json: x-messages lists every messages/*.json once", () => {
  const listed = protocol?.["x-messages"] ?? [];
  const p = [];
  if (new Set(listed).size !== listed.length) p.push("duplicates");
  for (const r of listed) if (!files.has(r)) p.push(`${r} does not exist`);
  for (const r of messageRels) if (!listed.includes(r)) p.push(`${r} not listed`);
  return p;
});
check("schema/protocol.json: x-types lists every type file, errors.json, capabilities.json, manifest.json", () => {
  const listed = protocol?.["x-types"] ?? [];
  const p = [];
  if (new Set(listed).size !== listed.length) p.push("duplicates");
  for (const r of listed) if (!files.has(r)) p.push(`${r} does not exist`);
  for (const r of [...typeRels, "errors.json", "capabilities.json", "manifest.json"]) if (!listed.includes(r)) p.push(`${r} not listed`);
  for (const r of listed) if (r.startsWith("messages/")) p.push(`${r} is a message`);
  return p;
});
check("schema/protocol.json: constants are typed consts with descriptions, durations in ms", () => {
  const p = [];
  for (const [name, c] of Object.entries(constants)) {
    if (!("const" in c)) p.push(`${name}: no const`);
    if (!c.description) p.push(`${name}: no description`);
    if (!["integer", "number", "string", "boolean", "array"].includes(c.type)) p.push(`${name}: type ${c.type}`);
    if (c.type === "array" && !(Array.isArray(c.const) && c.const.every((x) => typeAccepts(c.items?.type, x)))) p.push(`${name}: array const/items mismatch`);
    if (/_ms$/.test(name) !== (c["x-unit"] === "ms")) p.push(`${name}: names ending in _ms and only those carry x-unit "ms"`);
  }
  return p;
});
check("schema/protocol.json: the protocol document validates against itself", () => {
  const v = validatorFor(idOf("protocol.json"));
  const instance = Object.fromEntries(Object.entries(constants).map(([k, c]) => [k, c.const]));
  return v(instance) ? undefined : errorsText(v.errors);
});

// ----------------------------------------------------------------------------- message files
const pascal = (m) => m.split("_").map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");
const OPTIONAL_PARAMS = new Set(["initialized", "ping", "shutdown", "exit"]); // spec 9.1
const SEND_EMPTY_PARAMS = new Set(["initialized", "ping"]); // spec 9.1: send {}

const granted = files.get("types/granted.json");
const manifest = files.get("manifest.json");

function lintMessage(rel, m) {
  const p = [];
  const method = posix.basename(rel, ".json");
  const P = pascal(method);
  if (m.title !== method) p.push(`title must be "${method}"`);
  if (m.properties?.method?.const !== method) p.push(`properties.method.const must be "${method}"`);
  if (m.properties?.jsonrpc?.const !== "2.0") p.push("properties.jsonrpc.const must be \"2.0\"");
  if (m.type !== "object") p.push("root type must be object");
  const kind = m["x-kind"];
  if (kind !== "request" && kind !== "notification") p.push(`x-kind ${JSON.stringify(kind)}`);
  const dir = /^([a-z]+)_to_([a-z]+)$/.exec(m["x-direction"] ?? "");
  if (!dir || !roles.includes(dir[1]) || !roles.includes(dir[2]) || dir[1] === dir[2]) p.push(`x-direction ${JSON.stringify(m["x-direction"])}`);
  const req = m.required ?? [];
  for (const k of ["jsonrpc", "method"]) if (!req.includes(k)) p.push(`${k} must be required`);

  if (kind === "request") {
    if (!req.includes("id")) p.push("a request requires id");
    if (m.properties?.id?.$ref !== "../jsonrpc.json#/definitions/Id") p.push("id must be ../jsonrpc.json#/definitions/Id");
    if (m["x-result"]?.$ref !== `#/definitions/${P}Result`) p.push(`x-result must be {"$ref": "#/definitions/${P}Result"}`);
    else if (!m.definitions?.[`${P}Result`]) p.push(`no definitions.${P}Result`);
  } else {
    if ("id" in (m.properties ?? {}) || req.includes("id")) p.push("a notification has no id");
    if ("x-result" in m) p.push("a notification has no x-result");
    if ("x-deadline" in m) p.push("a notification has no x-deadline");
  }

  const params = m.properties?.params;
  const paramsRef = `#/definitions/${P}Params`;
  if (!m.definitions?.[`${P}Params`]) p.push(`no definitions.${P}Params`);
  if (OPTIONAL_PARAMS.has(method)) {
    if (req.includes("params")) p.push("params must be optional (spec 9.1)");
    if (JSON.stringify(params?.oneOf) !== JSON.stringify([{ $ref: paramsRef }, { type: "null" }])) p.push(`params must be oneOf [${paramsRef}, null] (spec 9.1)`);
    const wantDefault = SEND_EMPTY_PARAMS.has(method);
    if (wantDefault !== (JSON.stringify(params?.default) === "{}")) p.push(wantDefault ? "params needs default {} (send {})" : "params must have no default (send none)");
  } else {
    if (!req.includes("params")) p.push("params must be required");
    if (params?.$ref !== paramsRef) p.push(`params must be {"$ref": "${paramsRef}"}`);
  }

  const paramsDef = m.definitions?.[`${P}Params`] ?? {};
  const gate = m["x-gate"];
  if (!Array.isArray(gate)) p.push("x-gate must be an array");
  for (const [i, c] of (Array.isArray(gate) ? gate : []).entries()) {
    const keys = Object.keys(c).sort().join(",");
    if (keys === "granted,value" || keys === "granted,param") {
      const field = granted?.properties?.[c.granted];
      if (!field) {
        p.push(`x-gate/${i}: Granted has no field ${c.granted}`);
        continue;
      }
      if (keys === "granted,value") {
        const { node } = deref("types/granted.json", field.items);
        if (!node?.enum?.includes(c.value)) p.push(`x-gate/${i}: "${c.value}" is not a ${c.granted} capability`);
      } else if (!paramsDef.properties?.[c.param]) p.push(`x-gate/${i}: params have no field ${c.param}`);
    } else if (keys === "declared,param") {
      let node = manifest;
      for (const part of c.declared.split(".")) node = node?.properties?.[part];
      if (node?.type !== "array") p.push(`x-gate/${i}: manifest has no list ${c.declared}`);
      if (!paramsDef.properties?.[c.param]) p.push(`x-gate/${i}: params have no field ${c.param}`);
    } else p.push(`x-gate/${i}: unknown clause shape {${keys}}`);
  }
  const errs = m["x-errors"];
  if (!Array.isArray(errs)) p.push("x-errors must be an array");
  else for (const e of errs) if (!errorNames.includes(e)) p.push(`x-errors: unknown error "${e}"`);
  if ("x-deadline" in m) {
    const c = constants[m["x-deadline"]];
    if (!c || c["x-unit"] !== "ms") p.push(`x-deadline "${m["x-deadline"]}" is not an ms constant of protocol.json`);
  }
  return p;
}

for (const rel of protocol?.["x-messages"] ?? []) {
  if (files.has(rel)) check(`schema/${rel}: message file shape and metadata`, () => lintMessage(rel, files.get(rel)));
}

// ----------------------------------------------------------------------------- examples
function loadExample(path) {
  return JSON.parse(readFileSync(path, "utf8"));
}

function expectValid(label, ref, value) {
  check(`${label} is valid`, () => {
    const v = validatorFor(ref);
    return v(value) ? undefined : errorsText(v.errors);
  });
}

function expectInvalid(label, ref, value, why) {
  let rejected = false;
  let detail = "";
  let problem;
  try {
    const v = validatorFor(ref);
    rejected = !v(value);
    if (rejected) detail = ` -> ${errorsText(v.errors, 1)}`;
    else problem = "validated, but must fail";
  } catch (e) {
    problem = e.message;
  }
  if (!why) problem = problem ?? "an invalid case needs a \"why\"";
  check(`${label} is rejected (${why})${detail}`, () => problem);
}

if (!existsSync(EXAMPLES_DIR)) {
  check("tests/fixtures/examples exists", () => "missing");
} else {
  const messageNames = (protocol?.["x-messages"] ?? []).map((r) => posix.basename(r, ".json"));
  const topLevel = readdirSync(EXAMPLES_DIR).filter((n) => n.endsWith(".json"));
  check("tests/fixtures/examples: one file per message, plus manifest.json", () => {
    const p = [];
    for (const m of messageNames) if (!topLevel.includes(`${m}.json`)) p.push(`missing ${m}.json`);
    for (const n of topLevel) if (n !== "manifest.json" && !messageNames.includes(n.slice(0, -5))) p.push(`${n} matches no message`);
    return p;
  });

  for (const method of messageNames) {
    const path = join(EXAMPLES_DIR, `${method}.json`);
    if (!existsSync(path)) continue;
    const rel = `messages/${method}.json`;
    const m = files.get(rel);
    const label = `examples/${method}.json`;
    let ex;
    if (!check(`${label}: parses`, () => { ex = loadExample(path); })) continue;
    const isRequest = m["x-kind"] === "request";
    check(`${label}: has envelopes and invalid cases${isRequest ? " and results" : ", no results"}`, () => {
      const p = [];
      if (!ex.envelopes?.length) p.push("no envelopes");
      if (!ex.invalid?.length) p.push("no invalid cases");
      if (isRequest && !ex.results?.length) p.push("no results");
      if (!isRequest && (ex.results?.length || ex.invalid_results?.length)) p.push("a notification has no results");
      for (const k of Object.keys(ex)) if (!["envelopes", "results", "invalid", "invalid_results"].includes(k)) p.push(`unknown key ${k}`);
      return p;
    });
    (ex.envelopes ?? []).forEach((env, i) => {
      expectValid(`${label}: envelope #${i + 1}`, idOf(rel), env);
      check(`${label}: envelope #${i + 1} is a well-formed ${m["x-kind"]} frame`, () => {
        if (isRequest && !("id" in env)) return "a request frame needs an id";
        if (!isRequest && "id" in env) return "a notification frame must not carry an id";
        return undefined;
      });
    });
    (ex.results ?? []).forEach((r, i) => expectValid(`${label}: result #${i + 1}`, `${idOf(rel)}${m["x-result"]?.$ref}`, r));
    (ex.invalid ?? []).forEach((c, i) => expectInvalid(`${label}: invalid #${i + 1}`, idOf(rel), c.envelope, c.why));
    (ex.invalid_results ?? []).forEach((c, i) =>
      expectInvalid(`${label}: invalid result #${i + 1}`, `${idOf(rel)}${m["x-result"]?.$ref}`, c.result, c.why));
  }

  // manifest.json: {"valid": [...], "invalid": [{"manifest": ..., "why": ...}]}
  const manifestPath = join(EXAMPLES_DIR, "manifest.json");
  let mex;
  if (check("examples/manifest.json: parses", () => { mex = loadExample(manifestPath); })) {
    check("examples/manifest.json: has valid and invalid manifests", () =>
      mex.valid?.length && mex.invalid?.length ? undefined : "needs both");
    (mex.valid ?? []).forEach((v, i) => expectValid(`examples/manifest.json: manifest #${i + 1}`, idOf("manifest.json"), v));
    (mex.invalid ?? []).forEach((c, i) =>
      expectInvalid(`examples/manifest.json: invalid #${i + 1}`, idOf("manifest.json"), c.manifest, c.why));
  }

  // types/<name>.json: {"cases": [{"schema": "<file under schema/>[#pointer]", "valid": [...],
  //                                "invalid": [{"value": ..., "why": ...}]}]}
  const typesDir = join(EXAMPLES_DIR, "types");
  if (existsSync(typesDir)) {
    for (const name of readdirSync(typesDir).filter((n) => n.endsWith(".json")).sort()) {
      const label = `examples/types/${name}`;
      let tex;
      if (!check(`${label}: parses`, () => { tex = loadExample(join(typesDir, name)); })) continue;
      for (const c of tex.cases ?? []) {
        const ref = ID_BASE + c.schema;
        check(`${label}: ${c.schema} exists`, () => { validatorFor(ref); });
        (c.valid ?? []).forEach((v, i) => expectValid(`${label}: ${c.schema} valid #${i + 1}`, ref, v));
        (c.invalid ?? []).forEach((x, i) => expectInvalid(`${label}: ${c.schema} invalid #${i + 1}`, ref, x.value, x.why));
      }
    }
  }
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
