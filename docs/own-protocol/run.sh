#!/usr/bin/env bash
# Builds and runs the walkthrough's project (docs/own-protocol.md) against an installed rpckit,
# exactly the files the walkthrough shows:
#   docs/own-protocol/run.sh <rpckit install prefix> <build dir>
# The host must get the plugin's name, the misspelled words (the user's dictionary answered
# by the host in a nested call), the progress notifications and the protocol's own error;
# several plugins must each learn a word from one event fanned out; with a plugin path that does not exist it must say why at once. The schema must pass
# `rpckit validate`, `rpckit compat` against itself and `rpckit docs`; the code blocks of
# docs/own-protocol.md must be the files.
set -euo pipefail
prefix="$(cd "$1" && pwd)"
build="$2"
here="$(cd "$(dirname "$0")" && pwd)"
project="$here/spell"
rpckit="$prefix/bin/rpckit"

cmake -S "$project" -B "$build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Debug
cmake --build "$build"

fail() { echo "FAILED: $*"; exit 1; }
expect() {  # expect <output> <line>...
  local output="$1"; shift
  for line in "$@"; do
    grep -qxF -- "$line" <<<"$output" || fail "no line '$line' in:"$'\n'"$output"
  done
}

output="$("$build/spell-host" "$build/spell-plugin")"
echo "$output"
expect "$output" "plugin: tiny spell checker" "progress: 0/7" "misspelled: teh" \
  "misspelled: brwon" "refused: remote error: 1001 longer than max_text_bytes"
grep -q '^misspelled: rpckit$' <<<"$output" && fail "the user's dictionary was not used"

# The profile's normal stop (stdin EOF) is not news: nothing on stderr, from host or plugin.
"$build/spell-host" "$build/spell-plugin" >/dev/null 2>"$build/stderr.txt"
[ ! -s "$build/stderr.txt" ] || fail "stderr on a normal stop: $(cat "$build/stderr.txt")"

# Several plugins: one event fanned out reaches each before its check.
output="$("$build/spell-hosts" "$build/spell-plugin" 3)" || fail "spell-hosts:"$'\n'"$output"
echo "$output"
expect "$output" "spell-1: misspelled: teh" "spell-2: misspelled: teh" "spell-3: misspelled: teh"
grep -q 'misspelled: brwon$' <<<"$output" && fail "words_learned did not reach every plugin"

if output="$("$build/spell-host" "$build/no-such-plugin")"; then fail "a missing plugin ran"; fi
echo "$output"
grep -q '^not running: .*No such file or directory' <<<"$output" || fail "no reason given"

# The tool on the new schema: the session's transcript, a frame, compat, docs.
"$build/spell-host" "$build/spell-plugin" "$build/session.jsonl" >/dev/null
"$rpckit" validate --schema "$project/schema/protocol.json" --transcript "$build/session.jsonl"
if output="$(echo '{"jsonrpc":"2.0","method":"progress","params":{"done":-1,"total":3}}' |
     "$rpckit" validate --schema "$project/schema/protocol.json" --envelope - 2>&1)"; then
  fail "validate took a negative done"
fi
echo "$output"
grep -qF '/params/done: expected a number >= 0, found -1' <<<"$output" || fail "validate: $output"
"$rpckit" compat "$project/schema" "$project/schema"
rm -rf "$build/schema-next" && cp -r "$project/schema" "$build/schema-next"
sed -i 's/"required": \["text"\],/"required": ["text", "language"],/;
        s/{"text": {"type": "string"}}/{"text": {"type": "string"}, "language": {"type": "string"}}/' \
  "$build/schema-next/messages/check.json"
if output="$("$rpckit" compat "$project/schema" "$build/schema-next" 2>&1)"; then
  fail "compat took a new required member"
fi
echo "$output"
grep -q 'breaking .*check.params.language .*new required member' <<<"$output" || fail "compat"
(cd "$build" && "$rpckit" docs "$project/schema/protocol.json" --out spell-protocol.md)
grep -q 'get_user_dictionary' "$build/spell-protocol.md" || fail "docs: no get_user_dictionary"

# Every code block of the walkthrough that names a file (an HTML comment line just before it)
# is that file, and every file of the project is shown.
python3 - "$here/../own-protocol.md" "$project" <<'PY'
import os, re, sys
doc, project = sys.argv[1], sys.argv[2]
text = open(doc, encoding="utf-8").read()
shown = {}
for m in re.finditer(r"^<!-- (spell/\S+) -->\n```\w*\n(.*?)^```$", text, re.M | re.S):
    shown[m.group(1)] = m.group(2)
files = set()
for root, _, names in os.walk(project):
    for name in names:
        files.add(os.path.relpath(os.path.join(root, name), os.path.dirname(project)))
bad = [f"{f}: not shown" for f in sorted(files - shown.keys())]
bad += [f"{f}: shown, but no such file" for f in sorted(shown.keys() - files)]
for f in sorted(files & shown.keys()):
    if open(os.path.join(os.path.dirname(project), f), encoding="utf-8").read() != shown[f]:
        bad.append(f"{f}: the code block differs from the file")
for b in bad:
    print(f"docs/own-protocol.md: {b}")
sys.exit(1 if bad else 0)
PY
# Every line of a README snippet marked with a file of the walkthrough is a line of that file.
python3 - "$here/../../README.md" <<'PY'
import os, re, sys
readme = sys.argv[1]
root = os.path.dirname(readme)
bad = []
text = open(readme, encoding="utf-8").read()
blocks = re.findall(r"^<!-- from (docs/own-protocol/\S+) -->\n```\w*\n(.*?)^```$", text, re.M | re.S)
for name, body in blocks:
    lines = {l.strip() for l in open(os.path.join(root, name), encoding="utf-8")}
    bad += [f"README.md: not a line of {name}: {l.strip()}"
            for l in body.splitlines() if l.strip() and l.strip() not in lines]
for b in bad:
    print(b)
if len(blocks) < 3:
    print(f"README.md: {len(blocks)} snippets marked with a walkthrough file, expected 3")
sys.exit(1 if bad or len(blocks) < 3 else 0)
PY
echo "ok"
