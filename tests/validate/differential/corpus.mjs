#!/usr/bin/env node
// validate.DifferentialAjv: our validator against ajv, the reference, on the same corpus.
//
//   node tests/validate/differential/corpus.mjs --out <corpus.json> [--driver <exe> [--every N]]
//
// For every message of schema/protocol.json (x-messages) the corpus holds the example
// envelopes and results of tests/fixtures/examples/<message>.json, the invalid examples (the
// "invalid" list), and systematic mutations of the valid ones, derived from the schema that
// applies at each point of the payload: each required member dropped, each member given a value
// of every other JSON type (null included), enum and const values swapped for near misses,
// strings at and past their length bounds, strings that break or stretch a pattern (long ones
// too), format edge cases, numbers at and past their bounds, arrays at their size bounds and
// with repeated items, extra members, deeply nested values where any value goes. Mutations are
// seeded: the corpus is the same on every run. The builder is mutations.mjs (shared with
// mcp_sdk.mjs, validate.DifferentialMcpSdk).
//
// ajv (draft-07, strict: false, allErrors, ajv-formats full) judges each item; the corpus and
// the verdicts go to --out, and --driver (differential_test, C++) validates each item with
// rpckit::validate (strict enums, as plain JSON Schema has them) and requires the same verdict
// (--every N: on each message's first item and every Nth after it, for the sanitizer builds).
// Exits non-zero on any disagreement.

import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { buildCorpus } from "./mutations.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const SCHEMA_DIR = join(ROOT, "schema");
const EXAMPLES_DIR = join(ROOT, "tests", "fixtures", "examples");
const ID_BASE = "file:///schema/";
const SEED = 0x5eed2024;

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const OUT = option("--out");
const DRIVER = option("--driver");
const EVERY = option("--every");
if (!OUT) {
  console.error("usage: corpus.mjs --out <corpus.json> [--driver <differential_test> [--every N]]");
  process.exit(2);
}

const require = createRequire(join(ROOT, "package.json"));
let Ajv, addFormats;
try {
  Ajv = require("ajv");
  addFormats = require("ajv-formats");
} catch (e) {
  console.error(`corpus.mjs: cannot load ajv / ajv-formats (${e.code ?? e.message}): run \`npm ci\` in ${ROOT}`);
  process.exit(2);
}
Ajv = Ajv.default ?? Ajv;
addFormats = addFormats.default ?? addFormats;

// ----------------------------------------------------------------------------- corpus
const { files, items: built, perMessage } = buildCorpus({
  schemaDir: SCHEMA_DIR,
  examplesDir: EXAMPLES_DIR,
  exampleFile: (method) => `${method}.json`,
  seed: SEED,
});

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
for (const [rel, schema] of files) ajv.addSchema(schema, ID_BASE + rel);

const compiled = new Map();
function ajvValid(location, instance) {
  if (!compiled.has(location)) {
    const v = ajv.getSchema(ID_BASE + location);
    if (!v) throw new Error(`ajv cannot resolve ${location}`);
    compiled.set(location, v);
  }
  return compiled.get(location)(instance);
}

const items = built.map(({ message, kind, schema, mutation, instance }) =>
  ({ message, kind, schema, mutation, valid: ajvValid(schema, instance), instance }));

const valid = items.filter((i) => i.valid).length;
writeFileSync(OUT, JSON.stringify({ schema: join(SCHEMA_DIR, "protocol.json"), seed: SEED, items }));
console.log(`corpus: ${items.length} items (${valid} valid, ${items.length - valid} invalid by ajv) for ${perMessage.length} messages -> ${OUT}`);
for (const { method, count } of perMessage) console.log(`  ${method}: ${count}`);

if (DRIVER) {
  try {
    execFileSync(DRIVER, EVERY ? [OUT, "--every", EVERY] : [OUT], { stdio: "inherit" });
  } catch (e) {
    process.exit(e.status ?? 1);
  }
}
