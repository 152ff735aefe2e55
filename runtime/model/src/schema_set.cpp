#include "rpckit/model/schema_set.hpp"

#include <array>
#include <cstdint>
#include <fstream>
#include <set>
#include <sstream>

#include "rpckit/model/shown.hpp"

namespace rpckit::model {
namespace {

// Keywords whose value is one subschema / a map of subschemas / an array of subschemas.
const std::set<std::string, std::less<>> kSchemaValued = {"items", "additionalProperties", "not",
                                                          "x-result"};
const std::set<std::string, std::less<>> kSchemaMaps = {"properties", "definitions"};
const std::set<std::string, std::less<>> kSchemaArrays = {"oneOf", "anyOf"};
// Keywords whose value is data, not a schema.
const std::set<std::string, std::less<>> kDataKeywords = {
    "$schema", "$ref", "$comment", "title", "description", "examples", "default", "type",
    "required", "enum", "const", "format", "pattern", "minLength", "maxLength", "minimum",
    "maximum", "minItems", "maxItems", "uniqueItems",
    // annotations read by the generator (schema/README.md)
    "x-namespace", "x-module", "x-roles", "x-messages", "x-types", "x-error-codes",
    "x-default-deadline", "x-unit", "x-profile", "x-exchange", "x-kind", "x-direction", "x-gate",
    "x-errors", "x-deadline", "x-discriminator", "x-enum-names", "x-enum-descriptions",
    "x-error-messages"};

std::string escape_pointer_token(std::string_view key) {
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

std::string normalize(const std::filesystem::path& p) {
  return p.lexically_normal().generic_string();
}

// Where a reference written in `from` is reported: its "$ref" member, or `from` itself when
// `from` is the reference string (protocol.json's "x-error-codes").
std::string ref_pointer(const Node& from) {
  return from.has("$ref") ? from.pointer + "/$ref" : from.pointer;
}

}  // namespace

Node Node::child(std::string_view key) const {
  if (!has(key)) fail("missing \"" + std::string(key) + "\"");
  return {&(*json)[std::string(key)], file, pointer + "/" + escape_pointer_token(key)};
}

void Node::reject(const std::string& expected) const { fail(expected + ", got " + shown(*json)); }

Node Node::item(std::size_t index) const {
  if (!json->is_array() || index >= json->size()) fail("missing item " + std::to_string(index));
  return {&(*json)[index], file, pointer + "/" + std::to_string(index)};
}

SchemaSet SchemaSet::load(const std::filesystem::path& protocol_file) {
  SchemaSet set;
  set.dir_ = protocol_file.parent_path();
  set.root_file_ = protocol_file.filename().generic_string();
  set.load_file(set.root_file_);
  const Json& root = set.files_.at(set.root_file_);
  for (const char* list : {"x-messages", "x-types"}) {
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

void SchemaSet::load_file(const std::string& relative, const Node* referrer) {
  if (files_.count(relative) != 0) return;
  // A file that cannot be read or parsed is reported where it is referenced (if it is); a
  // problem inside it is reported in the file itself, by check_keywords below.
  auto fail = [&](const std::string& message) {
    if (referrer != nullptr) {
      referrer->child("$ref").fail(std::string("cannot load referenced file: ") +
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
  check_keywords(Node{&it->second, relative, ""});
}

// Walks one schema node: every keyword must be known; subschemas are walked too, and the
// files their $refs name are loaded.
void SchemaSet::check_keywords(const Node& node) {
  const Json& j = *node.json;
  if (j.is_boolean()) return;  // true / false schemas
  if (!j.is_object()) node.reject("expected a schema object");
  for (const auto& [key, value] : j.items()) {
    Node sub{&value, node.file, node.pointer + "/" + escape_pointer_token(key)};
    if (kSchemaValued.count(key) != 0) {
      if (!value.is_boolean()) check_keywords(sub);
    } else if (kSchemaMaps.count(key) != 0) {
      if (!value.is_object()) sub.reject("expected an object of schemas");
      for (const auto& [name, schema] : value.items()) {
        check_keywords({&schema, node.file, sub.pointer + "/" + escape_pointer_token(name)});
      }
    } else if (kSchemaArrays.count(key) != 0) {
      if (!value.is_array()) sub.reject("expected an array of schemas");
      for (std::size_t i = 0; i < value.size(); ++i) {
        check_keywords({&value[i], node.file, sub.pointer + "/" + std::to_string(i)});
      }
    } else if (kDataKeywords.count(key) == 0) {
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
    if (file != node.file) load_file(file, &node);
  }
}

std::string SchemaSet::ref_file(const Node& from, const std::string& ref) const {
  std::string file_part = ref.substr(0, ref.find('#'));
  if (file_part.empty()) return from.file;
  if (file_part.find("://") != std::string::npos || file_part.front() == '/') {
    throw SchemaError(from.file, ref_pointer(from),
                      "only relative file references are supported, got \"" + ref + "\"");
  }
  return normalize(std::filesystem::path(from.file).parent_path() / file_part);
}

Node SchemaSet::root() const { return file(root_file_); }

Node SchemaSet::file(const std::string& relative) const {
  // x-types / x-messages entries are loaded under their normalized path ("./a.json" -> "a.json").
  auto it = files_.find(normalize(relative));
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
  std::string pointer = hash == std::string::npos ? "" : ref.substr(hash + 1);
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
