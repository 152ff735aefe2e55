#include "tool/compat/report.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace rpckit::compat {
namespace {

// "host_to_plugin" -> "host -> plugin"; "" -> "-".
std::string direction_text(const std::string& d) {
  if (d.empty()) return "-";
  auto at = d.find("_to_");
  if (at == std::string::npos) return d;
  return d.substr(0, at) + " -> " + d.substr(at + 4);
}

std::string via_text(const Change& c, std::size_t shown) {
  std::string out;
  for (std::size_t i = 0; i < c.via.size() && i < shown; ++i) {
    out += (i == 0 ? "" : ", ") + c.via[i];
  }
  if (c.via.size() > shown) out += " (+" + std::to_string(c.via.size() - shown) + " more)";
  return out;
}

std::string at_text(const Change& c) {
  std::string out;
  if (!c.new_location.empty()) {
    out = c.new_location;
  } else if (!c.old_location.empty()) {
    out = c.old_location + " (old)";
  }
  if (!c.via.empty()) out += (out.empty() ? "via " : "; via ") + via_text(c, 3);
  return out;
}

// Display width: UTF-8 continuation bytes take no column.
std::size_t width(const std::string& s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char ch) { return (ch & 0xC0) != 0x80; }));
}

std::string pad(const std::string& s, std::size_t w) {
  std::size_t have = width(s);
  return have >= w ? s : s + std::string(w - have, ' ');
}

// "breaking", "breaking (accepted)" or "additive".
std::string verdict_text(const Change& c) {
  std::string out = verdict_name(c.verdict);
  if (c.verdict == Verdict::kBreaking && !c.accepted.empty()) out += " (accepted)";
  return out;
}

std::string markdown_cell(std::string_view s) {
  std::string out;
  for (char ch : s) {
    if (ch == '|') out += '\\';
    out += ch;
  }
  return out;
}

}  // namespace

std::string summary(const Report& report, const Labels& labels) {
  std::size_t breaking = report.count(Verdict::kBreaking);
  std::size_t accepted = report.accepted();
  std::size_t additive = report.count(Verdict::kAdditive);
  std::string out;
  if (report.changes.empty()) {
    out = "No differences.";
  } else {
    out = std::to_string(breaking) + " breaking" +
          (accepted != 0 ? " (" + std::to_string(accepted) + " accepted)" : std::string()) + ", " +
          std::to_string(additive) + " additive.";
  }
  std::string version = labels.version_constant + " " + report.old_version.value_or("(none)");
  if (report.old_version != report.new_version) {
    version += " -> " + report.new_version.value_or("(none)");
  }
  if (!report.unused_acceptances.empty()) {
    out += " " + std::to_string(report.unused_acceptances.size()) +
           " accepted change(s) match nothing (remove them):";
    for (const Acceptance& a : report.unused_acceptances) {
      out += " \"" + a.rule + " " + a.where + "\"";
    }
    out += ". FAILED (exit 1)";
  } else if (report.version_bumped) {
    out += " " + version + " (bumped): breaking changes are allowed. OK (exit 0)";
  } else if (breaking > accepted) {
    out += " " + version + " (not bumped): a breaking change needs a bump of " +
           labels.version_constant + ". FAILED (exit 1)";
  } else if (accepted != 0) {
    out += " " + version + " (not bumped): every breaking change is accepted. OK (exit 0)";
  } else {
    out += " " + version + ". OK (exit 0)";
  }
  return out;
}

std::string render_table(const Report& report, const Labels& labels) {
  std::string out = "rpckit compat: " + labels.before + " -> " + labels.after + "\n\n";
  if (!report.changes.empty()) {
    const std::vector<std::string> head = {"#",     "verdict", "direction", "affected",
                                           "where", "change",  "why"};
    std::vector<std::vector<std::string>> rows;
    for (std::size_t i = 0; i < report.changes.size(); ++i) {
      const Change& c = report.changes[i];
      rows.push_back({std::to_string(i + 1), verdict_text(c), direction_text(c.direction),
                      c.affected, c.where, c.change, c.why});
    }
    std::vector<std::size_t> w(head.size(), 0);
    for (std::size_t k = 0; k < head.size(); ++k) w[k] = width(head[k]);
    for (const auto& r : rows) {
      for (std::size_t k = 0; k < r.size(); ++k) w[k] = std::max(w[k], width(r[k]));
    }
    auto line = [&](const std::vector<std::string>& cells) {
      std::string l;
      for (std::size_t k = 0; k < cells.size(); ++k) {
        l += k + 1 == cells.size() ? cells[k] : pad(cells[k], w[k]) + "  ";
      }
      return l + "\n";
    };
    out += line(head);
    std::vector<std::string> rule;
    for (std::size_t k = 0; k < head.size(); ++k) {
      rule.emplace_back(k + 1 == head.size() ? width(head[k]) : w[k], '-');
    }
    out += line(rule);
    // The location goes under the change, where the eye already is.
    std::size_t indent = w[0] + 2;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      out += line(rows[i]);
      std::string at = at_text(report.changes[i]);
      if (!at.empty()) out += std::string(indent, ' ') + "at " + at + "\n";
      const std::string& accepted = report.changes[i].accepted;
      if (!accepted.empty()) out += std::string(indent, ' ') + "accepted: " + accepted + "\n";
    }
    out += "\n";
  }
  return out + summary(report, labels) + "\n";
}

std::string render_markdown(const Report& report, const Labels& labels) {
  std::string out = "### rpckit compat: `" + labels.before + "` → `" + labels.after + "`\n\n";
  if (!report.changes.empty()) {
    out += "| # | verdict | direction | affected | where | change | why | schema |\n";
    out += "|---|---|---|---|---|---|---|---|\n";
    for (std::size_t i = 0; i < report.changes.size(); ++i) {
      const Change& c = report.changes[i];
      std::string verdict = "additive";
      if (c.verdict == Verdict::kBreaking) {
        verdict = c.accepted.empty() ? "**breaking**" : "breaking (accepted: " + c.accepted + ")";
      }
      out += "| " + std::to_string(i + 1) + " | " + verdict + " | " +
             markdown_cell(direction_text(c.direction)) + " | " + markdown_cell(c.affected) +
             " | `" + markdown_cell(c.where) + "` | " + markdown_cell(c.change) + " | " +
             markdown_cell(c.why) + " | " + markdown_cell(at_text(c)) + " |\n";
    }
    out += "\n";
  }
  return out + summary(report, labels) + "\n";
}

std::string render_json(const Report& report, const Labels& labels) {
  nlohmann::ordered_json j;
  auto version = [](const std::optional<std::string>& v) {
    return v ? nlohmann::ordered_json::parse(*v) : nlohmann::ordered_json();
  };
  j["old"] = {{"source", labels.before}, {"version", version(report.old_version)}};
  j["new"] = {{"source", labels.after}, {"version", version(report.new_version)}};
  j["version_constant"] = labels.version_constant;
  j["version_bumped"] = report.version_bumped;
  j["breaking"] = report.count(Verdict::kBreaking);
  j["accepted"] = report.accepted();
  j["additive"] = report.count(Verdict::kAdditive);
  j["fails"] = report.fails();
  j["exit_status"] = report.fails() ? 1 : 0;
  nlohmann::ordered_json changes = nlohmann::ordered_json::array();
  for (const Change& c : report.changes) {
    nlohmann::ordered_json e;
    e["verdict"] = verdict_name(c.verdict);
    e["rule"] = c.rule;
    e["direction"] = c.direction;
    e["affected"] = c.affected;
    e["where"] = c.where;
    e["change"] = c.change;
    e["why"] = c.why;
    e["old_location"] = c.old_location;
    e["new_location"] = c.new_location;
    e["via"] = c.via;
    e["accepted"] =
        c.accepted.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(c.accepted);
    changes.push_back(std::move(e));
  }
  j["changes"] = std::move(changes);
  nlohmann::ordered_json unused = nlohmann::ordered_json::array();
  for (const Acceptance& a : report.unused_acceptances) {
    unused.push_back({{"rule", a.rule}, {"where", a.where}, {"why", a.why}});
  }
  j["unused_acceptances"] = std::move(unused);
  return j.dump(2) + "\n";
}

}  // namespace rpckit::compat
