#!/usr/bin/env node
// Checks one protocol folder of schema/ and its examples with ajv, the reference validator:
//
//   node tests/schema/check_protocol.mjs <schema folder> <examples folder>
//   e.g. node tests/schema/check_protocol.mjs schema/desktop tests/fixtures/desktop_v1
//
// 1. Every *.json of the folder parses, declares draft-07 and compiles with ajv in strict mode
//    (x- annotations registered), every definition too; $refs resolve by relative path.
// 2. The examples: <examples>/<message file name>.json per message of x-messages, shaped
//    {"envelopes": [...], "results": [...], "invalid": [{"envelope": ..., "why": ...}],
//     "invalid_results": [{"result": ..., "why": ...}], "results_when": {"<member>": [...]}}:
//    every valid one passes, every invalid one fails (results against the message's x-result,
//    results_when against its x-result-when entry for that member).
// 3. A protocol that is not JSON-RPC (no x-messages: its messages are types told apart by a
//    member, core line plugins) has <examples>/types/<type file name>.json per file of x-types,
//    shaped {"valid": [...], "invalid": [{"value": ..., "why": ...}]}, checked the same way.
// (StreamNook, schema/ itself, has more conventions: tests/schema/check_schemas.mjs.)
// Prints one line per failure and "N passed, M failed"; exits non-zero on a failure.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, posix, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const [schemaArg, examplesArg] = process.argv.slice(2);
if (!schemaArg || !examplesArg) {
  console.error("usage: check_protocol.mjs <schema folder> <examples folder>");
  process.exit(2);
}
const SCHEMA_DIR = resolve(ROOT, schemaArg);
const EXAMPLES_DIR = resolve(ROOT, examplesArg);
const ID_BASE = "file:///schema/";
const DRAFT7 = "http://json-schema.org/draft-07/schema#";

const require = createRequire(join(ROOT, "package.json"));
const Ajv = require("ajv").default ?? require("ajv");
const addFormats = require("ajv-formats").default ?? require("ajv-formats");

let passed = 0;
let failed = 0;
function check(name, fn) {
  let problem;
  try {
    problem = fn();
  } catch (e) {
    problem = e.message;
  }
  if (problem === undefined || problem === true || (Array.isArray(problem) && !problem.length)) {
    passed++;
    return true;
  }
  failed++;
  console.log(`FAIL ${name}: ${Array.isArray(problem) ? problem.join("; ") : problem}`);
  return false;
}

function walkJson(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walkJson(p));
    else if (name.endsWith(".json")) out.push(p);
  }
  return out;
}

// strictRequired is checked below instead (requiredNamesAreProperties): ajv applies an anyOf
// before the properties beside it, so it would refuse an anyOf of required lists.
const ajv = new Ajv({ strict: true, strictRequired: false, allowUnionTypes: true, allErrors: true });
addFormats(ajv);
const files = new Map();
for (const abs of walkJson(SCHEMA_DIR)) {
  const rel = relative(SCHEMA_DIR, abs).split(sep).join("/");
  check(`${rel}: parses, draft-07`, () => {
    const doc = JSON.parse(readFileSync(abs, "utf8"));
    files.set(rel, doc);
    return doc.$schema === DRAFT7 ? undefined : `$schema is not ${DRAFT7}`;
  });
}
// Every x- keyword any file uses is an annotation.
const xKeywords = new Set();
const collect = (node) => {
  if (Array.isArray(node)) node.forEach(collect);
  else if (node && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k.startsWith("x-")) xKeywords.add(k);
      collect(v);
    }
  }
};
files.forEach(collect);
ajv.addVocabulary([...xKeywords]);
for (const [rel, doc] of files) ajv.addSchema({ ...doc, $id: ID_BASE + rel });
// ajv's strictRequired, with schema/README.md's anyOf of required lists known ("Writing
// fields": {"anyOf": [{"required": ["text"]}, {"required": ["blob"]}]} beside the properties
// names the object's own members): every name in a required list is a property of its object.
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const requiredOnly = (v) => isObject(v) && Object.keys(v).length === 1 && Array.isArray(v.required);
function requiredNamesAreProperties(node, at, owner, problems) {
  if (Array.isArray(node)) {
    node.forEach((v, i) => requiredNamesAreProperties(v, `${at}/${i}`, undefined, problems));
    return;
  }
  if (!isObject(node)) return;
  if (Array.isArray(node.required)) {
    const props = (owner ?? node).properties ?? {};
    for (const name of node.required) {
      if (!(name in props)) problems.push(`${at || "#"}/required: "${name}" is not a property`);
    }
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === "enum" || key === "const" || key === "default" || key === "examples" || key.startsWith("x-")) continue;
    const alternatives = key === "anyOf" && Array.isArray(value) && value.every(requiredOnly);
    if (alternatives) {
      value.forEach((v, i) => requiredNamesAreProperties(v, `${at}/${key}/${i}`, node, problems));
    } else {
      requiredNamesAreProperties(value, `${at}/${key}`, undefined, problems);
    }
  }
}
for (const [rel, doc] of files) {
  check(`${rel}: every required name is a property`, () => {
    const problems = [];
    requiredNamesAreProperties(doc, "", undefined, problems);
    return problems;
  });
}
for (const [rel, doc] of files) {
  check(`${rel}: compiles`, () => { ajv.getSchema(ID_BASE + rel); });
  for (const name of Object.keys(doc.definitions ?? {})) {
    check(`${rel}#/definitions/${name}: compiles`, () => { ajv.getSchema(`${ID_BASE}${rel}#/definitions/${name}`); });
  }
}

const errorsText = (errors) => (errors ?? []).slice(0, 3).map((e) => `${e.instancePath || "/"} ${e.message}`).join(" | ");
function expect(valid, label, ref, value, why) {
  check(`${label}${why ? ` (${why})` : ""}`, () => {
    const v = ajv.getSchema(ref);
    if (!v) return `no schema ${ref}`;
    const ok = v(value);
    if (valid && !ok) return `rejected: ${errorsText(v.errors)}`;
    if (!valid && ok) return "accepted, but it is invalid";
    if (!valid && !why) return "an invalid case needs a \"why\"";
    return undefined;
  });
}

const protocol = files.get("protocol.json");
const messageFiles = protocol?.["x-messages"] ?? [];
const typeFiles = protocol?.["x-types"] ?? [];
check("protocol.json: lists its messages or types", () =>
  (messageFiles.length || typeFiles.length ? undefined : "no x-messages and no x-types"));
for (const rel of messageFiles) {
  const name = posix.basename(rel, ".json");
  const path = join(EXAMPLES_DIR, `${name}.json`);
  const label = `${relative(ROOT, path)}`;
  if (!check(`${label}: exists`, () => (existsSync(path) ? undefined : "missing"))) continue;
  const ex = JSON.parse(readFileSync(path, "utf8"));
  const m = files.get(rel);
  const result = m?.["x-result"]?.$ref ? `${ID_BASE}${rel}${m["x-result"].$ref}` : undefined;
  check(`${label}: has envelopes and invalid cases`, () =>
    ex.envelopes?.length && ex.invalid?.length ? undefined : "needs both");
  (ex.envelopes ?? []).forEach((e, i) => expect(true, `${label}: envelope #${i + 1}`, ID_BASE + rel, e));
  (ex.invalid ?? []).forEach((c, i) => expect(false, `${label}: invalid #${i + 1}`, ID_BASE + rel, c.envelope, c.why));
  if (result) {
    (ex.results ?? []).forEach((r, i) => expect(true, `${label}: result #${i + 1}`, result, r));
    (ex.invalid_results ?? []).forEach((c, i) => expect(false, `${label}: invalid result #${i + 1}`, result, c.result, c.why));
  }
  // {"results_when": {"<member>": [...]}}: the results a request carrying that member is
  // answered with (x-result-when), each valid against its entry.
  for (const [member, list] of Object.entries(ex.results_when ?? {})) {
    const entry = m?.["x-result-when"]?.[member];
    if (!check(`${label}: results_when.${member} is an x-result-when entry`, () => (entry ? undefined : "no such entry"))) continue;
    list.forEach((r, i) => expect(true, `${label}: result when ${member} #${i + 1}`, `${ID_BASE}${rel}#/x-result-when/${member}`, r));
  }
}
if (!messageFiles.length) {
  for (const rel of typeFiles) {
    const path = join(EXAMPLES_DIR, "types", posix.basename(rel));
    const label = `${relative(ROOT, path)}`;
    if (!check(`${label}: exists`, () => (existsSync(path) ? undefined : "missing"))) continue;
    const ex = JSON.parse(readFileSync(path, "utf8"));
    check(`${label}: has valid and invalid cases`, () =>
      ex.valid?.length && ex.invalid?.length ? undefined : "needs both");
    (ex.valid ?? []).forEach((v, i) => expect(true, `${label}: valid #${i + 1}`, ID_BASE + rel, v));
    (ex.invalid ?? []).forEach((c, i) => expect(false, `${label}: invalid #${i + 1}`, ID_BASE + rel, c.value, c.why));
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
