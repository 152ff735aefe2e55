#!/usr/bin/env node
// validate.DifferentialMcpSdk: schema/mcp (MCP 2025-11-25) against the official TypeScript SDK.
//
//   node tests/validate/differential/mcp_sdk.mjs --out <corpus.json> --driver <differential_test>
//        [--dump <disagreements.json>]
//
// The corpus is the one validate.DifferentialAjv builds for StreamNook (mutations.mjs), here for
// every message of schema/mcp/protocol.json (x-messages) from tests/fixtures/mcp_2025_11_25/
// <message file name>.json: the examples (valid, "invalid" and "invalid_results") and seeded
// mutations of the valid ones. Two judges give a verdict on every item:
//
// - rpckit: the C++ validator (rpckit::validate, strict enums), run once over the whole corpus
//   by `differential_test <corpus.json> --verdicts`.
// - the SDK: the zod schemas of @modelcontextprotocol/sdk (pinned in package.json), loaded from
//   node_modules at test time, as the SDK itself applies them to what it receives. An envelope
//   must pass the JSON-RPC envelope of its kind (JSONRPCRequestSchema / JSONRPCNotificationSchema,
//   as the stdio transport's JSONRPCMessageSchema parses every line) and the method's own request
//   or notification schema (as Protocol's request and notification handlers parse it); a result
//   must pass the result schema the SDK's client or server parses that method's answer with
//   (Client.callTool: CallToolResultSchema, ...).
//
// The verdicts must agree. Where the two schemas honestly differ, an entry of KNOWN (below)
// explains the disagreement: which message, kind and mutation, which side accepts, and why. The
// test fails on a disagreement no entry explains, and on an entry that explains none (the table
// cannot rot). Prints the counts per judge, the agreements and the disagreements per entry.
// --dump writes every unexplained disagreement (with both judges' reasons) as JSON.
// Exits 0: every disagreement explained and every entry used; 1: not so; 2: bad input.

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, posix, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

import { buildCorpus } from "./mutations.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const SCHEMA_DIR = join(ROOT, "schema", "mcp");
const EXAMPLES_DIR = join(ROOT, "tests", "fixtures", "mcp_2025_11_25");
const SDK_PACKAGE = "@modelcontextprotocol/sdk";
const SDK_VERSION = "1.32.2";
const SEED = 0x5eed2024;

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const OUT = option("--out");
const DRIVER = option("--driver");
const DUMP = option("--dump");
if (!OUT || !DRIVER) {
  console.error("usage: mcp_sdk.mjs --out <corpus.json> --driver <differential_test> [--dump <file>]");
  process.exit(2);
}

// ----------------------------------------------------------------------------- the SDK
const require = createRequire(join(ROOT, "package.json"));
let sdk;
try {
  const types = require.resolve(`${SDK_PACKAGE}/types.js`);
  let dir = dirname(types);
  while (!existsSync(join(dir, "package.json")) || JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).name !== SDK_PACKAGE) {
    if (dirname(dir) === dir) throw new Error(`no package.json of ${SDK_PACKAGE} above ${types}`);
    dir = dirname(dir);
  }
  const { version } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  if (version !== SDK_VERSION) throw new Error(`found ${version}, pinned ${SDK_VERSION}`);
  sdk = await import(pathToFileURL(types).href);
} catch (e) {
  console.error(`mcp_sdk.mjs: cannot load ${SDK_PACKAGE}@${SDK_VERSION} (${e.code ?? e.message}): run \`npm ci\` in ${ROOT}`);
  process.exit(2);
}

// Each method: the SDK's schema of the request or notification, and the schemas it parses the
// result with (client/index.js, server/index.js, shared/protocol.js of the SDK).
const SDK_SCHEMAS = {
  "initialize": ["InitializeRequestSchema", "InitializeResultSchema"],
  "notifications/initialized": ["InitializedNotificationSchema"],
  "ping": ["PingRequestSchema", "EmptyResultSchema"],
  "notifications/cancelled": ["CancelledNotificationSchema"],
  "notifications/progress": ["ProgressNotificationSchema"],
  "resources/list": ["ListResourcesRequestSchema", "ListResourcesResultSchema"],
  "resources/templates/list": ["ListResourceTemplatesRequestSchema", "ListResourceTemplatesResultSchema"],
  "resources/read": ["ReadResourceRequestSchema", "ReadResourceResultSchema"],
  "resources/subscribe": ["SubscribeRequestSchema", "EmptyResultSchema"],
  "resources/unsubscribe": ["UnsubscribeRequestSchema", "EmptyResultSchema"],
  "notifications/resources/list_changed": ["ResourceListChangedNotificationSchema"],
  "notifications/resources/updated": ["ResourceUpdatedNotificationSchema"],
  "prompts/list": ["ListPromptsRequestSchema", "ListPromptsResultSchema"],
  "prompts/get": ["GetPromptRequestSchema", "GetPromptResultSchema"],
  "notifications/prompts/list_changed": ["PromptListChangedNotificationSchema"],
  "tools/list": ["ListToolsRequestSchema", "ListToolsResultSchema"],
  // Client.callTool parses CallToolResultSchema; the task form (when params carry task) is our
  // x-result-when: RESULT_WHEN below.
  "tools/call": ["CallToolRequestSchema", "CallToolResultSchema"],
  "notifications/tools/list_changed": ["ToolListChangedNotificationSchema"],
  "logging/setLevel": ["SetLevelRequestSchema", "EmptyResultSchema"],
  "notifications/message": ["LoggingMessageNotificationSchema"],
  "completion/complete": ["CompleteRequestSchema", "CompleteResultSchema"],
  // Server.createMessage parses CreateMessageResultWithToolsSchema when the request has tools,
  // else CreateMessageResultSchema; a bare result has no request: valid if either takes it.
  "sampling/createMessage": ["CreateMessageRequestSchema", "CreateMessageResultSchema", "CreateMessageResultWithToolsSchema"],
  "elicitation/create": ["ElicitRequestSchema", "ElicitResultSchema"],
  "notifications/elicitation/complete": ["ElicitationCompleteNotificationSchema"],
  "roots/list": ["ListRootsRequestSchema", "ListRootsResultSchema"],
  "notifications/roots/list_changed": ["RootsListChangedNotificationSchema"],
  "tasks/get": ["GetTaskRequestSchema", "GetTaskResultSchema"],
  "tasks/result": ["GetTaskPayloadRequestSchema", "GetTaskPayloadResultSchema"],
  "tasks/list": ["ListTasksRequestSchema", "ListTasksResultSchema"],
  "tasks/cancel": ["CancelTaskRequestSchema", "CancelTaskResultSchema"],
  "notifications/tasks/status": ["TaskStatusNotificationSchema"],
};

// x-result-when: the result of a request whose params carry the member, as the SDK parses it
// (Protocol.request takes CreateTaskResultSchema when params.task is set, shared/protocol.js).
const RESULT_WHEN = { task: ["CreateTaskResultSchema"] };

function sdkSchema(name) {
  const schema = sdk[name];
  if (!schema?.safeParse) throw new Error(`${SDK_PACKAGE}/types.js exports no schema ${name}`);
  return schema;
}

// ----------------------------------------------------------------------------- known differences
// Every disagreement between the judges must match an entry: `message` (a method, or omitted for
// all), `kind` ("envelope" | "result", or omitted), `mutation` (a RegExp on the item's mutation
// text, "<kind> #<example> <JSON pointer>: <what>"), and `accepts` (the judge that accepts:
// "sdk" or "rpckit"), and optionally `when` (a predicate on the item, for what the mutation text
// does not say). The first matching entry explains a disagreement. `why` cites the MCP
// specification (basic/..., schema.ts of 2025-11-25) or the SDK (dist/esm/types.js of 1.32.2),
// and the gaps list where our schema departs from MCP on purpose.
const UNSAFE_INTEGERS = "(9007199254740992|9223372036854776000|1e\\+300|-1e\\+300)";
const KNOWN = [
  // ---- the JSON-RPC envelope and empty results
  {
    id: "envelope-extra-member", kind: "envelope", accepts: "rpckit",
    mutation: /^envelope #\d+ \/: extra member/,
    why: "The SDK's JSONRPCRequestSchema and JSONRPCNotificationSchema are .strict(): a member beside jsonrpc/id/method/params is refused. MCP's JSONRPCRequest/JSONRPCNotification (schema.ts interfaces, schema.json without additionalProperties: false) and JSON-RPC 2.0 do not forbid one; our convention never closes an object (schema/README.md).",
  },
  {
    id: "empty-result-strict", kind: "result", accepts: "rpckit",
    mutation: /^result #\d+ \/: extra member/,
    why: "ping, logging/setLevel, resources/subscribe and resources/unsubscribe answer EmptyResult, which the SDK parses with EmptyResultSchema = ResultSchema.strict(): any member but _meta is refused. schema.ts EmptyResult = Result, which has an index signature ([key: string]: unknown; schema.json additionalProperties {}).",
  },
  // ---- numbers
  {
    id: "unsafe-integer", accepts: "rpckit",
    mutation: new RegExp(`(/id|/params/requestId|/params/progressToken|/params/maxTokens|/completion/total): number ${UNSAFE_INTEGERS}$`),
    why: "zod 4's .int() (RequestIdSchema, ProgressTokenSchema, maxTokens, total) takes only safe integers, |n| <= 2^53-1. MCP says integer (basic/index: ids are a string or integer; schema.json type integer) with no bound, and so do we; past 2^53 a JavaScript peer cannot hold the value exactly anyway.",
  },
  {
    id: "fractional-number", accepts: "sdk",
    mutation: /\/(ttl|pollInterval|size|maxItems): (number -?\d*\.\d+|set to 2\.5)$/,
    why: "Task ttl/pollInterval, TaskMetadata ttl, Resource size and a multi-select field's maxItems are z.number() in the SDK; schema.json types them integer (schema.ts number without @TJS-type number), and so do we (gaps list 9).",
  },
  // ---- formats
  {
    id: "elicitation-url-whatwg-accepts", message: "elicitation/create", kind: "envelope", accepts: "sdk",
    mutation: /\/params\/url: uri /,
    why: "URL-mode elicitation url is z.string().url() in the SDK: the WHATWG URL parser, which takes what it can percent-encode or mend (spaces, quotes, <>, {}, backslashes, non-ASCII, a second #, a bad %-escape). schema.json has format uri (RFC 3986), as we do, and RFC 3986 refuses those.",
  },
  {
    id: "elicitation-url-whatwg-refuses", message: "elicitation/create", kind: "envelope", accepts: "rpckit",
    mutation: /\/params\/url: uri "(https:\/\/\[v7\.abc\]\/|http:\/|http:\/\/|https:\/\/example\.com:port\/)"$/,
    why: "The reverse of elicitation-url-whatwg-accepts: WHATWG URL refuses an IPvFuture host, an http URL without a host and a non-numeric port; format uri (RFC 3986 as ajv-formats reads it, and our validator with it: validate.DifferentialAjv) takes them.",
  },
  {
    id: "uri-format-unchecked", accepts: "sdk",
    mutation: /: uri "|: optional "websiteUrl" added$/,
    why: "schema.json has format uri on Resource/ResourceLink/ResourceContents uri, Icon src, Implementation websiteUrl, resources/read|subscribe|unsubscribe and notifications/resources/updated uri, and so do we; the SDK takes any string there (z.string()). (websiteUrl added is the sample string \"sample\", not a URI.) Gaps list 8.",
  },
  {
    id: "uri-format-unchecked-fixture", message: "resources/read", kind: "envelope", accepts: "sdk",
    mutation: /^invalid example #2$/,
    why: "The fixture's invalid resources/read with uri \"not a uri\": format uri refuses it (schema.json), the SDK's ReadResourceRequestParamsSchema uri is z.string(). As uri-format-unchecked.",
  },
  {
    id: "root-uri-syntax", message: "roots/list", kind: "result", accepts: "sdk",
    mutation: /\/roots\/\d+\/uri: pattern probe/,
    why: "Root uri: the SDK checks only startsWith('file://'); schema.json has format uri, and we add the pattern ^file:// (client/roots: MUST be a file:// URI). A file:// string with a space, a line break, NUL, U+2028 or a raw é is not a URI.",
  },
  {
    id: "sdk-object-accepts-array", accepts: "sdk",
    mutation: /(\/capabilities\/.*|\/inputSchema\/properties\/location): set to \[\]$|\/inputSchema\/properties: extra member$/,
    when: (item) => JSON.stringify(item.instance).includes('"zz_extra":[]') || !/extra member$/.test(item.mutation),
    why: "The SDK checks these with AssertObjectSchema (v !== null && typeof v === 'object'), true of an array too: capability objects (elicitation.url, tasks.list/cancel, tasks.requests.*, logging) and a tool's inputSchema property schemas (the seeded extra member there is an array). schema.ts types them object / { [key: string]: object } and schema.json type object, which excludes arrays, as we do.",
  },
  // ---- results the SDK mends
  {
    id: "call-tool-content-default", message: "tools/call", kind: "result", accepts: "sdk",
    mutation: /^(invalid example #2|result #\d+ \/: (required "content" dropped|empty object))$/,
    why: "CallToolResultSchema has content: z.array(ContentBlockSchema).default([]): a result without content is taken as empty. schema.ts CallToolResult.content is required (schema.json required [content]), as ours.",
  },
  {
    id: "elicit-content-null", message: "elicitation/create", kind: "result", accepts: "sdk",
    mutation: /^result #\d+ \/content: set to null$/,
    why: "ElicitResultSchema preprocesses content null to absent; schema.ts ElicitResult.content? is an object (schema.json type object), so null is not one, as ours says.",
  },
  {
    id: "stop-reason-open", message: "sampling/createMessage", kind: "result", accepts: "sdk",
    mutation: /\/stopReason: (value not in enum|enum value in upper case)$/,
    why: "stopReason is an open string in MCP (schema.ts: \"an open string to allow for provider-specific stop reasons\"; schema.json type string) and in the SDK (z.enum([...]).or(z.string())). We list the four standard values as an enum, which our decoder reads as an open enum (schema/README.md), but strict validation (this test, rpckit validate --strict) refuses others.",
  },
  // ---- unions we merged (gaps list 6)
  {
    id: "elicitation-params-merged", message: "elicitation/create", kind: "envelope", accepts: "rpckit",
    mutation: /\/params: member "(elicitationId|mode|requestedSchema|url)" dropped$|\/params\/mode: enum value "(form|url)"$/,
    why: "ElicitRequestParams = ElicitRequestFormParams | ElicitRequestURLParams (schema.ts; the SDK's union): form needs requestedSchema, url needs mode \"url\", elicitationId and url. We have one params object with all of them optional but message (gaps list 6a), so a payload between the two modes passes.",
  },
  {
    id: "elicitation-other-mode-member", message: "elicitation/create", kind: "envelope", accepts: "sdk",
    mutation: /\/params: optional "(url|requestedSchema)" added$/,
    why: "The reverse of elicitation-params-merged: the SDK parses the params as one mode and strips the other mode's members (z.object), so a form request with a bad url, or a URL request with an empty requestedSchema, passes; our merged params check every member.",
  },
  {
    id: "elicitation-field-string-fallback", message: "elicitation/create", kind: "envelope", accepts: "sdk",
    mutation: /\/requestedSchema\/properties\/(color|size)\/(oneOf|enum|enumNames)(\/\d+(\/const|\/title)?)?: /,
    why: "A field {type: \"string\", ...} whose oneOf/enum/enumNames is broken is still a PrimitiveSchemaDefinition for the SDK (and schema.json's anyOf): it matches StringSchema, which does not declare those members and strips (SDK) or allows (schema.json) them. Our merged StringFieldSchema declares them and checks them (gaps list 6c).",
  },
  {
    id: "multi-select-items-merged", message: "elicitation/create", kind: "envelope", accepts: "rpckit",
    mutation: /\/requestedSchema\/properties\/tags2?\/items: (empty object|member "(enum|type|anyOf)" dropped)$/,
    why: "A multi-select field's items are {type: \"string\", enum} (UntitledMultiSelectEnumSchema) or {anyOf: [{const, title}]} (Titled...) in schema.ts and the SDK; our MultiSelectItems merges both with every member optional (gaps list 6c).",
  },

  // ---- _meta
  {
    id: "request-meta-untyped", message: "tools/call", kind: "envelope", accepts: "rpckit",
    mutation: /\/params\/_meta\/progressToken: /,
    why: "schema.json RequestParams._meta.progressToken is a ProgressToken (string or integer), and the SDK checks it (RequestMetaSchema). Our _meta (types/meta.json) is a map of any JSON so that every key survives decoding (gaps list 7): a properties entry would make the generator write a struct that drops the other keys (tried with build/dev/generator/rpckit).",
  },
  {
    id: "tasks-result-meta-untyped", message: "tasks/result", kind: "result", accepts: "rpckit",
    mutation: /^result #\d+ \/_meta[/:]/,
    why: "The SDK's GetTaskPayloadResultSchema (ResultSchema.loose()) checks _meta as RequestMetaSchema: an object, related-task {taskId: string}; schema.json GetTaskPayloadResult._meta is an object. Our TasksResultResult is a map of any JSON, kept whole to be decoded again as the original request's result (gaps list 2), so _meta is not checked.",
  },
];

// ----------------------------------------------------------------------------- corpus
const { files, items, perMessage } = buildCorpus({
  schemaDir: SCHEMA_DIR,
  examplesDir: EXAMPLES_DIR,
  exampleFile: (method, file) => posix.basename(file),
  invalidKeys: ["invalid", "invalid_results"],
  seed: SEED,
});

// Every message has its SDK schemas: of its method, and in the SDK's union of what its sender
// sends (ClientRequestSchema, ServerNotificationSchema, ...), each way for a two-way message.
const SENT = {
  client_to_server: { request: "ClientRequestSchema", notification: "ClientNotificationSchema" },
  server_to_client: { request: "ServerRequestSchema", notification: "ServerNotificationSchema" },
};
const judges = new Map();
const problems = [];
for (const { method, file } of perMessage) {
  const message = files.get(file);
  const names = SDK_SCHEMAS[method];
  if (!names) {
    problems.push(`${method}: no SDK schema in SDK_SCHEMAS`);
    continue;
  }
  const [envelope, ...results] = names.map(sdkSchema);
  const kind = message["x-kind"];
  if (envelope.shape?.method?.value !== method) problems.push(`${method}: ${names[0]} is the schema of ${envelope.shape?.method?.value}`);
  if (!results.length !== !message["x-result"]) problems.push(`${method}: x-result and the SDK's result schemas disagree`);
  for (const direction of [message["x-direction"]].flat()) {
    const union = SENT[direction]?.[kind];
    if (!union || !sdkSchema(union).options.includes(envelope)) problems.push(`${method}: ${direction} ${kind}, but not in the SDK's ${union ?? "unions"}`);
  }
  const resultsWhen = {};
  for (const member of Object.keys(message["x-result-when"] ?? {})) {
    if (!RESULT_WHEN[member]) problems.push(`${method}: x-result-when ${member} has no SDK schema in RESULT_WHEN`);
    else resultsWhen[member] = RESULT_WHEN[member].map(sdkSchema);
  }
  judges.set(method, { kind, envelope, results, resultsWhen });
}
for (const method of Object.keys(SDK_SCHEMAS)) {
  if (!judges.has(method)) problems.push(`${method}: in SDK_SCHEMAS but not a message of schema/mcp`);
}
if (problems.length) {
  for (const p of problems) console.log(`FAIL ${p}`);
  process.exit(1);
}

function zodWhy(error) {
  const issue = error?.issues?.[0];
  if (!issue) return String(error);
  return `/${issue.path.join("/")}: ${issue.message}`;
}
function sdkVerdict(item) {
  const judge = judges.get(item.message);
  const instance = structuredClone(item.instance); // zod's preprocess steps must not touch the corpus
  if (item.kind === "result") {
    let first;
    for (const schema of item.when ? judge.resultsWhen[item.when] : judge.results) {
      const r = schema.safeParse(instance);
      if (r.success) return { valid: true };
      first ??= r.error;
    }
    return { valid: false, why: zodWhy(first) };
  }
  const rpc = judge.kind === "request" ? sdk.JSONRPCRequestSchema : sdk.JSONRPCNotificationSchema;
  for (const schema of [rpc, judge.envelope]) {
    const r = schema.safeParse(instance);
    if (!r.success) return { valid: false, why: zodWhy(r.error) };
  }
  return { valid: true };
}

// ----------------------------------------------------------------------------- our verdicts
// `differential_test <corpus> --verdicts` prints "<index> valid|invalid [<why>]" per item.
function rpckitVerdicts() {
  writeFileSync(OUT, JSON.stringify({ schema: join(SCHEMA_DIR, "protocol.json"), seed: SEED, items }));
  let text;
  try {
    text = execFileSync(DRIVER, [OUT, "--verdicts"], { encoding: "utf8", maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "pipe"] });
  } catch (e) {
    console.error(`mcp_sdk.mjs: ${DRIVER} --verdicts failed (exit ${e.status}): ${e.stderr ?? e.message}`);
    process.exit(2);
  }
  const verdicts = new Array(items.length);
  for (const line of text.split("\n")) {
    const m = /^(\d+) (valid|invalid)(?: ([\s\S]*))?$/.exec(line);  // a reason may hold U+2028
    if (m) verdicts[Number(m[1])] = { valid: m[2] === "valid", why: m[3] };
  }
  const missing = verdicts.findIndex((v) => v === undefined);
  if (verdicts.length !== items.length || missing >= 0 || verdicts.includes(undefined)) {
    console.error(`mcp_sdk.mjs: ${DRIVER} --verdicts gave no verdict for item ${missing}`);
    process.exit(2);
  }
  return verdicts;
}

// ----------------------------------------------------------------------------- comparison
const ours = rpckitVerdicts();
const used = new Map(KNOWN.map((k) => [k, 0]));
const unexplained = [];
const figures = { items: 0, sdkValid: 0, oursValid: 0, agree: 0, disagree: 0 };
items.forEach((item, i) => {
  const theirs = sdkVerdict(item);
  const mine = ours[i];
  figures.items++;
  if (theirs.valid) figures.sdkValid++;
  if (mine.valid) figures.oursValid++;
  if (theirs.valid === mine.valid) {
    figures.agree++;
    return;
  }
  figures.disagree++;
  const accepts = theirs.valid ? "sdk" : "rpckit";
  const entry = KNOWN.find((k) => k.accepts === accepts && (k.message === undefined || k.message === item.message) &&
    (k.kind === undefined || k.kind === item.kind) && k.mutation.test(item.mutation) && (!k.when || k.when(item)));
  if (entry) used.set(entry, used.get(entry) + 1);
  else unexplained.push({ message: item.message, kind: item.kind, mutation: item.mutation, accepts, sdk: theirs.why, rpckit: mine.why, instance: item.instance });
});

const shorten = (text, max = 400) => (text.length <= max ? text : `${text.slice(0, max)}... (${text.length} chars)`);
for (const u of unexplained.slice(0, 40)) {
  console.log(`UNEXPLAINED ${u.message} ${u.kind}: ${u.mutation}\n  ${u.accepts} accepts; ` +
    `${u.accepts === "sdk" ? `rpckit: ${u.rpckit}` : `sdk: ${u.sdk}`}\n  payload: ${shorten(JSON.stringify(u.instance))}`);
}
if (unexplained.length > 40) console.log(`... and ${unexplained.length - 40} more unexplained disagreements`);
if (DUMP) writeFileSync(DUMP, JSON.stringify(unexplained, null, 1));
const unused = KNOWN.filter((k) => used.get(k) === 0);
for (const k of unused) console.log(`UNUSED known difference "${k.id}": it explains no disagreement (remove or fix it)`);

console.log(`mcp-sdk differential: ${figures.items} items over ${perMessage.length} messages (${SDK_PACKAGE}@${SDK_VERSION})`);
console.log(`  sdk:    ${figures.sdkValid} valid, ${figures.items - figures.sdkValid} invalid`);
console.log(`  rpckit: ${figures.oursValid} valid, ${figures.items - figures.oursValid} invalid`);
console.log(`  ${figures.agree} agreements, ${figures.disagree} disagreements: ` +
  `${figures.disagree - unexplained.length} explained, ${unexplained.length} unexplained`);
for (const k of KNOWN) console.log(`    ${String(used.get(k)).padStart(6)}  ${k.id} (${k.accepts} accepts)`);
const ok = unexplained.length === 0 && unused.length === 0 && figures.items > 0;
console.log(ok ? "mcp-sdk differential: OK" : "mcp-sdk differential: FAILED");
process.exit(ok ? 0 : 1);
