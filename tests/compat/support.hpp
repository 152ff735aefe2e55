#pragma once
// Helpers of the compat tests: compare the real schema/ with an edited copy, and the rows of
// a report as exact strings.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "schema_edit.hpp"
#include "support.hpp"
#include "tool/compat/compat.hpp"

namespace rpckit::compat::test {

using gen::test::SchemaCopy;
using J = nlohmann::ordered_json;
namespace fs = std::filesystem;

// Schema rules only: the C++ API comparison is tested on its own (api_test.cpp).
CompareOptions schema_only();
// schema/ (old) against `copy` (new).
Report compare_with(const SchemaCopy& copy, CompareOptions options = schema_only());
// `copy` (old) against schema/ (new): the edit undone.
Report compare_back(const SchemaCopy& copy, CompareOptions options = schema_only());

// "verdict | rule | direction | affected | where | change", one per change.
std::vector<std::string> rows(const Report& report);
std::string row(const Change& c);
// "verdict | rule | direction | where", one per change: a revision's differences at a glance.
std::vector<std::string> verdicts(const Report& report);
// The change whose `where` and `rule` are these (throws if there is none).
const Change& find(const Report& report, const std::string& where, const std::string& rule);

// Edits a JSON file of the copy in place.
template <class Edit>
void edit(const SchemaCopy& copy, const std::string& rel, Edit e) {
  J doc = copy.json(rel);
  e(doc);
  copy.save(rel, doc);
}

// Removes `value` from an array.
void erase_value(J& array, const J& value);

std::string compat_exe();

}  // namespace rpckit::compat::test
