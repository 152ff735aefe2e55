// Loading the example fixtures shown under each message.
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "tool/docs/docs.hpp"

namespace rpckit::docs {
namespace {

std::vector<gen::Json> list_of(const gen::Json& doc, const char* key, const std::string& where) {
  if (!doc.contains(key)) return {};
  const gen::Json& list = doc.at(key);
  if (!list.is_array()) throw std::runtime_error(where + ": \"" + key + "\" is not an array");
  return {list.begin(), list.end()};
}

MessageExamples parse(const gen::Json& doc, const std::string& where) {
  if (!doc.is_object()) throw std::runtime_error(where + ": expected an object");
  MessageExamples out;
  out.envelopes = list_of(doc, "envelopes", where);
  out.results = list_of(doc, "results", where);
  for (const gen::Json& item : list_of(doc, "invalid", where)) {
    if (!item.is_object() || !item.contains("envelope") || !item.contains("why") ||
        !item.at("why").is_string()) {
      throw std::runtime_error(where + ": each \"invalid\" entry needs \"envelope\" and \"why\"");
    }
    out.invalid.push_back({item.at("envelope"), item.at("why").get<std::string>()});
  }
  return out;
}

}  // namespace

Examples load_examples(const std::filesystem::path& dir, const gen::ir::Module& module) {
  if (!std::filesystem::is_directory(dir)) {
    throw std::runtime_error("examples folder " + dir.string() + " does not exist");
  }
  Examples out;
  for (const gen::ir::Message& m : module.messages) {
    // Named as the message's schema file ("messages/plugin_health.json" -> plugin_health.json,
    // which check_protocol.mjs reads too); StreamNook's file names are its method names.
    std::filesystem::path file = dir / std::filesystem::path(m.loc.file).filename();
    if (!std::filesystem::is_regular_file(file)) file = dir / (m.method + ".json");
    if (!std::filesystem::is_regular_file(file)) continue;
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    gen::Json doc;
    try {
      doc = gen::Json::parse(text.str());
    } catch (const gen::Json::parse_error& e) {
      throw std::runtime_error(file.string() + ": " + e.what());
    }
    out.emplace(m.method, parse(doc, file.string()));
  }
  return out;
}

}  // namespace rpckit::docs
