#include "rpckit/validate/schema_store.hpp"

#include <fstream>
#include <mutex>
#include <sstream>
#include <variant>
#include <vector>

#include "rpckit/codec/ecmascript_pattern.hpp"
#include "rpckit/codec/pattern.hpp"

namespace rpckit::validate {
namespace fs = std::filesystem;

namespace {

// Normalises "a/../b/./c.json" to "b/c.json", keeping '/' separators.
std::string normalise(const std::string& path) {
  std::vector<std::string> parts;
  std::stringstream in(path);
  std::string part;
  while (std::getline(in, part, '/')) {
    if (part.empty() || part == ".") continue;
    if (part == ".." && !parts.empty() && parts.back() != "..") {
      parts.pop_back();
    } else {
      parts.push_back(part);
    }
  }
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "/") + p;
  return out;
}

bool looks_like_file(const std::string& s) {
  const auto hash = s.find('#');
  const std::string file = s.substr(0, hash);
  return file.size() > 5 && file.compare(file.size() - 5, 5, ".json") == 0 &&
         file.find("://") == std::string::npos;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A $ref is a URI: its fragment is percent-encoded ("#/percent%25field" names the member
// "percent%field"), and only then read as a JSON pointer (RFC 6901 section 6).
std::string decode_fragment(const std::string& ref) {
  const auto hash = ref.find('#');
  if (hash == std::string::npos || ref.find('%', hash) == std::string::npos) return ref;
  std::string out = ref.substr(0, hash + 1);
  for (std::size_t i = hash + 1; i < ref.size(); ++i) {
    if (ref[i] == '%' && i + 2 < ref.size() && hex_digit(ref[i + 1]) >= 0 &&
        hex_digit(ref[i + 2]) >= 0) {
      out += static_cast<char>(hex_digit(ref[i + 1]) * 16 + hex_digit(ref[i + 2]));
      i += 2;
    } else {
      out += ref[i];
    }
  }
  return out;
}

}  // namespace

std::string pointer_token(const std::string& key) {
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

SchemaRef SchemaRef::child(const std::string& key) const {
  return {&node->at(key), file, pointer + "/" + pointer_token(key)};
}

SchemaRef SchemaRef::item(std::size_t index) const {
  return {&node->at(index), file, pointer + "/" + std::to_string(index)};
}

SchemaStore::~SchemaStore() = default;

std::shared_ptr<const SchemaStore> SchemaStore::load(const fs::path& root_file) {
  std::shared_ptr<SchemaStore> store(new SchemaStore());
  store->dir_ = root_file.parent_path().empty() ? fs::path(".") : root_file.parent_path();
  store->root_file_ = root_file.filename().generic_string();
  store->load_file(store->root_file_, "");
  return store;
}

std::shared_ptr<const SchemaStore> SchemaStore::from_document(nlohmann::json document,
                                                             const std::string& name,
                                                             const fs::path& directory) {
  std::shared_ptr<SchemaStore> store(new SchemaStore());
  store->dir_ = directory;
  store->root_file_ = name;
  auto& stored = store->files_.emplace(name, std::move(document)).first->second;
  store->scan(stored, name, "");
  return store;
}

void SchemaStore::load_file(const std::string& relative, const std::string& referrer) {
  if (files_.count(relative)) return;
  const fs::path path = dir_ / relative;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw SchemaLoadError((referrer.empty() ? path.string() : referrer) +
                          ": cannot read " + path.string());
  }
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::parse_error& e) {
    throw SchemaLoadError(relative + ": not JSON: " + e.what());
  }
  auto& stored = files_.emplace(relative, std::move(doc)).first->second;
  scan(stored, relative, "");
}

// Loads what `node` refers to and compiles its patterns, depth first.
void SchemaStore::scan(const nlohmann::json& node, const std::string& file,
                       const std::string& pointer) {
  if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i) {
      scan(node[i], file, pointer + "/" + std::to_string(i));
    }
    return;
  }
  if (!node.is_object()) return;
  for (const auto& [key, value] : node.items()) {
    // Values that are data, not schemas: a "pattern" inside is text.
    if (key == "enum" || key == "const" || key == "default" || key == "examples" ||
        key == "x-error-messages") {
      continue;
    }
    const std::string here = pointer + "/" + pointer_token(key);
    const bool annotation = key.rfind("x-", 0) == 0;
    if ((key == "$ref" && value.is_string()) || (annotation && value.is_string() &&
                                                 looks_like_file(value.get<std::string>()))) {
      const std::string ref = value.get<std::string>();
      if (ref.rfind('#', 0) != 0 && ref.find("://") == std::string::npos) {
        load_file(file_of(file, ref), file + "#" + here);
      }
    }
    if (annotation && value.is_array()) {
      for (const auto& entry : value) {
        if (entry.is_string() && looks_like_file(entry.get<std::string>())) {
          load_file(file_of(file, entry.get<std::string>()), file + "#" + here);
        }
      }
    }
    auto compile = [&](const std::string& source) {
      if (!patterns_.count(source)) patterns_.emplace(source, compile_pattern(source, file + "#" + here));
    };
    if (key == "pattern" && value.is_string()) compile(value.get<std::string>());
    if (key == "patternProperties" && value.is_object()) {
      for (const auto& [source, _] : value.items()) compile(source);
    }
    scan(value, file, here);
  }
}

std::string SchemaStore::file_of(const std::string& from_file, const std::string& ref) const {
  const std::string file_part = ref.substr(0, ref.find('#'));
  if (file_part.empty()) return from_file;
  const auto slash = from_file.rfind('/');
  const std::string base = slash == std::string::npos ? "" : from_file.substr(0, slash + 1);
  return normalise(base + file_part);
}

SchemaRef SchemaStore::root() const { return {&files_.at(root_file_), root_file_, ""}; }

SchemaRef SchemaStore::at(const std::string& location) const {
  return resolve(root(), location);
}

SchemaRef SchemaStore::resolve(const SchemaRef& from, const std::string& ref) const {
  const std::string file = file_of(from.file, ref);
  const auto hash = ref.find('#');
  // The fragment's percent-decoding keeps the file part, so `hash` still points at '#'.
  const std::string pointer =
      hash == std::string::npos ? "" : decode_fragment(ref).substr(hash + 1);
  auto doc = files_.find(file);
  if (doc == files_.end()) {
    throw SchemaLoadError(from.location() + ": $ref \"" + ref + "\" names a file not loaded");
  }
  try {
    const nlohmann::json::json_pointer ptr(pointer);
    if (!doc->second.contains(ptr)) throw std::out_of_range("missing");
    return {&doc->second.at(ptr), file, pointer};
  } catch (const std::exception&) {
    throw SchemaLoadError(from.location() + ": $ref \"" + ref + "\" names nothing");
  }
}

std::unique_ptr<codec::Pattern> SchemaStore::compile_pattern(const std::string& source,
                                                             const std::string& where) {
  auto re2 = codec::ecmascript_to_re2(source);
  if (auto* error = std::get_if<codec::PatternError>(&re2)) {
    throw SchemaLoadError(where + ": pattern \"" + source +
                          "\" cannot be matched in linear time: " + error->reason);
  }
  try {
    return std::make_unique<codec::Pattern>(std::get<std::string>(re2), source);
  } catch (const std::invalid_argument& e) {
    throw SchemaLoadError(where + ": " + e.what());
  }
}

const codec::Pattern& SchemaStore::pattern(const std::string& ecmascript,
                                           const std::string& where) const {
  if (auto it = patterns_.find(ecmascript); it != patterns_.end()) return *it->second;
  // A pattern where the load-time scan does not look (a schema under a data keyword).
  std::lock_guard<std::mutex> lock(late_mutex_);
  auto& late = late_patterns_[ecmascript];
  if (!late) late = compile_pattern(ecmascript, where);
  return *late;
}

}  // namespace rpckit::validate
