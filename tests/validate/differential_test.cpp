// The C++ half of validate.DifferentialAjv (differential/corpus.mjs writes the corpus and ajv's
// verdicts): validates every item with rpckit::validate, strict enums as plain JSON Schema
// has them, and requires ajv's verdict. Prints the corpus figures; on a disagreement, the
// message, the mutation, the payload and both verdicts.
//
//   differential_test <corpus.json> [--every N]
//   differential_test <corpus.json> --verdicts
//
// --every N validates each message's first item and every Nth after it: the sanitizer builds
// take it (their validator runs twenty times slower, and what they look for is a memory or
// undefined-behaviour error on any path, which a sample of every message reaches); the plain
// build validates the whole corpus. Exit 0: all agree, 1: a disagreement, 2: bad input.
//
// --verdicts (the C++ half of validate.DifferentialMcpSdk, differential/mcp_sdk.mjs, which
// compares them with the MCP TypeScript SDK's): validates every item and prints only our
// verdict, one line per item in corpus order, "<index> valid" or "<index> invalid <instance
// pointer>: <first violation>"; items need no "valid". Exit 0, or 2 on bad input.
#include <cstddef>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "rpckit/validate/schema_store.hpp"
#include "rpckit/validate/schema_validator.hpp"

namespace {

using nlohmann::json;
using rpckit::validate::SchemaStore;
using rpckit::validate::SchemaValidator;

struct Figures {
  std::size_t items = 0, valid = 0, invalid = 0, mismatches = 0;
};

std::string shorten(std::string text, std::size_t max = 600) {
  if (text.size() <= max) return text;
  return text.substr(0, max) + "... (" + std::to_string(text.size()) + " bytes)";
}

int run(const char* corpus_path, std::size_t every) {
  std::ifstream in(corpus_path, std::ios::binary);
  if (!in) {
    std::cerr << "differential_test: cannot read " << corpus_path << "\n";
    return 2;
  }
  std::stringstream text;
  text << in.rdbuf();
  const json corpus = json::parse(text.str());
  const auto store = SchemaStore::load(corpus.at("schema").get<std::string>());
  const SchemaValidator validator(store, {.strict_enums = true});

  std::map<std::string, Figures> per_message;
  Figures total;
  constexpr std::size_t kShown = 30;  // disagreements printed in full; the rest are counted
  std::map<std::string, std::size_t> seen_per_message;
  for (const json& item : corpus.at("items")) {
    const std::string message = item.at("message").get<std::string>();
    if (seen_per_message[message]++ % every != 0) continue;
    const std::string schema = item.at("schema").get<std::string>();
    const bool ajv = item.at("valid").get<bool>();
    const auto violations = validator.validate(item.at("instance"), store->at(schema));
    const bool ours = !rpckit::validate::has_errors(violations);
    for (Figures* f : {&per_message[message], &total}) {
      ++f->items;
      ++(ajv ? f->valid : f->invalid);
      if (ours != ajv) ++f->mismatches;
    }
    if (ours != ajv && total.mismatches <= kShown) {
      std::cout << "MISMATCH " << message << " (" << schema << "): "
                << item.at("mutation").get<std::string>() << "\n  ajv: "
                << (ajv ? "valid" : "invalid") << ", rpckit: " << (ours ? "valid" : "invalid");
      if (!violations.empty()) {
        std::cout << " (" << violations.front().instance << ": " << violations.front().message()
                  << ")";
      }
      std::cout << "\n  payload: " << shorten(item.at("instance").dump()) << "\n";
    }
  }
  std::cout << "differential: message: items (ajv valid / invalid), disagreements\n";
  for (const auto& [message, f] : per_message) {
    std::cout << "  " << message << ": " << f.items << " (" << f.valid << " / " << f.invalid
              << "), " << f.mismatches << "\n";
  }
  std::cout << "differential: " << total.items << " items over " << per_message.size()
            << " messages (" << total.valid << " valid, " << total.invalid
            << " invalid by ajv), " << total.mismatches << " disagreements";
  if (every > 1) std::cout << " (every " << every << "th item of each message)";
  std::cout << "\n";
  return total.mismatches == 0 && total.items > 0 ? 0 : 1;
}

int verdicts(const char* corpus_path) {
  std::ifstream in(corpus_path, std::ios::binary);
  if (!in) {
    std::cerr << "differential_test: cannot read " << corpus_path << "\n";
    return 2;
  }
  std::stringstream text;
  text << in.rdbuf();
  const json corpus = json::parse(text.str());
  const auto store = SchemaStore::load(corpus.at("schema").get<std::string>());
  const SchemaValidator validator(store, {.strict_enums = true});
  std::size_t index = 0;
  for (const json& item : corpus.at("items")) {
    const std::string schema = item.at("schema").get<std::string>();
    const auto violations = validator.validate(item.at("instance"), store->at(schema));
    std::cout << index++;
    if (rpckit::validate::has_errors(violations)) {
      std::cout << " invalid " << violations.front().instance << ": "
                << violations.front().message();
    } else {
      std::cout << " valid";
    }
    std::cout << "\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[2]) == "--verdicts") {
    try {
      return verdicts(argv[1]);
    } catch (const std::exception& e) {
      std::cerr << "differential_test: " << e.what() << "\n";
      return 2;
    }
  }
  std::size_t every = 1;
  if (argc == 4 && std::string(argv[2]) == "--every") {
    every = std::strtoul(argv[3], nullptr, 10);
  }
  if ((argc != 2 && argc != 4) || every == 0) {
    std::cerr << "usage: differential_test <corpus.json> [--every N | --verdicts]\n";
    return 2;
  }
  try {
    return run(argv[1], every);
  } catch (const std::exception& e) {
    std::cerr << "differential_test: " << e.what() << "\n";
    return 2;
  }
}
