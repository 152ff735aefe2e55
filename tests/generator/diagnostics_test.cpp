// One negative test per diagnostic of the load and lower layers: a minimal bad schema (a valid
// base schema with one change, written to a temp dir) and the exact message, file and JSON
// pointer included. DiagnosticCoverage reads generator/src/load and generator/src/lower and
// fails when a message there is not exercised by a case below, so a new diagnostic needs a
// test here.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <map>
#include <regex>

#include "ir/dump.hpp"
#include "lower/lower.hpp"
#include "model.hpp"
#include "support.hpp"

namespace rpckit::gen::test {
namespace {

using J = nlohmann::ordered_json;

// A schema as files: parsed JSON documents plus raw text overrides (for invalid JSON).
struct SchemaFiles {
  std::map<std::string, J> json;
  std::map<std::string, std::string> raw;

  J& operator[](const std::string& path) { return json.at(path); }
  void write(const fs::path& dir) const {
    for (const auto& [path, doc] : json) write_file(dir / path, doc.dump(2) + "\n");
    for (const auto& [path, text] : raw) write_file(dir / path, text);
  }
};

// The smallest schema that exercises every layer: a request with params and result, a type
// file, an integer error-code enum, and two constants. It lowers without error.
SchemaFiles base() {
  SchemaFiles s;
  s.json["protocol.json"] = J::parse(R"({
    "x-namespace": "diag",
    "x-module": "diag",
    "x-roles": ["a", "b"],
    "x-error-codes": "errors.json#/definitions/Code",
    "x-messages": ["messages/m.json"],
    "x-types": ["types/t.json", "errors.json"],
    "type": "object",
    "properties": {
      "timeout_ms": {"type": "integer", "const": 5, "x-unit": "ms"},
      "count": {"type": "integer", "const": 2}
    }
  })");
  s.json["messages/m.json"] = J::parse(R"({
    "x-kind": "request",
    "x-direction": "a_to_b",
    "x-result": {"$ref": "#/definitions/MResult"},
    "type": "object",
    "required": ["params"],
    "properties": {"method": {"const": "m"}, "params": {"$ref": "#/definitions/MParams"}},
    "definitions": {
      "MParams": {"type": "object", "properties": {}},
      "MResult": {"type": "object", "properties": {}}
    }
  })");
  s.json["types/t.json"] = J::parse(R"({
    "title": "T", "type": "object", "properties": {"x": {"type": "string"}}
  })");
  s.json["errors.json"] = J::parse(R"({
    "definitions": {"Code": {"type": "integer", "enum": [1], "x-enum-names": ["oops"]}}
  })");
  return s;
}

struct DiagnosticCase {
  std::string name;
  std::function<void(SchemaFiles&)> change;
  std::string expected;
};

void PrintTo(const DiagnosticCase& c, std::ostream* os) { *os << c.name; }

J& x(SchemaFiles& s) { return s["types/t.json"]["properties"]["x"]; }
J& msg(SchemaFiles& s) { return s["messages/m.json"]; }
// Gives m an optional param `task` answered with MResult (x-result-when), and a second message
// n, listed after m, whose method "m_with_task" maps to the descriptor name of that entry.
void with_task_entry(SchemaFiles& s) {
  msg(s)["definitions"]["MParams"]["properties"]["task"] = J::parse(R"({"type": "string"})");
  msg(s)["x-result-when"] = J::parse(R"({"task": {"$ref": "#/definitions/MResult"}})");
  J n = msg(s);
  n.erase("x-result-when");
  n["properties"]["method"]["const"] = "m_with_task";
  n["properties"]["params"]["$ref"] = "#/definitions/NParams";
  n["x-result"]["$ref"] = "#/definitions/NResult";
  n["definitions"] = J::parse(R"({"NParams": {"type": "object", "properties": {}},
                                  "NResult": {"type": "object", "properties": {}}})");
  s.json["messages/n.json"] = n;
  s["protocol.json"]["x-messages"] = J::array({"messages/m.json", "messages/n.json"});
}
// Gives the base schema a valid profile and returns it, to be broken by a case.
J& profile(SchemaFiles& s) {
  J& p = s["protocol.json"]["x-profile"];
  p = J::parse(R"({"framing": "ndjson", "max_frame_bytes": "count",
                   "ids": {"send": "string", "accept": ["string"]}, "spawned": "b",
                   "lifecycle": {"handshake": "m"}, "stops_on": ["stdin_eof"],
                   "oversize": "close", "stop": ["close_stdin", {"wait": "timeout_ms"}, "kill"],
                   "timings": {"handshake_timeout": "timeout_ms",
                               "handshake_failure_exit_wait": "none",
                               "restarts_in_window": "none"}})");
  return p;
}
// Gives the base schema a valid profile, a string member `v` in m's result and a string
// constant `spoken`, and returns the profile's "version" naming them, to be broken by a case.
J& version(SchemaFiles& s) {
  s["messages/m.json"]["definitions"]["MResult"]["properties"]["v"] =
      J::parse(R"({"type": "string"})");
  s["protocol.json"]["properties"]["spoken"] = J::parse(R"({"type": "string", "const": "1.0"})");
  J& v = profile(s)["version"];
  v = J::parse(R"({"result": "v", "constant": "spoken", "accepts": "major"})");
  return v;
}
// Adds a message `method` going `direction` (one, or an array), with empty params (named
// <method>Params: type names are unique across files); a request also gets an empty result.
void add_message(SchemaFiles& s, const std::string& method, const J& direction,
                 bool request = false) {
  const std::string params = method + "Params", result = method + "Result";
  const J empty = {{"type", "object"}, {"properties", J::object()}};
  J doc = {{"x-kind", request ? "request" : "notification"},
           {"x-direction", direction},
           {"type", "object"},
           {"properties",
            {{"method", {{"const", method}}}, {"params", {{"$ref", "#/definitions/" + params}}}}},
           {"definitions", {{params, empty}}}};
  if (request) {
    doc["x-result"] = {{"$ref", "#/definitions/" + result}};
    doc["definitions"][result] = empty;
  }
  s.json["messages/" + method + ".json"] = std::move(doc);
  s["protocol.json"]["x-messages"].push_back("messages/" + method + ".json");
}
// Gives the base schema a valid profile with a handshake-done notification "d" (a to b) and a
// notification "n" the spawned role b sends, and returns the profile's "before_handshake_done"
// listing "n", to be broken by a case.
J& early(SchemaFiles& s) {
  add_message(s, "d", "a_to_b");
  add_message(s, "n", "b_to_a");
  J& p = profile(s);
  p["lifecycle"]["handshake_done"] = "d";
  J& e = p["before_handshake_done"];
  e = J::array({"n"});
  return e;
}
// Gives the base schema a valid profile whose handshake params hold the grant "g", and returns
// its "gate_on_receipt" (capability clauses answered "oops"), to be broken by a case.
J& on_receipt(SchemaFiles& s) {
  J& p = profile(s);
  p["grant"] = "g";
  J& r = p["gate_on_receipt"];
  r = J::parse(R"({"capability": "oops"})");
  return r;
}
// Gives the base schema a valid one-shot exchange (T gains the discriminator `kind`) and
// returns it, to be broken by a case.
J& exchange(SchemaFiles& s) {
  s["types/t.json"]["properties"]["kind"] = J::parse(R"({"const": "t"})");
  J& x = s["protocol.json"]["x-exchange"];
  x = J::parse(R"({"framing": "ndjson", "max_frame_bytes": "count", "spawned": "b",
                   "discriminator": "kind",
                   "steps": [{"from": "a", "type": "T"}, {"from": "b", "type": "T", "within": "timeout_ms"}],
                   "ends": "stdin_eof", "timings": {"invoke": "timeout_ms"}})");
  return x;
}
// Gives the base schema a valid profile and a notification "c" whose params a "cancel" key
// may name ({requestId: string, why: integer, flag: boolean}), and returns the profile's "cancel",
// to be broken by a case.
J& cancel(SchemaFiles& s) {
  s.json["messages/c.json"] = J::parse(R"({
    "x-kind": "notification", "x-direction": "a_to_b", "type": "object",
    "properties": {"method": {"const": "c"}, "params": {"$ref": "#/definitions/CParams"}},
    "definitions": {"CParams": {"type": "object", "properties": {
      "requestId": {"type": "string"}, "why": {"type": "integer"}, "flag": {"type": "boolean"}}}}
  })");
  s["protocol.json"]["x-messages"].push_back("messages/c.json");
  J& c = profile(s)["cancel"];
  c = J::parse(R"({"notification": "c", "id_member": "requestId"})");
  return c;
}
// The same notification "c", and a member "_meta" in the request's params, for a "progress"
// key naming them; returns it, to be broken by a case.
J& progress(SchemaFiles& s) {
  cancel(s);
  profile(s).erase("cancel");
  msg(s)["definitions"]["MParams"]["properties"]["_meta"] = J::parse(R"({"type": "object"})");
  J& p = s["protocol.json"]["x-profile"]["progress"];
  p = J::parse(R"({"notification": "c", "token_member": "requestId",
                   "request_token": "_meta.token"})");
  return p;
}
J& prop(SchemaFiles& s, const char* name) { return s["protocol.json"]["properties"][name]; }

const std::vector<DiagnosticCase>& cases() {
  static const std::vector<DiagnosticCase> all = {
      // ---- load layer ----------------------------------------------------------------------
      {"ListNotArray", [](SchemaFiles& s) { s["protocol.json"]["x-types"] = "types/t.json"; },
       "protocol.json#/x-types: expected an array of file paths, got \"types/t.json\""},
      {"ListEntryNotString",
       [](SchemaFiles& s) { s["protocol.json"]["x-messages"] = J::array({5}); },
       "protocol.json#/x-messages/0: expected a file path, got 5"},
      {"ListedFileMissing",
       [](SchemaFiles& s) { s["protocol.json"]["x-types"].push_back("types/missing.json"); },
       "types/missing.json#: cannot read file"},
      {"InvalidJson",
       [](SchemaFiles& s) {
         s.json.erase("types/t.json");
         s.raw["types/t.json"] = "{\"title\": }";
       },
       "types/t.json#: invalid JSON: [json.exception.parse_error.101] parse error at line 1, "
       "column 11: syntax error while parsing value - unexpected '}'; expected '[', '{', or a "
       "literal"},
      {"InvalidJsonInReferencedFile",
       [](SchemaFiles& s) {
         x(s) = J::parse(R"({"$ref": "bad.json"})");
         s.raw["types/bad.json"] = "[1,";
       },
       "types/t.json#/properties/x/$ref: cannot load referenced file: types/bad.json#: invalid "
       "JSON: [json.exception.parse_error.101] parse error at line 1, column 4: syntax error "
       "while parsing value - unexpected end of input; expected '[', '{', or a literal"},
      {"ProblemInReferencedFileIsReportedThere",
       [](SchemaFiles& s) {
         x(s) = J::parse(R"({"$ref": "u.json"})");
         s.json["types/u.json"] = J::parse(R"({"title": "U", "type": "string", "format2": 1})");
       },
       "types/u.json#/format2: unsupported keyword \"format2\""},
      {"SchemaNotObject", [](SchemaFiles& s) { x(s) = 5; },
       "types/t.json#/properties/x: expected a schema object, got 5"},
      {"SchemaMapNotObject", [](SchemaFiles& s) { s["types/t.json"]["properties"] = J::array(); },
       "types/t.json#/properties: expected an object of schemas, got []"},
      {"SchemaArrayNotArray", [](SchemaFiles& s) { x(s) = J::parse(R"({"oneOf": {}})"); },
       "types/t.json#/properties/x/oneOf: expected an array of schemas, got {}"},
      {"UnsupportedKeyword", [](SchemaFiles& s) { x(s)["patternProperties"] = J::object(); },
       "types/t.json#/properties/x/patternProperties: unsupported keyword \"patternProperties\""},
      {"UnsupportedKeywordEscapedPointer",
       [](SchemaFiles& s) {
         s["types/t.json"]["properties"]["a/b~c"] = J::parse(R"({"type": "string", "$id": "x"})");
       },
       "types/t.json#/properties/a~1b~0c/$id: unsupported keyword \"$id\""},
      {"UnsupportedKeywordInMessageResult",
       [](SchemaFiles& s) { msg(s)["x-result"]["allOf"] = J::array(); },
       "messages/m.json#/x-result/allOf: unsupported keyword \"allOf\""},
      {"NotOtherThanPattern",
       [](SchemaFiles& s) { x(s) = J::parse(R"({"type": "string", "not": {"minLength": 3}})"); },
       "types/t.json#/properties/x/not: only {\"pattern\": ...} is supported under \"not\", got "
       "{\"minLength\":3}"},
      {"PatternNotLinear",
       [](SchemaFiles& s) { x(s) = J::parse(R"j({"type": "string", "pattern": "^(a)\\1$"})j"); },
       "types/t.json#/properties/x/pattern: pattern not supported at offset 4: backreferences "
       "cannot run in linear time"},
      {"NotPatternNotLinear",
       [](SchemaFiles& s) {
         x(s) = J::parse(R"j({"type": "string", "not": {"pattern": "a(?=b)"}})j");
       },
       "types/t.json#/properties/x/not/pattern: pattern not supported at offset 1: lookahead "
       "cannot run in linear time"},
      {"PatternDoesNotCompile",
       [](SchemaFiles& s) { x(s) = J::parse(R"({"type": "string", "pattern": "(a"})"); },
       "types/t.json#/properties/x/pattern: pattern does not compile: missing ): (a"},
      {"ErrorMessagesNotObject",
       [](SchemaFiles& s) {
         x(s) = J::parse(R"({"type": "string", "pattern": "^a", "x-error-messages": "no"})");
       },
       "types/t.json#/properties/x/x-error-messages: expected an object of keyword: message, "
       "got \"no\""},
      {"ErrorMessageForOtherKeyword",
       [](SchemaFiles& s) {
         x(s) = J::parse(
             R"({"type": "string", "maxLength": 3, "x-error-messages": {"maxLength": "short"}})");
       },
       "types/t.json#/properties/x/x-error-messages/maxLength: only \"pattern\" and \"not\" take "
       "a message"},
      {"ErrorMessageForAbsentKeyword",
       [](SchemaFiles& s) {
         x(s) = J::parse(R"({"type": "string", "pattern": "^a", "x-error-messages": {"not": "x"}})");
       },
       "types/t.json#/properties/x/x-error-messages/not: no \"not\" on this schema to explain"},
      {"ErrorMessageEmpty",
       [](SchemaFiles& s) {
         x(s) = J::parse(
             R"({"type": "string", "pattern": "^a", "x-error-messages": {"pattern": ""}})");
       },
       "types/t.json#/properties/x/x-error-messages/pattern: expected a non-empty string, got "
       "\"\""},
      {"RefNotString", [](SchemaFiles& s) { x(s) = J::parse(R"({"$ref": 5})"); },
       "types/t.json#/properties/x/$ref: expected a string, got 5"},
      {"RefFileMissing", [](SchemaFiles& s) { x(s) = J::parse(R"({"$ref": "missing.json"})"); },
       "types/t.json#/properties/x/$ref: cannot load referenced file: types/missing.json#: "
       "cannot read file"},
      {"RefNotRelative",
       [](SchemaFiles& s) { x(s) = J::parse(R"({"$ref": "http://example.com/a.json"})"); },
       "types/t.json#/properties/x/$ref: only relative file references are supported, got "
       "\"http://example.com/a.json\""},
      {"RefAbsolutePath", [](SchemaFiles& s) { x(s) = J::parse(R"({"$ref": "/etc/a.json"})"); },
       "types/t.json#/properties/x/$ref: only relative file references are supported, got "
       "\"/etc/a.json\""},
      {"RefPointsAtNothing",
       [](SchemaFiles& s) { x(s) = J::parse(R"({"$ref": "#/definitions/Nope"})"); },
       "types/t.json#/properties/x/$ref: reference \"#/definitions/Nope\" points at nothing"},
      {"ErrorCodesPointAtNothing",
       [](SchemaFiles& s) { s["protocol.json"]["x-error-codes"] = "errors.json#/definitions/No"; },
       "protocol.json#/x-error-codes: reference \"errors.json#/definitions/No\" points at "
       "nothing"},
      {"ErrorCodesFileNotLoaded",
       [](SchemaFiles& s) { s["protocol.json"]["x-types"] = J::array({"types/t.json"}); },
       "protocol.json#/x-error-codes: reference \"errors.json#/definitions/Code\" names "
       "errors.json, which is not loaded (list it in x-types)"},
      {"ErrorCodesNotRelative",
       [](SchemaFiles& s) { s["protocol.json"]["x-error-codes"] = "http://e.com/e.json#/C"; },
       "protocol.json#/x-error-codes: only relative file references are supported, got "
       "\"http://e.com/e.json#/C\""},

      // ---- lower: protocol file, constants ---------------------------------------------------
      {"MissingNamespace", [](SchemaFiles& s) { s["protocol.json"].erase("x-namespace"); },
       "protocol.json#: missing \"x-namespace\""},
      {"NamespaceNotString", [](SchemaFiles& s) { s["protocol.json"]["x-namespace"] = 5; },
       "protocol.json#/x-namespace: expected a string, got 5"},
      {"RolesNotArray", [](SchemaFiles& s) { s["protocol.json"]["x-roles"] = "a"; },
       "protocol.json#/x-roles: expected an array of strings, got \"a\""},
      {"RolesNotStrings", [](SchemaFiles& s) { s["protocol.json"]["x-roles"] = J::array({1}); },
       "protocol.json#/x-roles/0: expected a string, got 1"},
      {"ErrorCodesNotIntegerEnum",
       [](SchemaFiles& s) {
         s["errors.json"]["definitions"]["Code"] = J::parse(R"({"type": "string", "enum": ["a"]})");
       },
       "protocol.json#/x-error-codes: must reference an integer enum, got "
       "\"errors.json#/definitions/Code\""},
      {"ConstantWithoutConst", [](SchemaFiles& s) { prop(s, "count").erase("const"); },
       "protocol.json#/properties/count: a protocol constant needs \"const\""},
      {"EmptyArrayConstant", [](SchemaFiles& s) { prop(s, "count")["const"] = J::array(); },
       "protocol.json#/properties/count/const: an array constant cannot be empty"},
      {"UnitOtherThanMs", [](SchemaFiles& s) { prop(s, "timeout_ms")["x-unit"] = "s"; },
       "protocol.json#/properties/timeout_ms/x-unit: only \"ms\" is supported, got \"s\""},
      {"ArrayConstantMixedTypes",
       [](SchemaFiles& s) { prop(s, "count")["const"] = J::parse(R"([1, "a"])"); },
       "protocol.json#/properties/count/const: array items differ in type, got [1,\"a\"]"},
      {"DurationNotInteger", [](SchemaFiles& s) { prop(s, "timeout_ms")["const"] = "5"; },
       "protocol.json#/properties/timeout_ms/const: a duration (x-unit \"ms\") must be an "
       "integer number of ms, got \"5\""},
      {"ConstantNull", [](SchemaFiles& s) { prop(s, "count")["const"] = nullptr; },
       "protocol.json#/properties/count/const: a constant must be an integer, number, string or "
       "boolean, got null"},

      // ---- lower: declarations ---------------------------------------------------------------
      {"TitleNotString", [](SchemaFiles& s) { s["types/t.json"]["title"] = 5; },
       "types/t.json#/title: expected a string, got 5"},
      {"DeclaredTypeWithoutTitle", [](SchemaFiles& s) { s["types/t.json"].erase("title"); },
       "types/t.json#: a declared type needs a \"title\" (its C++ name)"},
      {"TypeNameUsedTwice",
       [](SchemaFiles& s) {
         s.json["types/u.json"] = J::parse(R"({"title": "T", "type": "object", "properties": {}})");
         s["protocol.json"]["x-types"].push_back("types/u.json");
       },
       "types/u.json#: type name \"T\" is already used by types/t.json#"},
      {"TypeNamedLikeTheRoleEnum", [](SchemaFiles& s) { s["types/t.json"]["title"] = "Role"; },
       "types/t.json#: type name \"Role\" is a name the generated code declares itself (the "
       "role enum, the protocol traits, a dispatch table or a role surface): give the type "
       "another title"},
      {"TypeNamedLikeADispatchTable", [](SchemaFiles& s) { s["types/t.json"]["title"] = "BToA"; },
       "types/t.json#: type name \"BToA\" is a name the generated code declares itself (the "
       "role enum, the protocol traits, a dispatch table or a role surface): give the type "
       "another title"},
      {"TypeFileOfAPrimitive",
       [](SchemaFiles& s) { s["types/t.json"] = J::parse(R"({"title": "T", "type": "string"})"); },
       "types/t.json#: cannot declare a type here"},
      {"MemberNameTwice",
       [](SchemaFiles& s) {
         s["types/t.json"]["properties"]["a-b"] = J::parse(R"({"type": "string"})");
         s["types/t.json"]["properties"]["a_b"] = J::parse(R"({"type": "string"})");
       },
       "types/t.json#/properties/a_b: C++ member name \"a_b\" is used twice in T"},
      {"MemberNameClashesWithDefaultAccessor",
       [](SchemaFiles& s) {
         x(s)["default"] = "d";
         s["types/t.json"]["properties"]["x_or_default"] = J::parse(R"({"type": "string"})");
       },
       "types/t.json#/properties/x_or_default: C++ member name \"x_or_default\" is used twice "
       "in T"},
      {"OpenStructWithAMemberNamedLikeItsMap",
       [](SchemaFiles& s) {
         s["types/t.json"]["properties"]["additional_properties"] =
             J::parse(R"({"type": "string"})");
         s["types/t.json"]["additionalProperties"] = J::object();
       },
       "types/t.json#/additionalProperties: an open struct keeps its other members in "
       "\"additional_properties\": a property of T has that C++ name"},
      {"RequiredWithoutProperty",
       [](SchemaFiles& s) { s["types/t.json"]["required"] = J::array({"y"}); },
       "types/t.json#/required: required field \"y\" has no schema in properties"},
      {"ErrorDataForAnUnknownErrorName",
       [](SchemaFiles& s) {
         s["errors.json"]["definitions"]["Code"]["x-error-data"] =
             J::parse(R"({"nope": {"type": "string"}})");
       },
       "errors.json#/definitions/Code/x-error-data/nope: \"nope\" is not an error name of Code "
       "(\"oops\")"},
      {"ErrorDataNotAnObject",
       [](SchemaFiles& s) { s["errors.json"]["definitions"]["Code"]["x-error-data"] = J::array(); },
       "errors.json#/definitions/Code/x-error-data: expected an object of schemas, got []"},
      {"ErrorDataWithConstraintsOfItsOwn",
       [](SchemaFiles& s) {
         s["errors.json"]["definitions"]["Code"]["x-error-data"] =
             J::parse(R"({"oops": {"type": "string", "minLength": 1}})");
       },
       "errors.json#/definitions/Code/x-error-data/oops: constraints on error data itself are "
       "not checked: make it a declared type (a $ref to an object) that holds them"},
      {"AnyOfRequiredListNamingNoProperty",
       [](SchemaFiles& s) {
         s["types/t.json"]["anyOf"] = J::parse(R"([{"required": ["x"]}, {"required": ["y"]}])");
       },
       "types/t.json#/anyOf/1/required/0: \"y\" is not a property of T: an alternative of an "
       "anyOf of required lists names its members"},
      {"AnyOfRequiredListsWithTooManyAlternatives",
       [](SchemaFiles& s) {
         J list = J::array();
         for (int i = 0; i < 9; ++i) list.push_back(J::parse(R"({"required": ["x"]})"));
         s["types/t.json"]["anyOf"] = list;
       },
       "types/t.json#/anyOf: an anyOf of required lists has at most 8 alternatives here, got 9"},
      {"AnyOfRequiredListNamingTooManyMembers",
       [](SchemaFiles& s) {
         s["types/t.json"]["anyOf"] =
             J::parse(R"([{"required": ["x", "x", "x", "x", "x", "x", "x", "x", "x"]}])");
       },
       "types/t.json#/anyOf/0/required: an alternative names at most 8 members here"},
      {"DefaultNotAnEnumValue",
       [](SchemaFiles& s) {
         x(s) = J::parse(R"({"type": "string", "enum": ["a", "b"], "default": "c"})");
       },
       "types/t.json#/properties/x/default: default is not one of the enum's values (\"a\", "
       "\"b\"), got \"c\""},
      {"DefaultNotString", [](SchemaFiles& s) { x(s)["default"] = 5; },
       "types/t.json#/properties/x/default: default does not match the type (string), got 5"},
      {"DefaultNotBoolean",
       [](SchemaFiles& s) { x(s) = J::parse(R"({"type": "boolean", "default": "yes"})"); },
       "types/t.json#/properties/x/default: default does not match the type (boolean), got "
       "\"yes\""},
      {"DefaultNotInteger",
       [](SchemaFiles& s) { x(s) = J::parse(R"({"type": "integer", "default": 1.5})"); },
       "types/t.json#/properties/x/default: default does not match the type (integer), got 1.5"},
      {"DefaultNotNumber",
       [](SchemaFiles& s) { x(s) = J::parse(R"({"type": "number", "default": "1"})"); },
       "types/t.json#/properties/x/default: default does not match the type (number), got \"1\""},
      {"EnumOfBooleans",
       [](SchemaFiles& s) { x(s) = J::parse(R"({"type": "boolean", "enum": [true]})"); },
       "types/t.json#/properties/x/type: enums must be of type string or integer, got "
       "\"boolean\""},
      {"EnumEmpty", [](SchemaFiles& s) { x(s) = J::parse(R"({"type": "string", "enum": []})"); },
       "types/t.json#/properties/x/enum: expected a non-empty array, got []"},
      {"EnumNamesCount",
       [](SchemaFiles& s) {
         x(s) = J::parse(R"({"type": "string", "enum": ["a", "b"], "x-enum-names": ["a"]})");
       },
       "types/t.json#/properties/x/x-enum-names: needs one name per enum value (2), got 1"},
      {"EnumDescriptionsCount",
       [](SchemaFiles& s) {
         x(s) = J::parse(R"({"type": "string", "enum": ["a"], "x-enum-descriptions": []})");
       },
       "types/t.json#/properties/x/x-enum-descriptions: needs one description per enum value "
       "(1), got 0"},
      {"IntegerEnumWithoutNames",
       [](SchemaFiles& s) { s["errors.json"]["definitions"]["Code"].erase("x-enum-names"); },
       "errors.json#/definitions/Code: an integer enum needs \"x-enum-names\""},
      {"IntegerEnumNotIntegers",
       [](SchemaFiles& s) { s["errors.json"]["definitions"]["Code"]["enum"] = J::array({1.5}); },
       "errors.json#/definitions/Code/enum/0: expected an integer, got 1.5"},
      {"StringEnumNotStrings",
       [](SchemaFiles& s) { x(s) = J::parse(R"({"type": "string", "enum": ["a", 1]})"); },
       "types/t.json#/properties/x/enum/1: expected a string, got 1"},
      {"EnumValueNamedUnknown",
       [](SchemaFiles& s) { x(s) = J::parse(R"({"type": "string", "enum": ["unknown"]})"); },
       "types/t.json#/properties/x/enum: value \"unknown\" would be named kUnknown, which open "
       "enums reserve"},
      {"EnumValuesSameName",
       [](SchemaFiles& s) { x(s) = J::parse(R"({"type": "string", "enum": ["a-b", "a_b"]})"); },
       "types/t.json#/properties/x/enum: values \"a-b\", \"a_b\" map to the same C++ name kAB"},

      // ---- lower: unions ---------------------------------------------------------------------
      {"UnionMemberNullable",
       [](SchemaFiles& s) {
         s["types/t.json"] = J::parse(
             R"({"title": "T", "anyOf": [{"type": ["string", "null"]}, {"type": "integer"}]})");
       },
       "types/t.json#/anyOf/0: union members cannot be nullable"},
      {"DiscriminatorValueTwice",
       [](SchemaFiles& s) {
         s["types/t.json"] = J::parse(R"({"title": "T", "x-discriminator": "kind", "oneOf": [
           {"title": "A", "type": "object", "properties": {"kind": {"const": "a"}}},
           {"title": "B", "type": "object", "properties": {"kind": {"const": "a"}}}]})");
       },
       "types/t.json#/oneOf/1: discriminator value \"a\" used twice"},
      {"UntaggedMembersSameKind",
       [](SchemaFiles& s) {
         s["types/t.json"] = J::parse(
             R"({"title": "T", "anyOf": [{"type": "string"}, {"type": "string", "maxLength": 3}]})");
       },
       "types/t.json#/anyOf/1: members of an untagged union must differ in JSON type (two are "
       "string)"},
      {"TaggedMemberWithoutTag",
       [](SchemaFiles& s) {
         s["types/t.json"] = J::parse(
             R"({"title": "T", "x-discriminator": "kind", "oneOf": [{"type": "string"}]})");
       },
       "types/t.json#/oneOf/0: a tagged union member must be an object whose \"kind\" property is "
       "a string const"},
      {"RecursiveUnion",
       [](SchemaFiles& s) {
         s["types/t.json"] = J::parse(R"({"title": "T", "anyOf": [
           {"type": "string"}, {"type": "array", "items": {"$ref": "#"}}]})");
       },
       "types/t.json#/anyOf/1: union member type is not declared yet (recursive union?)"},
      {"UnionInUnion",
       [](SchemaFiles& s) {
         s["types/t.json"] = J::parse(R"({"title": "T",
           "anyOf": [{"type": "string"}, {"$ref": "#/definitions/V"}],
           "definitions": {"V": {"anyOf": [{"type": "integer"}, {"type": "boolean"}]}}})");
       },
       "types/t.json#/anyOf/1: an untagged union cannot be a member of an untagged union"},
      {"TaggedUnionBesideAnObject",
       [](SchemaFiles& s) {
         s["types/t.json"] = J::parse(R"({"title": "T",
           "anyOf": [{"type": "object", "additionalProperties": {}}, {"$ref": "#/definitions/V"}],
           "definitions": {"V": {"x-discriminator": "k", "oneOf": [
             {"title": "A", "type": "object", "required": ["k"],
              "properties": {"k": {"const": "a"}}}]}}})");
       },
       "types/t.json#/anyOf/1: members of an untagged union must differ in JSON type (two are "
       "object)"},
      {"UntaggedMemberAny",
       [](SchemaFiles& s) {
         s["types/t.json"] = J::parse(R"({"title": "T", "anyOf": [{"type": "string"}, {}]})");
       },
       "types/t.json#/anyOf/1: an untagged union member cannot be \"any\""},

      // ---- lower: uses -----------------------------------------------------------------------
      {"TypeListOtherThanNullable",
       [](SchemaFiles& s) { x(s) = J::parse(R"({"type": ["string", "integer"]})"); },
       "types/t.json#/properties/x/type: a list of types is only supported as [<type>, "
       "\"null\"], got [\"string\",\"integer\"]"},
      {"NullableOfNullable",
       [](SchemaFiles& s) {
         x(s) = J::parse(R"({"oneOf": [{"type": ["string", "null"]}, {"type": "null"}]})");
       },
       "types/t.json#/properties/x: nullable of a type that already admits null"},
      {"InlineObjectWithoutTitle",
       [](SchemaFiles& s) {
         x(s) = J::parse(R"({"type": "object", "properties": {"y": {"type": "string"}}})");
       },
       "types/t.json#/properties/x: an inline object or union needs a \"title\" (its C++ name)"},
      {"NegativeLength",
       [](SchemaFiles& s) { x(s) = J::parse(R"({"type": "string", "minLength": -1})"); },
       "types/t.json#/properties/x/minLength: expected a non-negative integer, got -1"},
      {"MinimumNotNumber",
       [](SchemaFiles& s) { x(s) = J::parse(R"({"type": "integer", "minimum": "0"})"); },
       "types/t.json#/properties/x/minimum: expected a number, got \"0\""},
      {"UnsupportedFormat",
       [](SchemaFiles& s) { x(s) = J::parse(R"({"type": "string", "format": "email"})"); },
       "types/t.json#/properties/x/format: unsupported format \"email\" (expected \"date-time\" "
       "or \"uri\")"},
      {"UnsupportedType", [](SchemaFiles& s) { x(s) = J::parse(R"({"type": "float"})"); },
       "types/t.json#/properties/x/type: unsupported type \"float\" (expected one of "
       "\"string\", \"integer\", \"number\", \"boolean\", \"null\", \"object\", \"array\")"},
      {"TypeContainsItself", [](SchemaFiles& s) { x(s) = J::parse(R"({"$ref": "#"})"); },
       "types/t.json#: type T contains itself"},
      {"RefCycle",
       [](SchemaFiles& s) {
         x(s) = J::parse(R"({"$ref": "#/definitions/A"})");
         s["types/t.json"]["definitions"] =
             J::parse(R"({"A": {"$ref": "#/definitions/B"}, "B": {"$ref": "#/definitions/A"}})");
       },
       "types/t.json#/definitions/B/$ref: $ref cycle through types/t.json#/definitions/A"},
      {"RefToItself", [](SchemaFiles& s) { x(s) = J::parse(R"({"$ref": "#/properties/x"})"); },
       "types/t.json#/properties/x/$ref: $ref cycle through types/t.json#/properties/x"},

      // ---- lower: messages -------------------------------------------------------------------
      {"MessageWithoutProperties", [](SchemaFiles& s) { msg(s).erase("properties"); },
       "messages/m.json#: missing \"properties\""},
      {"MessageWithoutParams", [](SchemaFiles& s) { msg(s)["properties"].erase("params"); },
       "messages/m.json#/properties: missing \"params\""},
      {"MethodNotString", [](SchemaFiles& s) { msg(s)["properties"]["method"]["const"] = 1; },
       "messages/m.json#/properties/method/const: expected a string, got 1"},
      {"DescriptorNameTwice",
       [](SchemaFiles& s) {
         J other = msg(s);
         other["properties"]["method"]["const"] = "m_";
         other["definitions"] = J::parse(R"({
           "NParams": {"type": "object", "properties": {}},
           "NResult": {"type": "object", "properties": {}}})");
         other["properties"]["params"]["$ref"] = "#/definitions/NParams";
         other["x-result"]["$ref"] = "#/definitions/NResult";
         s.json["messages/n.json"] = other;
         s["protocol.json"]["x-messages"].push_back("messages/n.json");
       },
       "messages/n.json#/properties/method: method \"m_\" maps to the same descriptor name as "
       "\"m\""},
      {"UnknownKind", [](SchemaFiles& s) { msg(s)["x-kind"] = "event"; },
       "messages/m.json#/x-kind: expected \"request\" or \"notification\", got \"event\""},
      {"ParamsNotObject",
       [](SchemaFiles& s) { msg(s)["properties"]["params"] = J::parse(R"({"type": "string"})"); },
       "messages/m.json#/properties/params: params must be an object type, got "
       "{\"type\":\"string\"}"},
      {"RequestWithoutResult", [](SchemaFiles& s) { msg(s).erase("x-result"); },
       "messages/m.json#: a request needs \"x-result\""},
      {"NotificationWithResult", [](SchemaFiles& s) { msg(s)["x-kind"] = "notification"; },
       "messages/m.json#: a notification has no \"x-result\""},
      {"NotificationWithDeadline",
       [](SchemaFiles& s) {
         msg(s)["x-kind"] = "notification";
         msg(s).erase("x-result");
         msg(s)["x-deadline"] = "timeout_ms";
       },
       "messages/m.json#/x-deadline: only requests have a deadline"},
      {"DeadlineNotDuration", [](SchemaFiles& s) { msg(s)["x-deadline"] = "count"; },
       "messages/m.json#/x-deadline: \"count\" is not a duration constant (x-unit \"ms\") of "
       "the protocol (the protocol has \"timeout_ms\")"},
      {"DeadlineUnknown", [](SchemaFiles& s) { msg(s)["x-deadline"] = "nope_ms"; },
       "messages/m.json#/x-deadline: \"nope_ms\" is not a duration constant (x-unit \"ms\") of "
       "the protocol (the protocol has \"timeout_ms\")"},
      {"DefaultDeadlineNotAName",
       [](SchemaFiles& s) {
         msg(s).erase("x-deadline");
         s["protocol.json"]["x-default-deadline"] = 5;
       },
       "protocol.json#/x-default-deadline: expected the name of a duration constant, got 5"},
      {"DefaultDeadlineUnknown",
       [](SchemaFiles& s) {
         msg(s).erase("x-deadline");
         s["protocol.json"]["x-default-deadline"] = "nope_ms";
       },
       "protocol.json#/x-default-deadline: \"nope_ms\" is not a duration constant (x-unit "
       "\"ms\") of the protocol (the protocol has \"timeout_ms\")"},
      // ---- lower: x-result-when -------------------------------------------------------------
      {"ResultWhenNotAnObject", [](SchemaFiles& s) { msg(s)["x-result-when"] = J::array(); },
       "messages/m.json#/x-result-when: expected an object of schemas, got []"},
      {"ResultWhenEmpty", [](SchemaFiles& s) { msg(s)["x-result-when"] = J::object(); },
       "messages/m.json#/x-result-when: expected {\"<params member>\": <the result a request "
       "carrying it gets>}, got {}"},
      {"ResultWhenOnANotification",
       [](SchemaFiles& s) {
         msg(s)["x-kind"] = "notification";
         msg(s).erase("x-result");
         msg(s)["x-result-when"] = J::parse(R"({"task": {"type": "object"}})");
       },
       "messages/m.json#/x-result-when: a notification has no result"},
      {"ResultWhenMemberNotInParams",
       [](SchemaFiles& s) {
         msg(s)["x-result-when"] = J::parse(R"({"task": {"$ref": "#/definitions/MResult"}})");
       },
       "messages/m.json#/x-result-when/task: m's params have no member \"task\""},
      {"ResultWhenMemberRequired",
       [](SchemaFiles& s) {
         J& params = msg(s)["definitions"]["MParams"];
         params["properties"]["task"] = J::parse(R"({"type": "string"})");
         params["required"] = J::array({"task"});
         msg(s)["x-result-when"] = J::parse(R"({"task": {"$ref": "#/definitions/MResult"}})");
       },
       "messages/m.json#/x-result-when/task: params.task is always there: every request would "
       "get this result"},
      {"ResultWhenDescriptorOfAnotherEntry",
       [](SchemaFiles& s) {
         J& params = msg(s)["definitions"]["MParams"];
         params["properties"]["task"] = J::parse(R"({"type": "string"})");
         params["properties"]["Task"] = J::parse(R"({"type": "string"})");
         msg(s)["x-result-when"] = J::parse(
             R"({"task": {"$ref": "#/definitions/MResult"}, "Task": {"$ref": "#/definitions/MResult"}})");
       },
       "messages/m.json#/x-result-when/Task: its descriptor MWithTask has the name of \"m\"'s "
       "x-result-when entry \"task\""},
      {"ResultWhenDescriptorOfAMessage",
       [](SchemaFiles& s) {
         with_task_entry(s);
         s["protocol.json"]["x-messages"] = J::array({"messages/n.json", "messages/m.json"});
       },
       "messages/m.json#/x-result-when/task: its descriptor MWithTask has the name of "
       "\"m_with_task\""},
      {"MessageNamedLikeAResultWhenDescriptor", [](SchemaFiles& s) { with_task_entry(s); },
       "messages/n.json#/properties/method: method \"m_with_task\" maps to the same descriptor "
       "name as \"m\"'s x-result-when entry \"task\""},
      // ---- lower: profile -------------------------------------------------------------------
      {"ProfileNotObject", [](SchemaFiles& s) { s["protocol.json"]["x-profile"] = 1; },
       "protocol.json#/x-profile: expected an object, got 1"},
      {"ProfileUnknownKey", [](SchemaFiles& s) { profile(s)["nope"] = 1; },
       "protocol.json#/x-profile/nope: unknown profile key"},
      {"ProfileResultGrantNotAResultMember",
       [](SchemaFiles& s) { profile(s)["result_grant"] = "capabilities"; },
       "protocol.json#/x-profile/result_grant: \"capabilities\" is not a member of the result "
       "of \"m\" ()"},
      {"ProfileVersionNotAResultMember", [](SchemaFiles& s) { version(s)["result"] = "w"; },
       "protocol.json#/x-profile/version/result: \"w\" is not a member of the result of \"m\" "
       "(\"v\")"},
      {"ProfileVersionConstantNotAString", [](SchemaFiles& s) { version(s)["constant"] = "count"; },
       "protocol.json#/x-profile/version/constant: \"count\" is not a string constant of "
       "protocol.json (\"spoken\")"},
      {"ProfileVersionAcceptsUnknown", [](SchemaFiles& s) { version(s)["accepts"] = "minor"; },
       "protocol.json#/x-profile/version/accepts: expected one of \"exact\", \"major\", got "
       "\"minor\""},
      {"ProfileVersionNotObject", [](SchemaFiles& s) { version(s) = "1.0"; },
       "protocol.json#/x-profile/version: expected {result, constant, accepts}, got \"1.0\""},
      {"ProfileVersionUnknownKey", [](SchemaFiles& s) { version(s)["param"] = "v"; },
       "protocol.json#/x-profile/version/param: unknown version key (result, constant, accepts)"},
      {"ProfileBeforeHandshakeDoneWithoutIt",
       [](SchemaFiles& s) {
         early(s);
         s["protocol.json"]["x-profile"]["lifecycle"].erase("handshake_done");
       },
       "protocol.json#/x-profile/before_handshake_done: needs lifecycle.handshake_done"},
      {"ProfileBeforeHandshakeDoneNotAnArray", [](SchemaFiles& s) { early(s) = "n"; },
       "protocol.json#/x-profile/before_handshake_done: expected an array of methods, got \"n\""},
      {"ProfileBeforeHandshakeDoneSentByTheSpawner",
       [](SchemaFiles& s) { early(s).push_back("m"); },
       "protocol.json#/x-profile/before_handshake_done/1: \"m\" is not sent by the spawned role "
       "(\"b\")"},
      {"ProfileBeforeHandshakeDoneTwice", [](SchemaFiles& s) { early(s).push_back("n"); },
       "protocol.json#/x-profile/before_handshake_done/1: \"n\" is listed twice"},
      {"ProfileBeforeHandshakeDoneUnknownMethod",
       [](SchemaFiles& s) { early(s) = J::array({"zz"}); },
       "protocol.json#/x-profile/before_handshake_done/0: \"zz\" is not a message of the "
       "protocol (\"m\", \"d\", \"n\")"},
      {"ProfileGateOnReceiptNotAnObject", [](SchemaFiles& s) { on_receipt(s) = "oops"; },
       "protocol.json#/x-profile/gate_on_receipt: expected {\"capability\", \"keyed\", "
       "\"param\": <error>}, got \"oops\""},
      {"ProfileGateOnReceiptWithoutDeclarations",
       [](SchemaFiles& s) {
         on_receipt(s);
         s["protocol.json"]["x-profile"].erase("grant");
       },
       "protocol.json#/x-profile/gate_on_receipt: needs \"grant\" or \"result_grant\": the "
       "declarations a receiver checks against"},
      {"ProfileGateOnReceiptUnknownKind", [](SchemaFiles& s) { on_receipt(s)["method"] = "oops"; },
       "protocol.json#/x-profile/gate_on_receipt/method: unknown gate_on_receipt key "
       "(\"capability\", \"keyed\", \"param\")"},
      {"ProfileGateOnReceiptUnknownError", [](SchemaFiles& s) { on_receipt(s)["keyed"] = "nope"; },
       "protocol.json#/x-profile/gate_on_receipt/keyed: unknown error name \"nope\" (the "
       "protocol has \"oops\")"},
      {"ProfileGateOnReceiptWithoutErrorCodes",
       [](SchemaFiles& s) {
         on_receipt(s);
         s["protocol.json"].erase("x-error-codes");
       },
       "protocol.json#/x-profile/gate_on_receipt: needs \"x-error-codes\" in the protocol file"},
      {"ProfileFramingUnknown", [](SchemaFiles& s) { profile(s)["framing"] = "xml"; },
       "protocol.json#/x-profile/framing: expected one of \"content-length\", \"ndjson\", got "
       "\"xml\""},
      {"ProfileFramingNotString", [](SchemaFiles& s) { profile(s)["framing"] = 1; },
       "protocol.json#/x-profile/framing: expected one of \"content-length\", \"ndjson\", got 1"},
      {"ProfileMaxFrameNotInteger",
       [](SchemaFiles& s) { profile(s)["max_frame_bytes"] = "timeout_ms"; },
       "protocol.json#/x-profile/max_frame_bytes: \"timeout_ms\" is not an integer constant of "
       "the protocol (the protocol has \"count\")"},
      {"ProfileAcceptEmpty", [](SchemaFiles& s) { profile(s)["ids"]["accept"] = J::array(); },
       "protocol.json#/x-profile/ids/accept: expected a non-empty array, got []"},
      {"ProfileSpawnedUnknown", [](SchemaFiles& s) { profile(s)["spawned"] = "c"; },
       "protocol.json#/x-profile/spawned: \"c\" is not a role of x-roles (\"a\", \"b\")"},
      {"ProfileWithThreeRoles",
       [](SchemaFiles& s) {
         profile(s);
         s["protocol.json"]["x-roles"] = J::array({"a", "b", "c"});
       },
       "protocol.json#/x-profile/spawned: a profile needs exactly two roles in x-roles"},
      {"ProfileLifecycleNotObject", [](SchemaFiles& s) { profile(s)["lifecycle"] = J::array(); },
       "protocol.json#/x-profile/lifecycle: expected an object, got []"},
      {"ProfileLifecycleUnknownKey", [](SchemaFiles& s) { profile(s)["lifecycle"]["boot"] = "m"; },
       "protocol.json#/x-profile/lifecycle/boot: unknown lifecycle message"},
      {"ProfileLifecycleUnknownMessage",
       [](SchemaFiles& s) { profile(s)["lifecycle"]["handshake"] = "nope"; },
       "protocol.json#/x-profile/lifecycle/handshake: \"nope\" is not a message of the protocol "
       "(\"m\")"},
      {"ProfileExitIsARequest", [](SchemaFiles& s) { profile(s)["lifecycle"]["exit"] = "m"; },
       "protocol.json#/x-profile/lifecycle/exit: expected a notification to the spawned role "
       "(\"b\") only, got \"m\": a request a_to_b"},
      {"ProfileHandshakeFromTheSpawnedRole", [](SchemaFiles& s) { profile(s)["spawned"] = "a"; },
       "protocol.json#/x-profile/lifecycle/handshake: expected a request to the spawned role "
       "(\"a\") only, got \"m\": a request a_to_b"},
      {"ProfileHandshakeBothWays",
       [](SchemaFiles& s) {
         profile(s);
         msg(s)["x-direction"] = J::array({"a_to_b", "b_to_a"});
       },
       "protocol.json#/x-profile/lifecycle/handshake: expected a request to the spawned role "
       "(\"b\") only, got \"m\": a request a_to_b, b_to_a"},
      {"ProfileHealthCheckIsANotification",
       [](SchemaFiles& s) {
         add_message(s, "d", "a_to_b");
         profile(s)["lifecycle"]["health_check"] = "d";
       },
       "protocol.json#/x-profile/lifecycle/health_check: expected a request to the spawned role "
       "(\"b\") or both ways, got \"d\": a notification a_to_b"},
      {"ProfileUnknownIdNotAChoice", [](SchemaFiles& s) { profile(s)["unknown_id"] = "drop"; },
       "protocol.json#/x-profile/unknown_id: expected one of \"null\", \"omit\", got \"drop\""},
      {"ProfileUnknownIdOmittedWithNullIds",
       [](SchemaFiles& s) {
         J& p = profile(s);
         p["unknown_id"] = "omit";
         p["ids"]["accept"] = J::array({"string", "null"});
       },
       "protocol.json#/x-profile/unknown_id: \"omit\" cannot tell an unknown id from a null one: "
       "ids.accept takes null"},
      {"CancelUnknownKey", [](SchemaFiles& s) { cancel(s)["when"] = "always"; },
       "protocol.json#/x-profile/cancel/when: unknown cancel key"},
      {"CancelByARequest", [](SchemaFiles& s) { cancel(s)["notification"] = "m"; },
       "protocol.json#/x-profile/cancel/notification: \"m\" is a request: a cancel is a "
       "notification"},
      {"CancelByNoMessage", [](SchemaFiles& s) { cancel(s)["notification"] = "nope"; },
       "protocol.json#/x-profile/cancel/notification: \"nope\" is not a message of the protocol "
       "(\"m\", \"c\")"},
      {"CancelIdMemberNotInParams", [](SchemaFiles& s) { cancel(s)["id_member"] = "id"; },
       "protocol.json#/x-profile/cancel/id_member: \"id\" is not a member of the params of "
       "\"c\" (\"requestId\", \"why\", \"flag\")"},
      {"CancelNotAnObject", [](SchemaFiles& s) { cancel(s) = "c"; },
       "protocol.json#/x-profile/cancel: expected {notification, id_member, reason_member, "
       "on_timeout}, got \"c\""},
      {"CancelIdMemberNotAnId", [](SchemaFiles& s) { cancel(s)["id_member"] = "flag"; },
       "protocol.json#/x-profile/cancel/id_member: \"flag\" cannot hold a request id"},
      {"CancelReasonNotAString", [](SchemaFiles& s) { cancel(s)["reason_member"] = "why"; },
       "protocol.json#/x-profile/cancel/reason_member: expected a string member"},
      {"CancelOnTimeoutNotAChoice", [](SchemaFiles& s) { cancel(s)["on_timeout"] = "always"; },
       "protocol.json#/x-profile/cancel/on_timeout: expected one of \"nothing\", \"cancel\", "
       "got \"always\""},
      {"ProgressNotAnObject", [](SchemaFiles& s) { progress(s) = "c"; },
       "protocol.json#/x-profile/progress: expected {notification, token_member, request_token}, "
       "got \"c\""},
      {"ProgressUnknownKey", [](SchemaFiles& s) { progress(s)["when"] = "always"; },
       "protocol.json#/x-profile/progress/when: unknown progress key"},
      {"ProgressByARequest", [](SchemaFiles& s) { progress(s)["notification"] = "m"; },
       "protocol.json#/x-profile/progress/notification: \"m\" is a request: a progress report is "
       "a notification"},
      {"ProgressTokenMemberNotAnId", [](SchemaFiles& s) { progress(s)["token_member"] = "flag"; },
       "protocol.json#/x-profile/progress/token_member: \"flag\" cannot hold a request id"},
      {"ProgressRequestTokenNotAPath",
       [](SchemaFiles& s) { progress(s)["request_token"] = "_meta."; },
       "protocol.json#/x-profile/progress/request_token: expected a dotted path of params "
       "members, such as \"_meta.progressToken\""},
      {"ProgressRequestTokenInNoRequest",
       [](SchemaFiles& s) { progress(s)["request_token"] = "meta.token"; },
       "protocol.json#/x-profile/progress/request_token: no request's params have a member "
       "\"meta\""},
      {"ProfileWithoutHandshake", [](SchemaFiles& s) { profile(s)["lifecycle"] = J::object(); },
       "protocol.json#/x-profile/lifecycle: missing \"handshake\""},
      {"ProfileStopsOnNotArray", [](SchemaFiles& s) { profile(s)["stops_on"] = "exit"; },
       "protocol.json#/x-profile/stops_on: expected an array, got \"exit\""},
      {"ProfileStopsOnExitWithoutExit",
       [](SchemaFiles& s) { profile(s)["stops_on"] = J::array({"exit"}); },
       "protocol.json#/x-profile/stops_on: \"exit\" needs lifecycle.exit"},
      {"ProfileStopsOnShutdownWithoutShutdown",
       [](SchemaFiles& s) { profile(s)["stops_on"] = J::array({"shutdown"}); },
       "protocol.json#/x-profile/stops_on: \"shutdown\" needs lifecycle.shutdown"},
      {"ErrorObjectsUnknownWord", [](SchemaFiles& s) { profile(s)["error_objects"] = "lenient"; },
       "protocol.json#/x-profile/error_objects: expected one of \"strict\", got \"lenient\""},
      {"ErrorObjectsNotObject", [](SchemaFiles& s) { profile(s)["error_objects"] = 1; },
       "protocol.json#/x-profile/error_objects: expected \"strict\" or {missing_code, "
       "missing_message}, got 1"},
      {"ErrorObjectsUnknownKey",
       [](SchemaFiles& s) {
         profile(s)["error_objects"] =
             J::parse(R"({"missing_code": "oops", "missing_message": "m", "x": 1})");
       },
       "protocol.json#/x-profile/error_objects/x: unknown error_objects key"},
      {"ErrorObjectsUnknownCode",
       [](SchemaFiles& s) {
         profile(s)["error_objects"] = J::parse(R"({"missing_code": "nope", "missing_message": "m"})");
       },
       "protocol.json#/x-profile/error_objects/missing_code: unknown error name \"nope\" (the "
       "protocol has \"oops\")"},
      {"ErrorObjectsWithoutErrorCodes",
       [](SchemaFiles& s) {
         profile(s)["error_objects"] = J::parse(R"({"missing_code": "oops", "missing_message": "m"})");
         s["protocol.json"].erase("x-error-codes");
       },
       "protocol.json#/x-profile/error_objects/missing_code: missing_code needs \"x-error-codes\" "
       "in the protocol file"},
      // ---- lower: exchange ------------------------------------------------------------------
      {"ExchangeUnknownKey", [](SchemaFiles& s) { exchange(s)["nope"] = 1; },
       "protocol.json#/x-exchange/nope: unknown exchange key"},
      {"ExchangeAndProfile",
       [](SchemaFiles& s) {
         profile(s);
         exchange(s);
       },
       "protocol.json#/x-exchange: a protocol has x-profile or x-exchange, not both"},
      {"ExchangeNeedsTwoRoles",
       [](SchemaFiles& s) {
         s["protocol.json"]["x-roles"] = J::array({"a", "b", "c"});
         exchange(s);
       },
       "protocol.json#/x-exchange/spawned: an exchange needs exactly two roles in x-roles"},
      {"ExchangeStepUnknownKey", [](SchemaFiles& s) { exchange(s)["steps"][0]["when"] = 1; },
       "protocol.json#/x-exchange/steps/0/when: unknown step key"},
      {"ExchangeStepTypeUnknown", [](SchemaFiles& s) { exchange(s)["steps"][0]["type"] = "Nope"; },
       "protocol.json#/x-exchange/steps/0/type: \"Nope\" is not an object type of the protocol "
       "(\"T\", \"MParams\", \"MResult\")"},
      {"ExchangeStepWithoutDiscriminator",
       [](SchemaFiles& s) { exchange(s)["discriminator"] = "x"; },
       "protocol.json#/x-exchange/steps/0/type: \"T\" has no \"x\" member with a string const "
       "(the discriminator)"},
      {"ExchangeStepFromUnknownRole", [](SchemaFiles& s) { exchange(s)["steps"][1]["from"] = "c"; },
       "protocol.json#/x-exchange/steps/1/from: \"c\" is not a role of x-roles (\"a\", \"b\")"},
      {"ExchangeFirstStepFromTheSpawned",
       [](SchemaFiles& s) { exchange(s)["steps"][0]["from"] = "b"; },
       "protocol.json#/x-exchange/steps/0/from: the first step must come from the spawner (\"a\")"},
      {"ExchangeFramingContentLength",
       [](SchemaFiles& s) { exchange(s)["framing"] = "content-length"; },
       "protocol.json#/x-exchange/framing: expected one of \"ndjson\", got \"content-length\""},
      {"ExchangeStepsEmpty", [](SchemaFiles& s) { exchange(s)["steps"] = J::array(); },
       "protocol.json#/x-exchange/steps: expected a non-empty array, got []"},
      {"ExchangeCorrelationInNoStep", [](SchemaFiles& s) { exchange(s)["correlation"] = "id"; },
       "protocol.json#/x-exchange/correlation: \"id\" is in no step's type"},
      {"ExchangeTimingUnknown",
       [](SchemaFiles& s) { exchange(s)["timings"]["boot"] = "timeout_ms"; },
       "protocol.json#/x-exchange/timings/boot: unknown exchange timing"},
      {"ExchangeWithinNotADuration",
       [](SchemaFiles& s) { exchange(s)["steps"][1]["within"] = "count"; },
       "protocol.json#/x-exchange/steps/1/within: \"count\" is not a duration constant (x-unit "
       "\"ms\") of the protocol (the protocol has \"timeout_ms\")"},
      {"ProfileTimingsNotObject", [](SchemaFiles& s) { profile(s)["timings"] = 1; },
       "protocol.json#/x-profile/timings: expected an object, got 1"},
      {"ProfileTimingUnknown",
       [](SchemaFiles& s) { profile(s)["timings"]["boot_timeout"] = "timeout_ms"; },
       "protocol.json#/x-profile/timings/boot_timeout: unknown timing"},
      {"ProfileTimingNotADuration",
       [](SchemaFiles& s) { profile(s)["timings"]["handshake_timeout"] = "count"; },
       "protocol.json#/x-profile/timings/handshake_timeout: \"count\" is not a duration "
       "constant (x-unit \"ms\") of the protocol (the protocol has \"timeout_ms\")"},
      {"ProfileTimingNotACount",
       [](SchemaFiles& s) { profile(s)["timings"]["restarts_in_window"] = "timeout_ms"; },
       "protocol.json#/x-profile/timings/restarts_in_window: \"timeout_ms\" is not an integer "
       "constant of the protocol (the protocol has \"count\")"},
      {"ProfileTimingNotDurations",
       [](SchemaFiles& s) {
         J& p = profile(s);
         p["timings"]["restarts_in_window"] = "count";
         p["timings"]["restart_backoff"] = "timeout_ms";
       },
       "protocol.json#/x-profile/timings/restart_backoff: \"timeout_ms\" is not an array of "
       "durations (x-unit \"ms\") of the protocol (the protocol has none)"},
      {"ProfileTimingExitGraceIsTheStopSequences",
       [](SchemaFiles& s) { profile(s)["timings"]["exit_grace"] = "timeout_ms"; },
       "protocol.json#/x-profile/timings/exit_grace: not used: the stop sequence's {\"wait\": "
       "...} steps say how long"},
      {"ProfileTimingMissing",
       [](SchemaFiles& s) { profile(s)["timings"].erase("handshake_timeout"); },
       "protocol.json#/x-profile/timings: missing \"handshake_timeout\" (a constant, or \"none\")"},
      {"ProfileExitWaitMissing",
       [](SchemaFiles& s) { profile(s)["timings"].erase("handshake_failure_exit_wait"); },
       "protocol.json#/x-profile/timings: missing \"handshake_failure_exit_wait\" (a constant, or "
       "\"none\")"},
      {"ProfileTimingThatCannotApply",
       [](SchemaFiles& s) { profile(s)["timings"]["health_check_interval"] = "timeout_ms"; },
       "protocol.json#/x-profile/timings/health_check_interval: not used: the protocol has no "
       "lifecycle.health_check"},
      {"ProfileHealthChecksWithoutMisses",
       [](SchemaFiles& s) {
         J& p = profile(s);
         p["lifecycle"]["health_check"] = "m";
         p["timings"]["health_check_interval"] = "timeout_ms";
         p["timings"]["health_check_misses"] = "none";
       },
       "protocol.json#/x-profile/timings/health_check_misses: a health_check_interval needs a "
       "count of misses"},
      // ---- lower: profile wire rules and stop sequence --------------------------------------
      {"ProfileIdsUnknownKey", [](SchemaFiles& s) { profile(s)["ids"]["order"] = 1; },
       "protocol.json#/x-profile/ids/order: unknown ids key"},
      {"ProfileIdMatchUnknown", [](SchemaFiles& s) { profile(s)["ids"]["match"] = "loose"; },
       "protocol.json#/x-profile/ids/match: expected one of \"exact\", \"string_form\", got "
       "\"loose\""},
      {"ProfileWithoutOversize", [](SchemaFiles& s) { profile(s).erase("oversize"); },
       "protocol.json#/x-profile: missing \"oversize\""},
      {"ProfileOversizeUnknown", [](SchemaFiles& s) { profile(s)["oversize"] = "truncate"; },
       "protocol.json#/x-profile/oversize: expected one of \"close\", \"discard\", \"answer\", "
       "got \"truncate\""},
      {"ProfilePerRoleNotObject", [](SchemaFiles& s) { profile(s)["not_json"] = 1; },
       "protocol.json#/x-profile/not_json: expected one of \"answer\", \"log\", or an object by "
       "receiving role, got 1"},
      {"ProfilePerRoleUnknownRole",
       [](SchemaFiles& s) { profile(s)["not_json"] = J::parse(R"({"c": "log"})"); },
       "protocol.json#/x-profile/not_json/c: \"c\" is not a role of x-roles (\"b\", \"a\")"},
      {"ProfilePerRoleMissingRole",
       [](SchemaFiles& s) { profile(s)["oversize"] = J::parse(R"({"a": "close"})"); },
       "protocol.json#/x-profile/oversize: missing \"b\""},
      {"ProfileStrayAnswerFromARequester",
       [](SchemaFiles& s) { profile(s)["stray_response"] = J::parse(R"({"a": "answer"})"); },
       "protocol.json#/x-profile/stray_response: \"a\" sends requests, so a response to it is "
       "not stray: it must be \"log\""},
      {"ProfileLineBreaksNeedNdjson",
       [](SchemaFiles& s) {
         J& p = profile(s);
         p["framing"] = "content-length";
         p["line_breaks"] = "any";
       },
       "protocol.json#/x-profile/line_breaks: \"any\" line breaks need ndjson framing"},
      {"ProfileErrorDataNotObject", [](SchemaFiles& s) { profile(s)["error_data"] = "reason"; },
       "protocol.json#/x-profile/error_data: expected {\"member\": ..., \"values\": {...}}, got "
       "\"reason\""},
      {"ProfileErrorDataUnknownKey",
       [](SchemaFiles& s) {
         profile(s)["error_data"] = J::parse(R"({"member": "r", "values": {}, "x": 1})");
       },
       "protocol.json#/x-profile/error_data/x: unknown error_data key"},
      {"ProfileErrorDataEmptyMember",
       [](SchemaFiles& s) {
         profile(s)["error_data"] = J::parse(R"({"member": "", "values": {}})");
       },
       "protocol.json#/x-profile/error_data/member: expected a member name, got \"\""},
      {"ProfileErrorDataUnknownError",
       [](SchemaFiles& s) {
         profile(s)["error_data"] = J::parse(R"({"member": "r", "values": {"timeout": "t"}})");
       },
       "protocol.json#/x-profile/error_data/values/timeout: unknown runtime error (expected one "
       "of \"parse_error\", \"batch\", \"invalid_request\", \"method_not_found\", "
       "\"invalid_params\", \"internal_error\")"},
      {"ProfileAfterShutdownWithoutShutdown",
       [](SchemaFiles& s) { profile(s)["after_shutdown"] = "ignore_input"; },
       "protocol.json#/x-profile/after_shutdown: after_shutdown needs lifecycle.shutdown"},
      {"ProfileAfterShutdownContradictsStopsOn",
       [](SchemaFiles& s) {
         J& p = profile(s);
         p["lifecycle"]["shutdown"] = "m";
         p["stops_on"] = J::array({"shutdown"});
         p["after_shutdown"] = "serve";
       },
       "protocol.json#/x-profile/after_shutdown: contradicts stops_on \"shutdown\""},
      {"ProfileStopNotArray", [](SchemaFiles& s) { profile(s)["stop"] = "kill"; },
       "protocol.json#/x-profile/stop: expected a non-empty array, got \"kill\""},
      {"ProfileStopWithoutKill",
       [](SchemaFiles& s) { profile(s)["stop"] = J::parse(R"(["close_stdin"])"); },
       "protocol.json#/x-profile/stop: the last step must be \"kill\" (so that every stop ends)"},
      {"ProfileStopAfterKill",
       [](SchemaFiles& s) { profile(s)["stop"] = J::parse(R"(["kill", "close_stdin"])"); },
       "protocol.json#/x-profile/stop/1: nothing can follow \"kill\""},
      {"ProfileStopWaitShape",
       [](SchemaFiles& s) {
         profile(s)["stop"] = J::parse(R"([{"sleep": "timeout_ms"}, "kill"])");
       },
       "protocol.json#/x-profile/stop/0: expected {\"wait\": <constant>}, got "
       "{\"sleep\":\"timeout_ms\"}"},
      {"ProfileStopShutdownWithoutShutdown",
       [](SchemaFiles& s) { profile(s)["stop"] = J::parse(R"(["shutdown", "kill"])"); },
       "protocol.json#/x-profile/stop/0: \"shutdown\" needs lifecycle.shutdown"},
      {"ProfileStopExitWithoutExit",
       [](SchemaFiles& s) { profile(s)["stop"] = J::parse(R"(["exit", "kill"])"); },
       "protocol.json#/x-profile/stop/0: \"exit\" needs lifecycle.exit"},
      {"ProfileStopClosesTwice",
       [](SchemaFiles& s) {
         profile(s)["stop"] = J::parse(R"(["close_stdin", "close_stdin", "kill"])");
       },
       "protocol.json#/x-profile/stop/1: stdin is closed already"},
      {"ProfileStopSendsAfterClosing",
       [](SchemaFiles& s) {
         J& p = profile(s);
         p["lifecycle"]["shutdown"] = "m";
         p["stop"] = J::parse(R"(["close_stdin", "shutdown", "kill"])");
       },
       "protocol.json#/x-profile/stop/1: cannot send once stdin is closed"},
      {"ProfileStopSigtermWithoutWait",
       [](SchemaFiles& s) { profile(s)["stop"] = J::parse(R"(["sigterm", "kill"])"); },
       "protocol.json#/x-profile/stop/0: \"sigterm\" needs a {\"wait\": ...} after it, or it "
       "is a kill"},
      {"DirectionUnknownRole", [](SchemaFiles& s) { msg(s)["x-direction"] = "a_to_c"; },
       "messages/m.json#/x-direction: expected \"<role>_to_<role>\" with roles from x-roles "
       "(\"a_to_b\", \"b_to_a\"), got \"a_to_c\""},
      {"DirectionsItemUnknownRole",
       [](SchemaFiles& s) {
         msg(s)["x-direction"] = J::array({"a_to_b", "b_to_c"});
       },
       "messages/m.json#/x-direction/1: expected \"<role>_to_<role>\" with roles from x-roles "
       "(\"a_to_b\", \"b_to_a\"), got \"b_to_c\""},
      {"DirectionsEmpty", [](SchemaFiles& s) { msg(s)["x-direction"] = J::array(); },
       "messages/m.json#/x-direction: expected at least one direction, got []"},
      {"DirectionListedTwice",
       [](SchemaFiles& s) {
         msg(s)["x-direction"] = J::array({"a_to_b", "a_to_b"});
       },
       "messages/m.json#/x-direction/1: direction \"a_to_b\" is listed twice"},
      {"GateNotArray", [](SchemaFiles& s) { msg(s)["x-gate"] = J::object(); },
       "messages/m.json#/x-gate: expected an array of gate clauses, got {}"},
      {"GateClauseShape",
       [](SchemaFiles& s) { msg(s)["x-gate"] = J::parse(R"([{"granted": "x"}])"); },
       "messages/m.json#/x-gate/0: expected {granted, value}, {granted, param}, {declared, "
       "param}, {capability}, {capability, param}, {capability, keyed_by, default} or "
       "{sender_capability}, got "
       "{\"granted\":\"x\"}"},
      {"SenderCapabilityTakesNothingElse",
       [](SchemaFiles& s) {
         msg(s)["x-gate"] = J::parse(R"([{"sender_capability": "x", "param": "y"}])");
       },
       "messages/m.json#/x-gate/0: expected {granted, value}, {granted, param}, {declared, "
       "param}, {capability}, {capability, param}, {capability, keyed_by, default} or "
       "{sender_capability}, got "
       "{\"sender_capability\":\"x\",\"param\":\"y\"}"},
      {"KeyedCapabilityNeedsADefault",
       [](SchemaFiles& s) {
         msg(s)["x-gate"] = J::parse(R"([{"capability": "x", "keyed_by": "mode"}])");
       },
       "messages/m.json#/x-gate/0: expected {granted, value}, {granted, param}, {declared, "
       "param}, {capability}, {capability, param}, {capability, keyed_by, default} or "
       "{sender_capability}, got "
       "{\"capability\":\"x\",\"keyed_by\":\"mode\"}"},
      {"ErrorsWithoutErrorCodes",
       [](SchemaFiles& s) {
         s["protocol.json"].erase("x-error-codes");
         msg(s)["x-errors"] = J::array({"oops"});
       },
       "messages/m.json#/x-errors: x-errors needs \"x-error-codes\" in the protocol file"},
      {"TypeSchemasNotABoolean",
       [](SchemaFiles& s) { s["protocol.json"]["x-type-schemas"] = "yes"; },
       "protocol.json#/x-type-schemas: expected true or false, got \"yes\""},
      {"UnknownErrorName", [](SchemaFiles& s) { msg(s)["x-errors"] = J::array({"nope"}); },
       "messages/m.json#/x-errors/0: unknown error name \"nope\" (the protocol has \"oops\")"},
  };
  return all;
}

// Loads and lowers `files`; returns the SchemaError's text, or "" when nothing was raised.
std::string diagnostic_of(const SchemaFiles& files, const std::string& tag) {
  TempDir dir(tag);
  files.write(dir.path());
  try {
    lower(SchemaSet::load(dir.path() / "protocol.json"));
  } catch (const SchemaError& e) {
    return e.what();
  }
  return "";
}

TEST(Diagnostics, BaseSchemaIsValid) {
  EXPECT_EQ(diagnostic_of(base(), "base"), "");
  ASSERT_GE(cases().size(), 60u);
}

TEST(Diagnostics, BaseSchemaWithAnExchangeIsValid) {
  SchemaFiles files = base();
  exchange(files)["correlation"] = "x";  // T has `x`: both steps carry it
  EXPECT_EQ(diagnostic_of(files, "exchange"), "");
}

// x-result-when: each entry is a descriptor of its own (<Message>With<Member>) with its result
// and a client function (<function>_with_<member>), in the order written.
TEST(Diagnostics, AResultWhenEntryLowersToADescriptorOfItsOwn) {
  SchemaFiles files = base();
  J& params = msg(files)["definitions"]["MParams"]["properties"];
  params["task"] = J::parse(R"({"type": "string"})");
  params["later"] = J::parse(R"({"type": "boolean"})");
  // Two entries, in the order written; the inline results are types of their own (declared
  // while the params' fields are read).
  msg(files)["x-result-when"] = J::parse(R"({
    "task": {"title": "Started", "type": "object", "properties": {"id": {"type": "string"}}},
    "later": {"title": "Queued", "type": "object", "properties": {"at": {"type": "string"}}}})");
  TempDir dir("result-when");
  files.write(dir.path());
  ir::Module m = lower(SchemaSet::load(dir.path() / "protocol.json"));
  const auto& entries = m.messages.at(0).results_when;
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].member, "task");
  EXPECT_EQ(entries[0].field, "task");
  EXPECT_EQ(entries[0].cpp_name, "MWithTask");
  EXPECT_EQ(entries[0].function_name, "m_with_task");
  EXPECT_EQ(entries[0].result.name, "Started");
  EXPECT_EQ(entries[1].cpp_name, "MWithLater");
  EXPECT_EQ(entries[1].result.name, "Queued");
}

// x-deadline "none": no deadline on the descriptor, and the protocol's default not applied.
TEST(Diagnostics, ADeadlineOfNoneOverridesTheProtocolDefault) {
  SchemaFiles files = base();
  files["protocol.json"]["x-default-deadline"] = "timeout_ms";
  auto deadline_of_m = [](const SchemaFiles& f) {
    TempDir dir("deadline");
    f.write(dir.path());
    ir::Module m = lower(SchemaSet::load(dir.path() / "protocol.json"));
    return m.messages.at(0).deadline;
  };
  EXPECT_EQ(deadline_of_m(files), std::optional<std::string>("kTimeoutMs"));
  msg(files)["x-deadline"] = "none";
  EXPECT_EQ(deadline_of_m(files), std::nullopt);
}

// timings.handshake_failure_exit_wait "stop": the stop sequence after a refused handshake, no
// timer of its own; what the IR dump says (so compat sees a change of it).
TEST(Diagnostics, AHandshakeFailureExitWaitOfStopRunsTheStopSequence) {
  auto lowered = [](const SchemaFiles& f) {
    TempDir dir("failure-stop");
    f.write(dir.path());
    return lower(SchemaSet::load(dir.path() / "protocol.json"));
  };
  SchemaFiles files = base();
  profile(files);
  EXPECT_FALSE(lowered(files).profile->handshake_failure_stops);
  profile(files)["timings"]["handshake_failure_exit_wait"] = "stop";
  const ir::Module m = lowered(files);
  EXPECT_TRUE(m.profile->handshake_failure_stops);
  EXPECT_EQ(m.profile->timings.at(1).trait, "kHandshakeFailureExitWait");
  EXPECT_EQ(m.profile->timings.at(1).constant, "");
  EXPECT_NE(dump_ir(m).find("profile handshake-failure stop-sequence\n"), std::string::npos);
}

TEST(Diagnostics, AVersionCheckNamesTheResultMemberAndTheConstant) {
  SchemaFiles files = base();
  version(files);
  TempDir dir("version");
  files.write(dir.path());
  const ir::Module m = lower(SchemaSet::load(dir.path() / "protocol.json"));
  EXPECT_EQ(m.profile->version.result_member, "v");
  EXPECT_EQ(m.profile->version.constant, "kSpoken");
  EXPECT_EQ(m.profile->version.match, "kMajor");
  EXPECT_NE(dump_ir(m).find("profile version v kSpoken major\n"), std::string::npos);
}

// {capability, keyed_by, default}: the capability object's member that a param names.
TEST(Diagnostics, AKeyedCapabilityClauseNamesTheParamAndItsDefault) {
  SchemaFiles files = base();
  msg(files)["x-gate"] =
      J::parse(R"([{"capability": "elicitation", "keyed_by": "mode", "default": "form"}])");
  TempDir dir("keyed");
  files.write(dir.path());
  const ir::Module m = lower(SchemaSet::load(dir.path() / "protocol.json"));
  ASSERT_EQ(m.messages.at(0).gate.size(), 1U);
  const ir::GateClause& g = m.messages.at(0).gate[0];
  EXPECT_EQ(g.kind, ir::GateClause::Kind::kKeyedCapability);
  EXPECT_EQ(g.list, "elicitation");
  EXPECT_EQ(g.param, "mode");
  EXPECT_EQ(g.value, "form");
  EXPECT_NE(dump_ir(m).find(" gate capability elicitation.<params.mode|form>"), std::string::npos);
}

// A health check may be a request both sides send (MCP's ping): the spawner's check.
TEST(Diagnostics, AHealthCheckMayGoBothWays) {
  SchemaFiles files = base();
  add_message(files, "p", J::array({"a_to_b", "b_to_a"}), true);
  J& p = profile(files);
  p["lifecycle"]["health_check"] = "p";
  p["timings"]["health_check_interval"] = "timeout_ms";
  p["timings"]["health_check_misses"] = "count";
  TempDir dir("two-way-health");
  files.write(dir.path());
  const ir::Module m = lower(SchemaSet::load(dir.path() / "protocol.json"));
  EXPECT_EQ(m.profile->health_check, "P");
  EXPECT_NE(dump_ir(m).find(" health P "), std::string::npos);
}

// "before_handshake_done": the methods as written, and a dump line that reads them as a set.
TEST(Diagnostics, WhatTheSpawnedRoleSendsBeforeHandshakeDoneIsASetOfItsMessages) {
  SchemaFiles files = base();
  early(files) = J::array({"n", "log"});
  add_message(files, "log", "b_to_a");
  TempDir dir("early");
  files.write(dir.path());
  const ir::Module m = lower(SchemaSet::load(dir.path() / "protocol.json"));
  ASSERT_TRUE(m.profile->before_handshake_done.has_value());
  EXPECT_EQ(*m.profile->before_handshake_done, (std::vector<std::string>{"n", "log"}));
  EXPECT_NE(dump_ir(m).find("profile before-handshake-done log n\n"), std::string::npos);
  // Without the key, no limit: nothing in the dump either.
  files["protocol.json"]["x-profile"].erase("before_handshake_done");
  files.write(dir.path());
  const ir::Module unlimited = lower(SchemaSet::load(dir.path() / "protocol.json"));
  EXPECT_FALSE(unlimited.profile->before_handshake_done.has_value());
  EXPECT_EQ(dump_ir(unlimited).find("before-handshake-done"), std::string::npos);
}

// "gate_on_receipt": the error each clause kind it names is answered with, and a dump line
// (compat compares profiles by it); a kind it does not name is not checked.
TEST(Diagnostics, AGateOnReceiptNamesAnErrorPerClauseKind) {
  SchemaFiles files = base();
  on_receipt(files)["param"] = "oops";
  TempDir dir("on-receipt");
  files.write(dir.path());
  const ir::Module m = lower(SchemaSet::load(dir.path() / "protocol.json"));
  EXPECT_EQ(m.profile->gate_on_receipt.capability, "Code::kOops");
  EXPECT_EQ(m.profile->gate_on_receipt.keyed, "");
  EXPECT_EQ(m.profile->gate_on_receipt.param, "Code::kOops");
  EXPECT_NE(dump_ir(m).find("profile gate-on-receipt capability Code::kOops keyed - param "
                            "Code::kOops\n"),
            std::string::npos);
  // Without the key, nothing is checked on receipt: nothing in the dump either.
  files["protocol.json"]["x-profile"].erase("gate_on_receipt");
  files.write(dir.path());
  EXPECT_EQ(dump_ir(lower(SchemaSet::load(dir.path() / "protocol.json"))).find("gate-on-receipt"),
            std::string::npos);
}

class Diagnostic : public ::testing::TestWithParam<DiagnosticCase> {};

TEST_P(Diagnostic, HasExactMessage) {
  SchemaFiles files = base();
  GetParam().change(files);
  std::string got = diagnostic_of(files, "diag");
  ASSERT_FALSE(got.empty()) << "no SchemaError raised; expected: " << GetParam().expected;
  EXPECT_EQ(got, GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(Schema, Diagnostic, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<DiagnosticCase>& p) { return p.param.name; });

// A profile in rpckit 0.1's first form (no "stop", no "oversize") is an error for the generator
// and, for compat reading an old release, read with the meaning it had then.
constexpr const char* kLegacyProfileMessage =
    "protocol.json#/x-profile: a profile without \"stop\" must name timings.exit_grace (or give "
    "a stop sequence)";

TEST(Diagnostics, LegacyProfileIsReadOnlyWhenAskedFor) {
  SchemaFiles files = base();
  J& p = profile(files);
  p.erase("oversize");
  p.erase("stop");
  p["timings"] = J::parse(R"({"exit_grace": "timeout_ms"})");
  EXPECT_EQ(diagnostic_of(files, "legacy"), "protocol.json#/x-profile: missing \"oversize\"");
  TempDir dir("legacy");
  files.write(dir.path());
  ir::Module m = lower(SchemaSet::load(dir.path() / "protocol.json"), {.accept_legacy_profile = true});
  ASSERT_TRUE(m.profile);
  ASSERT_EQ(m.profile->stop.size(), 3u);  // close stdin (no exit message), wait, kill
  EXPECT_EQ(m.profile->stop[0].kind, "kCloseStdin");
  EXPECT_EQ(m.profile->stop[1].wait, "kTimeoutMs");
  EXPECT_EQ(m.profile->spawned_receives.oversize, "kClose");
  p["timings"] = J::object();
  files.write(dir.path());
  try {
    lower(SchemaSet::load(dir.path() / "protocol.json"), {.accept_legacy_profile = true});
    ADD_FAILURE() << "no SchemaError";
  } catch (const SchemaError& e) {
    EXPECT_EQ(std::string(e.what()), kLegacyProfileMessage);
  }
}

// Diagnostics no schema can reach: API misuse of the load layer.
TEST(Diagnostics, NodeItemOutOfRange) {
  Json doc = Json::parse(R"({"a": [1]})");
  Node node{&doc, "f.json", ""};
  try {
    node.child("a").item(3);
    FAIL() << "no SchemaError";
  } catch (const SchemaError& e) {
    EXPECT_STREQ(e.what(), "f.json#/a: missing item 3");
  }
}

TEST(Diagnostics, FileNotLoaded) {
  TempDir dir("not-loaded");
  SchemaFiles files = base();
  files.write(dir.path());
  SchemaSet set = SchemaSet::load(dir.path() / "protocol.json");
  try {
    set.file("nope.json");
    FAIL() << "no SchemaError";
  } catch (const SchemaError& e) {
    EXPECT_STREQ(e.what(), "nope.json#: file not loaded");
  }
  // A listed path is found however it is spelled.
  EXPECT_EQ(set.file("./types/../types/t.json").file, "types/t.json");
}

TEST(Diagnostics, MissingProtocolFile) {
  TempDir dir("no-protocol");
  try {
    SchemaSet::load(dir.path() / "protocol.json");
    FAIL() << "no SchemaError";
  } catch (const SchemaError& e) {
    EXPECT_STREQ(e.what(), "protocol.json#: cannot read file");
  }
}

// Valid inputs near the diagnostics above, which must not raise.
TEST(Diagnostics, AcceptedNeighbours) {
  struct Ok {
    const char* name;
    std::function<void(SchemaFiles&)> change;
  };
  std::vector<Ok> oks = {
      {"dot-slash list entries",
       [](SchemaFiles& s) {
         s["protocol.json"]["x-types"] = J::array({"./types/t.json", "errors.json"});
       }},
      {"signed and unsigned integers in one array constant",
       [](SchemaFiles& s) {
         prop(s, "count")["const"] = J::array({-1, 1});
       }},
      {"boolean schemas", [](SchemaFiles& s) { x(s) = true; }},
      {"lenient error objects",
       [](SchemaFiles& s) {
         profile(s)["error_objects"] =
             J::parse(R"({"missing_code": "oops", "missing_message": "unknown error"})");
       }},
      {"profile timings of each kind",
       [](SchemaFiles& s) {
         prop(s, "backoff_ms") = J::parse(R"({"type": "integer", "const": [1, 2], "x-unit": "ms"})");
         profile(s)["timings"] = J::parse(
             R"({"handshake_timeout": "timeout_ms", "handshake_failure_exit_wait": "timeout_ms",
                 "restarts_in_window": "count", "restart_backoff": "backoff_ms",
                 "restart_window": "timeout_ms"})");
       }},
      {"every wire rule and step",
       [](SchemaFiles& s) {
         J& p = profile(s);
         p["lifecycle"]["shutdown"] = "m";
         p["line_breaks"] = "any";
         p["ids"]["match"] = "string_form";
         p["jsonrpc_member"] = "optional";
         p["blank_method"] = "invalid";
         p["invalid_request_id"] = "null";
         p["error_data"] = J::parse(R"({"member": "reason", "values": {"batch": "batch"}})");
         p["not_json"] = J::parse(R"({"a": "log"})");
         p["oversize"] = J::parse(R"({"a": "discard", "b": "answer"})");
         p["stray_response"] = J::parse(R"({"b": "answer"})");
         p["output_cap"] = "count";
         p["after_shutdown"] = "ignore_input";
         p["stop"] = J::parse(R"(["shutdown", "close_stdin", {"wait": "timeout_ms"}, "sigterm",
                                 {"wait": "timeout_ms"}, "kill"])");
         p["timings"]["shutdown_timeout"] = "none";
       }},
      {"not with only a pattern",
       [](SchemaFiles& s) { x(s) = J::parse(R"({"type": "string", "not": {"pattern": "^a"}})"); }},
      {"$ref chain to a primitive",
       [](SchemaFiles& s) {
         x(s) = J::parse(R"({"$ref": "#/definitions/A"})");
         s["types/t.json"]["definitions"] =
             J::parse(R"({"A": {"$ref": "#/definitions/B"}, "B": {"type": "string"}})");
       }},
      {"the same non-declared $ref used twice",
       [](SchemaFiles& s) {
         x(s) = J::parse(R"({"$ref": "#/definitions/A"})");
         s["types/t.json"]["properties"]["y"] = J::parse(R"({"$ref": "#/definitions/A"})");
         s["types/t.json"]["definitions"] = J::parse(R"({"A": {"type": "string"}})");
       }},
  };
  for (const Ok& ok : oks) {
    SchemaFiles files = base();
    ok.change(files);
    EXPECT_EQ(diagnostic_of(files, "ok"), "") << ok.name;
  }
}

// ---- coverage: every message in the sources is exercised above ---------------------------

// The string literals inside the argument list of each `fail(` / `reject(` / `SchemaError(`
// call in `code`.
std::vector<std::string> diagnostic_literals(const std::string& code) {
  std::vector<std::string> out;
  static const std::regex call(R"((^|[^A-Za-z0-9_])(fail|reject|SchemaError)\()");
  for (auto it = std::sregex_iterator(code.begin(), code.end(), call); it != std::sregex_iterator();
       ++it) {
    std::size_t i = static_cast<std::size_t>(it->position(0) + it->length(0));
    // Skip calls in // comments.
    std::size_t line_start = code.rfind('\n', i);
    line_start = line_start == std::string::npos ? 0 : line_start + 1;
    std::size_t comment = code.find("//", line_start);
    if (comment != std::string::npos && comment < i) continue;
    int depth = 1;
    while (i < code.size() && depth > 0) {
      char c = code[i];
      if (c == '"') {
        std::string literal;
        for (++i; i < code.size() && code[i] != '"'; ++i) {
          if (code[i] == '\\' && i + 1 < code.size()) ++i;
          literal += code[i];
        }
        out.push_back(literal);
      } else if (c == '\'') {
        i += code[i + 1] == '\\' ? 3 : 2;
      } else if (c == '(') {
        ++depth;
      } else if (c == ')') {
        --depth;
      }
      ++i;
    }
  }
  return out;
}

TEST(DiagnosticCoverage, EveryMessageInTheSourcesHasACase) {
  std::vector<std::string> messages;
  for (const DiagnosticCase& c : cases()) messages.push_back(c.expected);
  // The API-only diagnostics tested above.
  messages.push_back("f.json#/a: missing item 3");
  messages.push_back("nope.json#: file not loaded");
  messages.push_back(kLegacyProfileMessage);

  std::size_t checked = 0;
  std::vector<std::string> uncovered;
  for (const char* dir : {"runtime/model/src", "generator/src/lower"}) {
    for (const std::string& file : list_files(source_dir() / dir)) {
      std::string code = read_file(source_dir() / dir / file);
      for (const std::string& literal : diagnostic_literals(code)) {
        std::size_t letters = 0;
        for (char c : literal) letters += std::isalnum(static_cast<unsigned char>(c)) ? 1 : 0;
        if (letters < 3) continue;  // "\"", "", ", ": glue, not wording
        ++checked;
        bool found = std::any_of(messages.begin(), messages.end(), [&](const std::string& m) {
          return m.find(literal) != std::string::npos;
        });
        if (!found) uncovered.push_back(std::string(dir) + "/" + file + ": \"" + literal + "\"");
      }
    }
  }
  EXPECT_GE(checked, 70u)
      << "the scan of runtime/model/src and generator/src/lower found too few diagnostics";
  std::string list;
  for (const std::string& u : uncovered) list += "  " + u + "\n";
  EXPECT_TRUE(uncovered.empty()) << "diagnostics without a test in diagnostics_test.cpp:\n" << list;
}

}  // namespace
}  // namespace rpckit::gen::test
