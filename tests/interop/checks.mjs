// What the interop scripts share: one line per check ("ok" or "FAIL" with what was seen), the
// verdict line "N passed, M failed" that ctest matches, and the peers pinned in package.json.
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

let passed = 0;
let failed = 0;

export function check(name, ok, detail = "") {
  if (ok) {
    passed++;
    console.log(`ok   ${name}`);
  } else {
    failed++;
    console.log(`FAIL ${name}${detail ? `: ${String(detail).slice(0, 600)}` : ""}`);
  }
}

// Prints the verdict and exits: 0 when every check passed (and there was one), else 1.
export function finish() {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 && passed > 0 ? 0 : 1);
}

// The folder of an npm package pinned in package.json; exits 77 (ctest: skipped) when it is not
// installed, saying to run `npm ci`.
export function pinned(pkg, script) {
  try {
    return dirname(createRequire(join(ROOT, "package.json")).resolve(`${pkg}/package.json`));
  } catch (e) {
    console.error(`${script}: ${pkg} is not installed (${e.code ?? e.message}): run npm ci`);
    process.exit(77);
  }
}

// The first argument, or the usage on stderr and exit 2.
export function argument(usage) {
  const value = process.argv[2];
  if (!value) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  return value;
}
