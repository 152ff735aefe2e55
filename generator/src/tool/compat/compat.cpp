// compare(): the protocol, its messages and payloads, the types no message carries, and the
// generated C++ API, in that order (docs/compat.md).
#include "tool/compat/compat.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include "emit/api_surface.hpp"
#include "lower/lower.hpp"
#include "tool/compat/api_diff.hpp"
#include "tool/compat/diff.hpp"

namespace rpckit::compat {

const char* verdict_name(Verdict v) { return v == Verdict::kAdditive ? "additive" : "breaking"; }

std::size_t Report::count(Verdict v) const {
  return static_cast<std::size_t>(std::count_if(changes.begin(), changes.end(),
                                                [v](const Change& c) { return c.verdict == v; }));
}

std::size_t Report::accepted() const {
  return static_cast<std::size_t>(std::count_if(
      changes.begin(), changes.end(),
      [](const Change& c) { return c.verdict == Verdict::kBreaking && !c.accepted.empty(); }));
}

std::vector<Acceptance> parse_acceptances(const std::string& text) {
  std::vector<Acceptance> out;
  std::size_t number = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = std::min(text.find('\n', at), text.size());
    std::string line = text.substr(at, end - at);
    at = end + 1;
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    line = line.substr(first);
    std::size_t space = line.find(' ');
    std::size_t dashes = line.find(" -- ");
    Acceptance a;
    if (space != std::string::npos && dashes != std::string::npos && dashes > space) {
      a.rule = line.substr(0, space);
      a.where = line.substr(space + 1, dashes - space - 1);
      a.why = line.substr(dashes + 4);
    }
    auto blank = [](const std::string& s) {
      return s.find_first_not_of(" \t") == std::string::npos;
    };
    if (a.rule.empty() || blank(a.where) || blank(a.why)) {
      throw std::runtime_error("line " + std::to_string(number) +
                               ": expected \"<rule> <where> -- <why>\", got \"" + line + "\"");
    }
    out.push_back(std::move(a));
  }
  return out;
}

std::string location(const gen::Node& node) { return node.file + "#" + node.pointer; }

std::string json_text(const gen::Json& j) { return j.dump(); }

void Changes::add(Change change) {
  auto key =
      std::make_tuple(change.rule, change.direction, change.where, change.change, change.affected);
  auto [it, inserted] = index_.emplace(key, list_.size());
  if (inserted) {
    list_.push_back(std::move(change));
    return;
  }
  std::vector<std::string>& via = list_[it->second].via;
  for (std::string& v : change.via) {
    if (std::find(via.begin(), via.end(), v) == via.end()) via.push_back(std::move(v));
  }
}

Capabilities capabilities_of(const model::Protocol& protocol) {
  Capabilities caps;
  if (const auto& profile = protocol.profile(); profile && profile->json->is_object()) {
    caps.grant = model::Protocol::text(*profile, "grant");
    if (profile->has("lifecycle")) {
      caps.handshake = model::Protocol::text(profile->child("lifecycle"), "handshake");
    }
  }
  for (const model::Message& m : protocol.messages()) {
    if (!m.gate || !m.gate->json->is_array()) continue;
    for (const gen::Json& clause : *m.gate->json) {
      if (clause.contains("value") && clause.at("value").is_string()) {
        caps.gate_values.insert(clause.at("value").get<std::string>());
      }
    }
  }
  return caps;
}

VersionStep version_step(const gen::Json& before, const gen::Json& after) {
  if (before == after) return VersionStep::kNone;
  if (after.is_number() && before.is_number()) {
    return after.get<double>() > before.get<double>() ? VersionStep::kMajor : VersionStep::kOther;
  }
  if (!after.is_string() || !before.is_string()) return VersionStep::kMajor;
  // Dated revisions (MCP's "2025-06-18"): each is its own protocol, negotiated by the peers; a
  // later date is a new one, an earlier date goes back.
  auto dated = [](const std::string& s) {
    return s.size() == 10 && s[4] == '-' && s[7] == '-' &&
           std::all_of(s.begin(), s.end(),
                       [](char c) { return c == '-' || (c >= '0' && c <= '9'); });
  };
  if (dated(after.get<std::string>()) && dated(before.get<std::string>())) {
    return after.get<std::string>() > before.get<std::string>() ? VersionStep::kMajor
                                                                : VersionStep::kOther;
  }
  auto parts = [](const std::string& s) {
    std::vector<long> out;
    std::size_t i = 0;
    while (i <= s.size()) {
      std::size_t dot = std::min(s.find('.', i), s.size());
      long v = 0;
      auto [p, ec] = std::from_chars(s.data() + i, s.data() + dot, v);
      if (ec != std::errc() || p != s.data() + dot) return std::vector<long>{};
      out.push_back(v);
      i = dot + 1;
    }
    return out;
  };
  std::vector<long> a = parts(after.get<std::string>());
  std::vector<long> b = parts(before.get<std::string>());
  if (a.empty() || b.empty()) return VersionStep::kMajor;  // not dotted numbers: just different
  // Only the first number counts: "1.0" -> "1.2" promises compatibility (a 1.x peer accepts
  // any 1.x, as in semver), so it does not license a breaking change.
  if (a.front() > b.front()) return VersionStep::kMajor;
  if (a.front() == b.front() && a > b) return VersionStep::kMinor;
  return VersionStep::kOther;
}

namespace {

std::optional<gen::Json> constant(const gen::SchemaSet& set, const std::string& name) {
  const gen::Json& root = *set.root().json;
  if (!root.contains("properties") || !root.at("properties").contains(name)) return std::nullopt;
  const gen::Json& p = root.at("properties").at(name);
  if (!p.is_object() || !p.contains("const")) return std::nullopt;
  return p.at("const");
}

// "struct Channel field login is gone" -> {"struct Channel field login", "is gone"}.
std::pair<std::string, std::string> split_problem(const std::string& p) {
  for (const char* sep : {" changed: ", ": `"}) {
    auto at = p.find(sep);
    if (at == std::string::npos) continue;
    if (std::string(sep) == ": `") return {p.substr(0, at), p.substr(at + 2)};
    return {p.substr(0, at), "changed: " + p.substr(at + std::string(sep).size())};
  }
  const std::string gone = " is gone";
  if (p.ends_with(gone)) return {p.substr(0, p.size() - gone.size()), "is gone"};
  return {p, "changed"};
}

}  // namespace

void compare_api(const gen::SchemaSet& before, const gen::SchemaSet& after, Changes& out) {
  gen::ir::Module a = gen::lower(before, {.accept_legacy_profile = true});
  gen::ir::Module b = gen::lower(after, {.accept_legacy_profile = true});
  std::vector<std::string> ir = ir_additive_problems(a, b);
  std::vector<std::string> declared;
  // A new module or namespace moves every declaration: the IR check already said so.
  if (a.name == b.name && a.cpp_namespace == b.cpp_namespace) {
    declared = api_surface_problems(gen::api_surface(a), gen::api_surface(b));
  }
  auto add_row = [&](const std::string& where, const std::string& change, const std::string& why) {
    Change c;
    c.rule = "api.changed";
    c.affected = "C++ API";
    c.where = where;
    c.change = change;
    c.why = why;
    out.add(std::move(c));
  };
  auto add = [&](const std::string& problem, const std::string& why) {
    auto [where, change] = split_problem(problem);
    add_row(where, change, why);
  };
  const std::string why = "code built against the old bindings may no longer compile";
  for (const std::string& p : ir) add(p, why);
  // The declarations back the IR check up; when it already spoke, they only repeat it.
  if (ir.empty()) {
    for (const std::string& p : declared) add(p, why);
  } else if (!declared.empty()) {
    add_row("generated headers",
            std::to_string(declared.size()) +
                (declared.size() == 1 ? " declaration" : " declarations") + " changed or gone",
            "the changes above, as the headers declare them (first: " + declared.front() + ")");
  }
}

Report compare(const gen::SchemaSet& before, const gen::SchemaSet& after,
               const CompareOptions& options) {
  Report report;
  if (auto v = constant(before, options.version_constant)) report.old_version = json_text(*v);
  if (auto v = constant(after, options.version_constant)) report.new_version = json_text(*v);
  if (auto a = constant(before, options.version_constant)) {
    if (auto b = constant(after, options.version_constant)) {
      report.version_bumped = version_step(*a, *b) == VersionStep::kMajor;
    }
  }
  Changes out;
  const model::Protocol old_protocol = model::Protocol::link(before);
  const model::Protocol new_protocol = model::Protocol::link(after);
  compare_protocol(old_protocol, new_protocol, options, report, out);
  Capabilities caps = capabilities_of(new_protocol);
  Capabilities old_caps = capabilities_of(old_protocol);
  caps.gate_values.insert(old_caps.gate_values.begin(), old_caps.gate_values.end());
  PayloadDiff payloads(old_protocol, new_protocol, options, caps, out);
  compare_messages(old_protocol, new_protocol, payloads, out);
  const std::optional<gen::Node> codes = new_protocol.error_code_enum();
  payloads.compare_unreached_types(codes ? location(*codes) : std::string());
  if (options.compare_api) compare_api(before, after, out);
  report.changes = out.take();
  for (const Acceptance& a : options.accepted) {
    bool used = false;
    for (Change& c : report.changes) {
      if (c.verdict == Verdict::kBreaking && c.rule == a.rule && c.where == a.where) {
        c.accepted = a.why;
        used = true;
      }
    }
    if (!used) report.unused_acceptances.push_back(a);
  }
  return report;
}

}  // namespace rpckit::compat
