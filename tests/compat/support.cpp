#include "support.hpp"

#include <stdexcept>

#include "model.hpp"

namespace rpckit::compat::test {

CompareOptions schema_only() {
  CompareOptions o;
  o.compare_api = false;
  return o;
}

namespace {
gen::SchemaSet real_schema() {
  return gen::SchemaSet::load(gen::test::source_dir() / "schema" / "protocol.json");
}
}  // namespace

Report compare_with(const SchemaCopy& copy, CompareOptions options) {
  return compare(real_schema(), gen::SchemaSet::load(copy.path("protocol.json")), options);
}

Report compare_back(const SchemaCopy& copy, CompareOptions options) {
  return compare(gen::SchemaSet::load(copy.path("protocol.json")), real_schema(), options);
}

std::string row(const Change& c) {
  return std::string(verdict_name(c.verdict)) + " | " + c.rule + " | " + c.direction + " | " +
         c.affected + " | " + c.where + " | " + c.change;
}

std::vector<std::string> rows(const Report& report) {
  std::vector<std::string> out;
  for (const Change& c : report.changes) out.push_back(row(c));
  return out;
}

std::vector<std::string> verdicts(const Report& report) {
  std::vector<std::string> out;
  for (const Change& c : report.changes) {
    out.push_back(std::string(verdict_name(c.verdict)) + " | " + c.rule + " | " + c.direction +
                  " | " + c.where);
  }
  return out;
}

const Change& find(const Report& report, const std::string& where, const std::string& rule) {
  for (const Change& c : report.changes) {
    if (c.where == where && c.rule == rule) return c;
  }
  throw std::runtime_error("no change " + rule + " at " + where);
}

void erase_value(J& array, const J& value) {
  for (auto it = array.begin(); it != array.end(); ++it) {
    if (*it == value) {
      array.erase(it);
      return;
    }
  }
  throw std::runtime_error("no " + value.dump() + " in " + array.dump());
}

std::string compat_exe() { return RPCKIT_COMPAT_EXE; }

}  // namespace rpckit::compat::test
