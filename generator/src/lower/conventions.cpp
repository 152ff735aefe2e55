#include "lower/conventions.hpp"

#include <algorithm>
#include <fstream>
#include <set>
#include <string>
#include <system_error>

#include "lower/schema_node.hpp"
#include "model.hpp"

namespace rpckit::gen {
namespace {

namespace fs = std::filesystem;

// Where a message names its params type: the $ref of properties/params (of its non-null
// member when params may be null), or the inline schema itself.
Node params_reference(const Node& file) {
  Node params = file.child("properties").child("params");
  if (int member = nullable_member(params); member >= 0) {
    params = params.child(union_keyword(params)).item(static_cast<std::size_t>(member));
  }
  return params.has("$ref") ? params.child("$ref") : params;
}

// Params are the definition <Method>Params of the message's own file (which may itself be a
// $ref to a shared type: desktop's CodexEventParams is).
void check_params(const SchemaSet& schema, const Node& file, const ir::Message& m,
                  std::vector<SchemaWarning>& out) {
  const std::string expected = "/definitions/" + m.cpp_name + "Params";
  Node at = params_reference(file);
  if (at.json->is_string()) {
    Node target = schema.resolve(file, at.json->get<std::string>());
    if (target.file == file.file && target.pointer == expected) return;
  }
  out.push_back({at.file, at.pointer,
                 "expected \"#" + expected + "\" (params named after the method \"" + m.method +
                     "\"), got " + shown(*at.json)});
}

// A message file's title, when it has one, is its method.
void check_title(const Node& file, const ir::Message& m, std::vector<SchemaWarning>& out) {
  std::string title = optional_text(file, "title");
  if (title.empty() || title == m.method) return;
  out.push_back({file.file, "/title",
                 "title " + shown(title) + " differs from the method " + shown(m.method) +
                     " (properties/method/const)"});
}

// Whether the file at `path` looks like a message file (model::looks_like_message). Anything
// else next to the messages (a type file reached by $ref, notes, a broken file) is not one.
bool looks_like_message(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return model::looks_like_message(Json::parse(in, nullptr, /*allow_exceptions=*/false));
}

// Message files in a folder that holds a listed message but are neither listed nor loaded
// otherwise. Only those folders are read: the StreamNook schema's folder also holds the other
// protocols' folders, whose files are theirs.
void check_unlisted(const SchemaSet& schema, std::vector<SchemaWarning>& out) {
  const Node root = schema.root();
  std::set<std::string> folders;
  for (const std::string& listed : string_list(root, kw(Annotation::kMessages))) {
    folders.insert(fs::path(listed).lexically_normal().parent_path().generic_string());
  }
  for (const std::string& folder : folders) {
    std::vector<std::string> names;
    std::error_code ec;
    for (fs::directory_iterator it(schema.dir() / folder, ec), end; !ec && it != end;
         it.increment(ec)) {
      if (it->is_regular_file() && it->path().extension() == ".json") {
        names.push_back(it->path().filename().generic_string());
      }
    }
    std::sort(names.begin(), names.end());
    for (const std::string& name : names) {
      const std::string relative = folder.empty() ? name : folder + "/" + name;
      if (schema.loaded(relative) || !looks_like_message(schema.dir() / relative)) continue;
      out.push_back({root.file, "/" + model::pointer_token(kw(Annotation::kMessages)),
                     "message file " + shown(relative) +
                         " is not listed (it sits with the listed messages)"});
    }
  }
}

}  // namespace

std::vector<SchemaWarning> convention_warnings(const SchemaSet& schema, const ir::Module& module) {
  std::vector<SchemaWarning> out;
  for (const ir::Message& m : module.messages) {
    const Node file = schema.file(m.loc.file);
    check_params(schema, file, m, out);
    check_title(file, m, out);
  }
  check_unlisted(schema, out);
  return out;
}

}  // namespace rpckit::gen
