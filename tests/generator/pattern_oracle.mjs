// The reference for pattern_test.cpp: how JavaScript (as ajv compiles a schema `pattern`:
// new RegExp(pattern, "u")) answers each pattern on each input.
//   node pattern_oracle.mjs <cases.json>
//   cases.json: [{"pattern": "...", "inputs": ["...", ...]}, ...]
//   stdout:     [{"error": "..."} | {"matches": [true, false, ...]}, ...]
import { readFileSync } from "node:fs";

const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
const out = cases.map(({ pattern, inputs }) => {
  let re;
  try {
    re = new RegExp(pattern, "u");
  } catch (e) {
    return { error: String(e.message) };
  }
  return { matches: inputs.map((s) => re.test(s)) };
});
process.stdout.write(JSON.stringify(out));
