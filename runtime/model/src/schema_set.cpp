#include "rpckit/model/schema_set.hpp"

#include <array>
#include <cstdint>
#include <fstream>
#include <set>
#include <sstream>

#include "rpckit/model/annotations.hpp"
#include "rpckit/model/shown.hpp"

namespace rpckit::model {
namespace {

// Keywords whose value is one subschema / a map of subschemas / an array of subschemas.
const std::set<std::string, std::less<>> kSchemaValued = {"items", "additionalProperties", "not"};
const std::set<std::string, std::less<>> kSchemaMaps = {"properties", "definitions"};
const std::set<std::string, std::less<>> kSchemaArrays = {"oneOf", "anyOf"};
// Keywords whose value is data, not a schema.
const std::set<std::string, std::less<>> kDataKeywords = {
    "$schema",   "$ref",     "$comment", "title",    "description", "examples",   "default",
    "type",      "required", "enum",     "const",    "format",      "pattern",    "minLength",
    "maxLength", "minimum",  "maximum",  "minItems", "maxItems",    "uniqueItems"};

// x-result holds a schema, x-error-data and x-result-when a map of them; every other
// annotation the generator reads (annotations.hpp) is data.
bool schema_valued(std::string_view key) {
  return kSchemaValued.count(key) != 0 || key == keyword(Annotation::kResult);
}
bool schema_map(std::string_view key) {
  return kSchemaMaps.count(key) != 0 || key == keyword(Annotation::kErrorData) ||
         key == keyword(Annotation::kResultWhen);
}
bool data_keyword(std::string_view key) {
  return kDataKeywords.count(key) != 0 ||
         (annotation_named(key).has_value() && !schema_valued(key) && !schema_map(key));
}

// Values that are data, not schemas, under kDraft07: a "$ref" or a pattern inside is text.
bool draft07_data(std::string_view key) {
  return key == "enum" || key == "const" || key == "default" || key == "examples" ||
         key == keyword(Annotation::kErrorMessages);
}

// A relative JSON file ("types/a.json", "a.json#/definitions/X"), as an x- annotation names one.
bool looks_like_file(std::string_view s) {
  const std::string_view file = s.substr(0, s.find('#'));
  return file.size() > 5 && file.substr(file.size() - 5) == ".json" &&
         file.find("://") == std::string_view::npos;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A $ref is a URI: its fragment is percent-encoded ("#/percent%25field" names the member
// "percent%field"), and only then read as a JSON pointer (RFC 6901 section 6).
std::string decoded_fragment(std::string_view fragment) {
  std::string out;
  for (std::size_t i = 0; i < fragment.size(); ++i) {
    if (fragment[i] == '%' && i + 2 < fragment.size() && hex_digit(fragment[i + 1]) >= 0 &&
        hex_digit(fragment[i + 2]) >= 0) {
      out += static_cast<char>(hex_digit(fragment[i + 1]) * 16 + hex_digit(fragment[i + 2]));
      i += 2;
    } else {
      out += fragment[i];
    }
  }
  return out;
}

// "a/./b/../c.json" as "a/c.json", '/'-separated: how a loaded file is named. (Strings, not
// std::filesystem: a validator resolves a $ref per schema node it visits.)
std::string normalize(std::string_view path) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    const std::string_view part = path.substr(start, end - start);
    if (part == ".." && !parts.empty() && parts.back() != "..") {
      parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    start = end + 1;
  }
  std::string out;
  for (std::string_view part : parts) {
    if (!out.empty()) out += '/';
    out += part;
  }
  return out;
}

// Where a reference written in `from` is reported: its "$ref" member, or `from` itself when
// `from` is the reference string (protocol.json's "x-error-codes").
std::string ref_pointer(const Node& from) {
  return from.has("$ref") ? from.pointer + "/$ref" : from.pointer;
}

}  // namespace

KeywordValue keyword_value(std::string_view key) {
  if (schema_valued(key)) return KeywordValue::kSchema;
  if (schema_map(key)) return KeywordValue::kSchemaMap;
  if (kSchemaArrays.count(key) != 0) return KeywordValue::kSchemaArray;
  return data_keyword(key) ? KeywordValue::kData : KeywordValue::kUnsupported;
}

std::string pointer_token(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

Node Node::child(std::string_view key) const {
  if (json->is_object()) {
    if (auto it = json->find(key); it != json->end()) {
      return {&*it, file, pointer + "/" + pointer_token(key)};
    }
  }
  fail("missing \"" + std::string(key) + "\"");
}

void Node::reject(const std::string& expected) const { fail(expected + ", got " + shown(*json)); }

Node Node::item(std::size_t index) const {
  if (!json->is_array() || index >= json->size()) fail("missing item " + std::to_string(index));
  return {&(*json)[index], file, pointer + "/" + std::to_string(index)};
}

SchemaSet SchemaSet::load(const std::filesystem::path& protocol_file, const LoadOptions& options) {
  SchemaSet set;
  set.options_ = options;
  set.dir_ = protocol_file.parent_path();
  set.root_file_ = protocol_file.filename().generic_string();
  set.load_file(set.root_file_);
  // kDraft07 follows the lists as it follows any x- path; the generator checks their form.
  if (options.policy != KeywordPolicy::kGenerator) return set;
  const Json& root = set.files_.at(set.root_file_);
  for (const Annotation a : {Annotation::kMessages, Annotation::kTypes}) {
    const std::string_view list = keyword(a);
    if (!root.contains(list)) continue;
    Node list_node = set.root().child(list);
    if (!list_node.json->is_array()) list_node.reject("expected an array of file paths");
    for (std::size_t i = 0; i < list_node.json->size(); ++i) {
      Node entry = list_node.item(i);
      if (!entry.json->is_string()) entry.reject("expected a file path");
      set.load_file(normalize(entry.json->get<std::string>()));
    }
  }
  return set;
}

SchemaSet SchemaSet::from_document(Json document, const std::string& name,
                                   const std::filesystem::path& directory,
                                   const LoadOptions& options) {
  SchemaSet set;
  set.options_ = options;
  set.dir_ = directory;
  set.root_file_ = name;
  auto [it, inserted] = set.files_.emplace(name, std::move(document));
  set.walk(Node{&it->second, name, ""});
  return set;
}

void SchemaSet::load_file(const std::string& relative, const Node* referrer) {
  if (files_.count(relative) != 0) return;
  // A file that cannot be read or parsed is reported where it is referenced (if it is); a
  // problem inside it is reported in the file itself, by the walk below.
  auto fail = [&](const std::string& message) {
    if (referrer != nullptr) {
      referrer->fail(std::string("cannot load referenced file: ") +
                     SchemaError(relative, "", message).what());
    }
    throw SchemaError(relative, "", message);
  };
  std::ifstream in(dir_ / relative, std::ios::binary);
  if (!in) fail("cannot read file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  Json doc;
  try {
    doc = Json::parse(buffer.str());
  } catch (const Json::parse_error& e) {
    fail(std::string("invalid JSON: ") + e.what());
  }
  raw_[relative] = buffer.str();
  auto [it, inserted] = files_.emplace(relative, std::move(doc));
  walk(Node{&it->second, relative, ""});
}

void SchemaSet::walk(const Node& root) {
  if (options_.policy == KeywordPolicy::kGenerator) {
    check_keywords(root);
  } else {
    follow_draft07(root);
  }
}

// A reference written at `referrer` (a "$ref" or an x- path): the file it names is loaded,
// unless it is this file's own fragment or remote (kDraft07 leaves those to resolve()).
void SchemaSet::follow(const Node& referrer, const std::string& ref) {
  if (ref.rfind('#', 0) == 0 || ref.find("://") != std::string::npos) return;
  load_file(ref_file(referrer, ref), &referrer);
}

// Walks one value under kDraft07: any keyword goes; what references another file is loaded.
void SchemaSet::follow_draft07(const Node& node) {
  const Json& j = *node.json;
  if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) follow_draft07(node.item(i));
    return;
  }
  if (!j.is_object()) return;
  if (options_.visit) options_.visit(node);
  for (const auto& [key, value] : j.items()) {
    if (draft07_data(key)) continue;
    const Node sub{&value, node.file, node.pointer + "/" + pointer_token(key)};
    const bool annotation = is_annotation_key(key);
    if (value.is_string() &&
        (key == "$ref" || (annotation && looks_like_file(value.get_ref<const std::string&>())))) {
      follow(sub, value.get<std::string>());
    }
    if (annotation && value.is_array()) {
      for (std::size_t i = 0; i < value.size(); ++i) {
        if (value[i].is_string() && looks_like_file(value[i].get_ref<const std::string&>())) {
          follow(sub.item(i), value[i].get<std::string>());
        }
      }
    }
    follow_draft07(sub);
  }
}

// Walks one schema node: every keyword must be known; subschemas are walked too, and the
// files their $refs name are loaded.
void SchemaSet::check_keywords(const Node& node) {
  const Json& j = *node.json;
  if (j.is_boolean()) return;  // true / false schemas
  if (!j.is_object()) node.reject("expected a schema object");
  for (const auto& [key, value] : j.items()) {
    Node sub{&value, node.file, node.pointer + "/" + pointer_token(key)};
    switch (keyword_value(key)) {
      case KeywordValue::kSchema:
        if (!value.is_boolean()) check_keywords(sub);
        break;
      case KeywordValue::kSchemaMap:
        if (!value.is_object()) sub.reject("expected an object of schemas");
        for (const auto& [name, schema] : value.items()) {
          check_keywords({&schema, node.file, sub.pointer + "/" + pointer_token(name)});
        }
        break;
      case KeywordValue::kSchemaArray:
        if (!value.is_array()) sub.reject("expected an array of schemas");
        for (std::size_t i = 0; i < value.size(); ++i) {
          check_keywords({&value[i], node.file, sub.pointer + "/" + std::to_string(i)});
        }
        break;
      case KeywordValue::kData:
        break;
      case KeywordValue::kUnsupported:
        sub.fail("unsupported keyword \"" + key + "\"");
    }
  }
  if (j.contains("not")) {
    const Json& n = j["not"];
    if (!n.is_object() || n.size() != 1 || !n.contains("pattern")) {
      node.child("not").reject("only {\"pattern\": ...} is supported under \"not\"");
    }
  }
  if (j.contains("$ref")) {
    if (!j["$ref"].is_string()) node.child("$ref").reject("expected a string");
    std::string file = ref_file(node, j["$ref"].get<std::string>());
    if (file != node.file) {
      const Node ref = node.child("$ref");
      load_file(file, &ref);
    }
  }
}

std::string SchemaSet::ref_file(const Node& from, const std::string& ref) const {
  std::string file_part = ref.substr(0, ref.find('#'));
  if (file_part.empty()) return from.file;
  if (file_part.find("://") != std::string::npos || file_part.front() == '/') {
    throw SchemaError(from.file, ref_pointer(from),
                      "only relative file references are supported, got \"" + ref + "\"");
  }
  const std::size_t slash = from.file.rfind('/');
  return normalize(slash == std::string::npos ? file_part
                                              : from.file.substr(0, slash + 1) + file_part);
}

Node SchemaSet::root() const { return file(root_file_); }

Node SchemaSet::file(const std::string& relative) const {
  // x-types / x-messages entries are loaded under their normalized path ("./a.json" -> "a.json").
  auto it = files_.find(relative);
  if (it == files_.end()) it = files_.find(normalize(relative));
  if (it == files_.end()) throw SchemaError(relative, "", "file not loaded");
  return {&it->second, it->first, ""};
}

bool SchemaSet::loaded(const std::string& relative) const {
  return files_.count(normalize(relative)) != 0;
}

Node SchemaSet::resolve(const Node& from, const std::string& ref) const {
  std::string target_file = ref_file(from, ref);
  if (files_.count(target_file) == 0) {
    // Only a reference outside any schema (x-error-codes) can name a file the loader skipped.
    throw SchemaError(from.file, ref_pointer(from),
                      "reference \"" + ref + "\" names " + target_file +
                          ", which is not loaded (list it in x-types)");
  }
  Node target = file(target_file);
  auto hash = ref.find('#');
  std::string pointer =
      hash == std::string::npos ? "" : decoded_fragment(std::string_view(ref).substr(hash + 1));
  if (pointer.empty()) return target;
  try {
    Json::json_pointer ptr(pointer);
    target.json = &target.json->at(ptr);
    target.pointer = pointer;
  } catch (const Json::exception&) {
    throw SchemaError(from.file, ref_pointer(from), "reference \"" + ref + "\" points at nothing");
  }
  return target;
}

std::vector<std::filesystem::path> SchemaSet::files() const {
  std::vector<std::filesystem::path> out;
  for (const auto& entry : raw_) out.push_back((dir_ / entry.first).lexically_normal());
  return out;
}

std::string SchemaSet::hash() const {
  std::uint64_t h = 14695981039346656037ULL;
  auto mix = [&h](std::string_view bytes) {
    for (char c : bytes) {
      h ^= static_cast<unsigned char>(c);
      h *= 1099511628211ULL;
    }
  };
  for (const auto& [path, bytes] : raw_) {
    mix(path);
    mix(std::string_view("\0", 1));
    mix(bytes);
  }
  std::array<char, 17> out{};
  static constexpr char kHex[] = "0123456789abcdef";
  for (int i = 15; i >= 0; --i) {
    out[static_cast<std::size_t>(i)] = kHex[h & 0xF];
    h >>= 4;
  }
  return std::string(out.data(), 16);
}

}  // namespace rpckit::model
