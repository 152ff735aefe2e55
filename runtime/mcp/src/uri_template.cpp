#include "rpckit/mcp/uri_template.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace rpckit::mcp {
namespace {

constexpr std::size_t kUnset = static_cast<std::size_t>(-1);

bool is_alpha(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
bool is_hex(unsigned char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool is_unreserved(unsigned char c) {
  return is_alpha(c) || is_digit(c) || c == '-' || c == '.' || c == '_' || c == '~';
}
// What a simple or query value holds besides %XX: unreserved, and what encodeURIComponent
// leaves unescaped.
bool is_value_char(unsigned char c) {
  return is_unreserved(c) || c == '!' || c == '\'' || c == '(' || c == ')' || c == '*';
}
// What a reserved ({+var}, {#var}) value holds besides %XX: unreserved and reserved.
bool is_reserved_char(unsigned char c) {
  return is_unreserved(c) || std::string_view(":/?#[]@!$&'()*+,;=").find(static_cast<char>(c)) !=
                                 std::string_view::npos;
}
// RFC 6570 §2.1: a literal is any character but these (and '%' outside a %XX).
bool is_literal_char(unsigned char c) {
  return c > 0x20 && c != 0x7f &&
         std::string_view("\"'<>\\^`{|}").find(static_cast<char>(c)) == std::string_view::npos;
}

// Whether text[i] starts a %XX.
bool is_pct_encoded(std::string_view text, std::size_t i) {
  return text[i] == '%' && i + 2 < text.size() && is_hex(static_cast<unsigned char>(text[i + 1])) &&
         is_hex(static_cast<unsigned char>(text[i + 2]));
}

int hex_value(unsigned char c) {
  if (is_digit(c)) return c - '0';
  return (c | 0x20) - 'a' + 10;
}

// The value of a matched span; every '%' in it was checked to start a %XX.
std::string percent_decoded(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%') {
      out += static_cast<char>(hex_value(static_cast<unsigned char>(text[i + 1])) * 16 +
                               hex_value(static_cast<unsigned char>(text[i + 2])));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

// Whether `text` is made of value characters and %XX only.
bool is_value(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '%') {
      if (!is_pct_encoded(text, i)) return false;
      i += 2;
    } else if (!is_value_char(c)) {
      return false;
    }
  }
  return true;
}

}  // namespace

// Reads the template and writes the path part's program; the query names are kept apart.
class UriTemplate::Compiler {
 public:
  Compiler(UriTemplate& out, std::string_view text) : out_(out), text_(text) {}

  void run() {
    std::size_t i = 0;
    while (i < text_.size()) {
      const auto c = static_cast<unsigned char>(text_[i]);
      if (c == '{') {
        const std::size_t close = text_.find('}', i + 1);
        if (close == std::string_view::npos) fail(i, "'{' is never closed");
        expression(i, text_.substr(i + 1, close - i - 1));
        i = close + 1;
        continue;
      }
      if (in_query_) fail(i, "nothing but {?...} and {&...} may follow a {?...} expression");
      if (c == '%') {
        if (!is_pct_encoded(text_, i)) fail(i, "'%' not followed by two hexadecimal digits");
        for (std::size_t k = 0; k < 3; ++k) byte(static_cast<unsigned char>(text_[i + k]));
        i += 3;
        continue;
      }
      if (c == '}') fail(i, "'}' closes no expression");
      if (!is_literal_char(c)) fail(i, "a character a URI template may not hold");
      if (c == '?') literal_question_ = true;
      byte(c);
      ++i;
    }
    emit({Op::kMatch});
  }

 private:
  [[noreturn]] void fail(std::size_t offset, const std::string& why) const {
    throw std::invalid_argument("URI template \"" + std::string(text_) + "\": at offset " +
                                std::to_string(offset) + ": " + why);
  }

  void expression(std::size_t at, std::string_view body) {
    char op = 0;
    if (!body.empty() && std::string_view("+#./;?&=,!@|").find(body[0]) != std::string_view::npos) {
      op = body[0];
      body.remove_prefix(1);
    }
    if (op == ';') fail(at, "path-style parameters ({;...}) are not matched");
    if (op != 0 && std::string_view("=,!@|").find(op) != std::string_view::npos) {
      fail(at, std::string("the operator '") + op + "' is reserved by RFC 6570");
    }
    const std::vector<std::string> names = variable_names(at, body);
    if (op == '?' || op == '&') {
      if (op == '?' && literal_question_) {
        fail(at, "a {?...} expression after a literal '?' (write the fixed part as a variable)");
      }
      if (op == '&' && !in_query_) fail(at, "a {&...} expression continues a {?...} one");
      in_query_ = true;
      out_.query_names_.insert(out_.query_names_.end(), names.begin(), names.end());
      return;
    }
    if (in_query_) fail(at, "nothing but {?...} and {&...} may follow a {?...} expression");
    for (std::size_t k = 0; k < names.size(); ++k) {
      const auto slot = static_cast<std::uint32_t>(2 * out_.path_variables_.size());
      out_.path_variables_.push_back(names[k]);
      switch (op) {
        case 0:
        case '+':
          if (k > 0) byte(',');
          capture(slot, op == '+' ? CharClass::kReserved : CharClass::kValue, true);
          break;
        case '#':
          // "#" before the first value, "," before the others; each may be left out.
          optional(k == 0 ? '#' : ',', slot, CharClass::kReserved);
          break;
        default:  // '/' and '.': the operator before each value
          optional(static_cast<unsigned char>(op), slot, CharClass::kValue);
          break;
      }
    }
  }

  // The names of a variable list, checked: varchar *( ["."] varchar ), no modifier, no name
  // the template already has.
  std::vector<std::string> variable_names(std::size_t at, std::string_view body) {
    std::vector<std::string> names;
    std::size_t start = 0;
    while (true) {
      const std::size_t comma = body.find(',', start);
      const std::string_view spec = body.substr(start, comma - start);
      if (!spec.empty() && (spec.back() == '*' || spec.find(':') != std::string_view::npos)) {
        fail(at, "explode (*) and prefix (:n) modifiers are not matched");
      }
      if (!is_variable_name(spec)) {
        fail(at, "\"" + std::string(spec) + "\" is not a variable name");
      }
      std::string name(spec);
      if (std::find(out_.variables_.begin(), out_.variables_.end(), name) !=
          out_.variables_.end()) {
        fail(at, "the variable \"" + name + "\" is named twice");
      }
      out_.variables_.push_back(name);
      names.push_back(std::move(name));
      if (comma == std::string_view::npos) return names;
      start = comma + 1;
    }
  }

  static bool is_variable_name(std::string_view name) {
    bool after_char = false;  // a '.' only between varchars
    for (std::size_t i = 0; i < name.size(); ++i) {
      const auto c = static_cast<unsigned char>(name[i]);
      if (c == '.') {
        if (!after_char) return false;
        after_char = false;
        continue;
      }
      if (c == '%') {
        if (!is_pct_encoded(name, i)) return false;
        i += 2;
      } else if (!is_alpha(c) && !is_digit(c) && c != '_') {
        return false;
      }
      after_char = true;
    }
    return after_char;
  }

  std::uint32_t here() const { return static_cast<std::uint32_t>(out_.program_.size()); }
  std::uint32_t emit(Instruction in) {
    out_.program_.push_back(in);
    return here() - 1;
  }
  void byte(unsigned char c) { emit({Op::kByte, c}); }

  // One character of the class, or one %XX.
  void item(CharClass cls) {
    const std::uint32_t split = emit({Op::kSplit});
    out_.program_[split].x = here();
    emit({Op::kClass, static_cast<std::uint8_t>(cls)});
    const std::uint32_t jump = emit({Op::kJump});
    out_.program_[split].y = here();
    byte('%');
    emit({Op::kClass, static_cast<std::uint8_t>(CharClass::kHex)});
    emit({Op::kClass, static_cast<std::uint8_t>(CharClass::kHex)});
    out_.program_[jump].x = here();
  }

  // The value between two saves: one item or more, or any number; as many as it can.
  void capture(std::uint32_t slot, CharClass cls, bool at_least_one) {
    emit({Op::kSave, 0, slot});
    if (at_least_one) {
      const std::uint32_t loop = here();
      item(cls);
      emit({Op::kSplit, 0, loop, here() + 1});
    } else {
      const std::uint32_t split = emit({Op::kSplit});
      out_.program_[split].x = here();
      item(cls);
      emit({Op::kJump, 0, split});
      out_.program_[split].y = here();
    }
    emit({Op::kSave, 0, slot + 1});
  }

  // `prefix` and a value, or nothing (rather the former).
  void optional(unsigned char prefix, std::uint32_t slot, CharClass cls) {
    const std::uint32_t split = emit({Op::kSplit});
    out_.program_[split].x = here();
    byte(prefix);
    capture(slot, cls, false);
    out_.program_[split].y = here();
  }

  UriTemplate& out_;
  std::string_view text_;
  bool in_query_ = false;
  bool literal_question_ = false;
};

// A Pike VM: every thread of the NFA advances one byte at a time, in priority order, with its
// own captures; a state reached twice in one step keeps its first (higher-priority) thread.
class UriTemplate::Machine {
 public:
  explicit Machine(const UriTemplate& t)
      : program_(t.program_), slots_(2 * t.path_variables_.size()), seen_(program_.size(), 0) {}

  // The captures of the highest-priority thread that reads all of `input`, or nothing.
  std::optional<std::vector<std::size_t>> run(std::string_view input) {
    List current;
    List next;
    std::vector<std::size_t> captures(slots_, kUnset);
    ++generation_;
    add(current, 0, captures, 0);
    for (std::size_t pos = 0;; ++pos) {
      if (current.pcs.empty()) return std::nullopt;
      ++generation_;
      next.clear();
      for (std::size_t t = 0; t < current.pcs.size(); ++t) {
        const Instruction& in = program_[current.pcs[t]];
        const auto* first = current.captures.data() + t * slots_;
        if (in.op == Op::kMatch) {
          if (pos == input.size()) return std::vector<std::size_t>(first, first + slots_);
          continue;
        }
        if (pos == input.size() || !accepts(in, static_cast<unsigned char>(input[pos]))) continue;
        captures.assign(first, first + slots_);
        add(next, current.pcs[t] + 1, captures, pos + 1);
      }
      if (pos == input.size()) return std::nullopt;
      std::swap(current, next);
    }
  }

 private:
  struct List {
    std::vector<std::uint32_t> pcs;
    std::vector<std::size_t> captures;  // slots_ per thread
    void clear() {
      pcs.clear();
      captures.clear();
    }
  };

  static bool accepts(const Instruction& in, unsigned char c) {
    if (in.op == Op::kByte) return c == in.byte;
    switch (static_cast<CharClass>(in.byte)) {
      case CharClass::kValue:
        return is_value_char(c);
      case CharClass::kReserved:
        return is_reserved_char(c);
      case CharClass::kHex:
        return is_hex(c);
    }
    return false;
  }

  // Follows the jumps, splits and saves from `pc`; the recursion is no deeper than the
  // program is long (each state once per step).
  void add(List& list, std::uint32_t pc, std::vector<std::size_t>& captures, std::size_t pos) {
    if (seen_[pc] == generation_) return;
    seen_[pc] = generation_;
    const Instruction& in = program_[pc];
    switch (in.op) {
      case Op::kJump:
        add(list, in.x, captures, pos);
        return;
      case Op::kSplit:
        add(list, in.x, captures, pos);
        add(list, in.y, captures, pos);
        return;
      case Op::kSave: {
        const std::size_t before = captures[in.x];
        captures[in.x] = pos;
        add(list, pc + 1, captures, pos);
        captures[in.x] = before;
        return;
      }
      default:
        list.pcs.push_back(pc);
        list.captures.insert(list.captures.end(), captures.begin(), captures.end());
    }
  }

  const std::vector<Instruction>& program_;
  std::size_t slots_;
  std::vector<std::uint64_t> seen_;
  std::uint64_t generation_ = 0;
};

UriTemplate::UriTemplate(std::string_view text) : text_(text) { Compiler(*this, text).run(); }

std::optional<UriTemplate::Values> UriTemplate::match(std::string_view uri) const {
  std::string_view path = uri;
  std::optional<std::string_view> query;
  if (!query_names_.empty()) {
    if (const std::size_t mark = uri.find('?'); mark != std::string_view::npos) {
      path = uri.substr(0, mark);
      query = uri.substr(mark + 1);
    }
  }
  const auto captures = Machine(*this).run(path);
  if (!captures) return std::nullopt;
  Values values;
  for (std::size_t i = 0; i < path_variables_.size(); ++i) {
    const std::size_t begin = (*captures)[2 * i];
    const std::size_t end = (*captures)[2 * i + 1];
    if (begin != kUnset && end != kUnset) {
      values.emplace(path_variables_[i], percent_decoded(path.substr(begin, end - begin)));
    }
  }
  if (!query) return values;
  return match_query(*query, std::move(values));
}

std::optional<UriTemplate::Values> UriTemplate::match_query(std::string_view query,
                                                            Values values) const {
  if (query.empty()) return values;
  std::size_t start = 0;
  while (true) {
    const std::size_t amp = query.find('&', start);
    const std::string_view part = query.substr(start, amp - start);
    const std::size_t eq = part.find('=');
    const std::string_view name = part.substr(0, eq);
    const std::string_view value =
        eq == std::string_view::npos ? std::string_view() : part.substr(eq + 1);
    if (std::find(query_names_.begin(), query_names_.end(), name) == query_names_.end() ||
        values.contains(name) || !is_value(value)) {
      return std::nullopt;
    }
    values.emplace(std::string(name), percent_decoded(value));
    if (amp == std::string_view::npos) return values;
    start = amp + 1;
  }
}

}  // namespace rpckit::mcp
