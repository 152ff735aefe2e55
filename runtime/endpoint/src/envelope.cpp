#include "rpckit/endpoint/envelope.hpp"

#include <charconv>
#include <cstdint>
#include <limits>

#include <nlohmann/json.hpp>

#include "rpckit/codec/json_reader.hpp"

namespace rpckit {
namespace {

using codec::JsonError;
using codec::JsonReader;

// The top-level members of a frame, as found.
struct Members {
  JsonReader::Kind top = JsonReader::Kind::kObject;
  bool has_jsonrpc = false, has_method = false, has_id = false;
  std::optional<std::string> jsonrpc, method;  // set when they are strings
  nlohmann::json id;                           // set when a string or an integer
  bool id_usable = false;
  bool id_null = false;  // "id": null
  std::optional<Span> params, result, error;
  JsonReader::Kind params_kind = JsonReader::Kind::kNull;
  std::string duplicate;  // the first envelope member that occurs twice
};

Span span_of(std::string_view frame, std::string_view value) {
  return Span{static_cast<std::size_t>(value.data() - frame.data()), value.size()};
}

// An integer id as the peer wrote it (no fraction, no exponent), if it fits 64 bits.
std::optional<nlohmann::json> integer_id(std::string_view text) {
  if (text.find_first_of(".eE") != std::string_view::npos) return std::nullopt;
  std::int64_t signed_value = 0;
  auto end = text.data() + text.size();
  if (auto [p, ec] = std::from_chars(text.data(), end, signed_value); ec == std::errc() && p == end) {
    return nlohmann::json(signed_value);
  }
  std::uint64_t unsigned_value = 0;
  if (auto [p, ec] = std::from_chars(text.data(), end, unsigned_value); ec == std::errc() && p == end) {
    return nlohmann::json(unsigned_value);
  }
  return std::nullopt;
}

Members scan_members(std::string_view frame, JsonReader::Options options) {
  JsonReader reader(frame, options);
  Members m;
  m.top = reader.peek();
  if (m.top != JsonReader::Kind::kObject) {
    reader.skip_value();
    reader.expect_end();
    return m;
  }
  reader.begin_object();
  std::string_view key;
  auto seen = [&](bool& present) {
    if (present && m.duplicate.empty()) m.duplicate = key;
    present = true;
  };
  auto value_span = [&](std::optional<Span>& out, JsonReader::Kind* kind) {
    if (out && m.duplicate.empty()) m.duplicate = key;
    JsonReader::Kind k = reader.peek();
    if (kind != nullptr) *kind = k;
    out = span_of(frame, reader.skip_value());
  };
  auto string_or_skip = [&](std::optional<std::string>& out) {
    if (reader.peek() == JsonReader::Kind::kString) {
      std::string value;
      reader.read_string(value);
      out = std::move(value);
    } else {
      out.reset();
      reader.skip_value();
    }
  };
  while (reader.next_member(key)) {
    if (key == "jsonrpc") {
      seen(m.has_jsonrpc);
      string_or_skip(m.jsonrpc);
    } else if (key == "method") {
      seen(m.has_method);
      string_or_skip(m.method);
    } else if (key == "id") {
      seen(m.has_id);
      m.id_usable = m.id_null = false;
      m.id = nullptr;
      switch (reader.peek()) {
        case JsonReader::Kind::kString: {
          std::string value;
          reader.read_string(value);
          m.id = std::move(value);
          m.id_usable = true;
          break;
        }
        case JsonReader::Kind::kNumber:
          if (auto id = integer_id(reader.read_number())) {
            m.id = std::move(*id);
            m.id_usable = true;
          }
          break;
        case JsonReader::Kind::kNull:
          reader.read_null();
          m.id_null = true;
          break;
        default: reader.skip_value(); break;
      }
    } else if (key == "params") {
      value_span(m.params, &m.params_kind);
    } else if (key == "result") {
      value_span(m.result, nullptr);
    } else if (key == "error") {
      value_span(m.error, nullptr);
    } else {
      reader.skip_value();
    }
  }
  reader.expect_end();
  return m;
}

bool is_response(const Members& m) { return !m.has_method && (m.result || m.error); }

EnvelopeProblem problem(const Members& m, std::string reason) {
  EnvelopeProblem p;
  p.kind = is_response(m) ? EnvelopeProblem::Kind::kInvalidResponse
                          : EnvelopeProblem::Kind::kInvalidRequest;
  if (m.id_usable && m.duplicate != "id") p.id = m.id;
  p.reason = std::move(reason);
  return p;
}

bool blank(const std::string& s) { return s.find_first_not_of(" \t\r\n") == std::string::npos; }

}  // namespace

std::variant<Envelope, EnvelopeProblem> scan_envelope(std::string_view frame,
                                                      const ScanRules& rules) {
  const std::size_t max_depth = rules.max_depth;
  Members m;
  try {
    m = scan_members(frame, JsonReader::Options{max_depth, true});
  } catch (const JsonError& e) {
    if (e.kind() == JsonError::Kind::kSyntax) {
      return EnvelopeProblem{EnvelopeProblem::Kind::kParseError, JsonValue(), e.what()};
    }
    // Valid JSON beyond this runtime's limits: find out whose it was without the limits
    // (the reader is iterative, so depth costs only a byte per level).
    try {
      Members lenient = scan_members(
          frame, JsonReader::Options{std::numeric_limits<std::size_t>::max(), false});
      return problem(lenient, e.what());
    } catch (const JsonError& syntax) {
      return EnvelopeProblem{EnvelopeProblem::Kind::kParseError, JsonValue(), syntax.what()};
    }
  }
  if (m.top == JsonReader::Kind::kArray) {
    return EnvelopeProblem{EnvelopeProblem::Kind::kInvalidRequest, JsonValue(),
                           "batches not supported", true};
  }
  if (m.top != JsonReader::Kind::kObject) return problem(m, "envelope is not an object");
  if (!m.duplicate.empty()) return problem(m, "member \"" + m.duplicate + "\" occurs twice");
  Envelope envelope;
  if (!m.has_jsonrpc && rules.jsonrpc_optional) {
    envelope.jsonrpc_absent = true;
  } else if (m.jsonrpc != "2.0") {
    return problem(m, "jsonrpc must be \"2.0\"");
  }

  if (!m.has_method) {
    if (!m.result && !m.error) return problem(m, "no method, result or error");
    if (m.result && m.error) return problem(m, "response needs exactly one of result and error");
    // A null id is a valid answer to a frame whose id could not be read; it matches no call.
    if (!m.id_usable && !m.id_null) {
      return problem(m, "response id must be a string or an integer");
    }
    envelope.kind = Envelope::Kind::kResponse;
    envelope.id = std::move(m.id);
    envelope.result = m.result;
    envelope.error = m.error;
    return envelope;
  }
  if (!m.method) return problem(m, "method must be a string");
  if (rules.blank_method_invalid && blank(*m.method)) return problem(m, "method is blank");
  if (m.has_id && !m.id_usable && !(m.id_null && rules.null_id_requests)) {
    return problem(m, rules.null_id_requests ? "id must be a string, an integer or null"
                                             : "id must be a string or an integer");
  }
  if (m.params && m.params_kind != JsonReader::Kind::kObject &&
      m.params_kind != JsonReader::Kind::kArray && m.params_kind != JsonReader::Kind::kNull) {
    return problem(m, "params must be an object or an array");
  }
  envelope.kind = m.has_id ? Envelope::Kind::kRequest : Envelope::Kind::kNotification;
  envelope.method = std::move(*m.method);
  envelope.id = std::move(m.id);
  envelope.params = m.params;
  return envelope;
}

}  // namespace rpckit
