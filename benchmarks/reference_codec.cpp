#include "reference_codec.hpp"

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "rpckit/codec/codec.hpp"

namespace rpckit::bench {

namespace v1 = streamnook::v1;

// ---- direct writer --------------------------------------------------------------------

namespace {

void append_string(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  std::size_t run = 0;  // start of the pending run of bytes that need no escape
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        out += "\\u00";
        out.push_back(kHex[c >> 4]);
        out.push_back(kHex[c & 0xF]);
    }
  }
  out.append(s.data() + run, s.size() - run);
  out.push_back('"');
}

void append_nullable(std::string& out, const rpckit::Nullable<std::string>& v) {
  if (v.has_value()) {
    append_string(out, *v);
  } else {
    out += "null";
  }
}

}  // namespace

void encode_direct(const v1::OnChatMessageParams& params, std::string& out) {
  const v1::ChatMessage& m = params.message;
  out.clear();
  out += "{\"channel\":";
  append_string(out, params.channel);
  out += ",\"message\":{\"id\":";
  append_string(out, m.id);
  out += ",\"user_id\":";
  append_string(out, m.user_id);
  out += ",\"login\":";
  append_string(out, m.login);
  out += ",\"display_name\":";
  append_string(out, m.display_name);
  out += ",\"color\":";
  append_nullable(out, m.color);
  out += ",\"badges\":[";
  for (std::size_t i = 0; i < m.badges.size(); ++i) {
    out += i == 0 ? "{\"name\":" : ",{\"name\":";
    append_string(out, m.badges[i].name);
    out += ",\"version\":";
    append_string(out, m.badges[i].version);
    out.push_back('}');
  }
  out += "],\"text\":";
  append_string(out, m.text);
  out += m.is_action ? ",\"is_action\":true" : ",\"is_action\":false";
  out += ",\"msg_type\":";
  append_nullable(out, m.msg_type);
  out += ",\"system_message\":";
  append_nullable(out, m.system_message);
  out += ",\"bits\":";
  if (m.bits.has_value()) {
    char digits[16];
    auto [end, ec] = std::to_chars(digits, digits + sizeof digits, *m.bits);
    out.append(digits, end);
  } else {
    out += "null";
  }
  out += ",\"ts\":";
  append_string(out, m.ts);
  out += "}}";
}

// ---- SAX decoder ----------------------------------------------------------------------

namespace {

// Where the parser is: the container being filled and the member the next value is for.
enum class Level : std::uint8_t { kTop, kParams, kMessage, kBadges, kBadge };
enum class Member : std::uint8_t {
  kNone,
  kSkip,  // no / unknown member
  kChannel,
  kMessage,  // params
  kId,
  kUserId,
  kLogin,
  kDisplayName,
  kColor,
  kBadges,
  kText,  // message
  kIsAction,
  kMsgType,
  kSystemMessage,
  kBits,
  kTs,
  kName,
  kVersion,  // badge
};

constexpr std::uint32_t bit(Member m) { return 1u << static_cast<unsigned>(m); }
constexpr std::uint32_t kParamsRequired = bit(Member::kChannel) | bit(Member::kMessage);
constexpr std::uint32_t kMessageRequired =
    bit(Member::kId) | bit(Member::kUserId) | bit(Member::kLogin) | bit(Member::kDisplayName) |
    bit(Member::kColor) | bit(Member::kBadges) | bit(Member::kText) | bit(Member::kIsAction) |
    bit(Member::kMsgType) | bit(Member::kSystemMessage) | bit(Member::kBits) | bit(Member::kTs);
constexpr std::uint32_t kBadgeRequired = bit(Member::kName) | bit(Member::kVersion);

constexpr std::string_view member_name(Member m) {
  switch (m) {
    case Member::kChannel:
      return "channel";
    case Member::kMessage:
      return "message";
    case Member::kId:
      return "id";
    case Member::kUserId:
      return "user_id";
    case Member::kLogin:
      return "login";
    case Member::kDisplayName:
      return "display_name";
    case Member::kColor:
      return "color";
    case Member::kBadges:
      return "badges";
    case Member::kText:
      return "text";
    case Member::kIsAction:
      return "is_action";
    case Member::kMsgType:
      return "msg_type";
    case Member::kSystemMessage:
      return "system_message";
    case Member::kBits:
      return "bits";
    case Member::kTs:
      return "ts";
    case Member::kName:
      return "name";
    case Member::kVersion:
      return "version";
    default:
      return "";
  }
}

class ChatSax {
 public:
  using json = nlohmann::json;
  explicit ChatSax(v1::OnChatMessageParams& out) : out_(out) {}

  bool null() {
    if (skipping()) return true;
    switch (take()) {
      case Member::kColor:
        out_.message.color.reset();
        return true;
      case Member::kMsgType:
        out_.message.msg_type.reset();
        return true;
      case Member::kSystemMessage:
        out_.message.system_message.reset();
        return true;
      case Member::kBits:
        out_.message.bits.reset();
        return true;
      default:
        return wrong("null");
    }
  }
  bool boolean(bool value) {
    if (skipping()) return true;
    if (member_ != Member::kIsAction) return wrong("boolean");
    take();
    out_.message.is_action = value;
    return true;
  }
  bool number_integer(json::number_integer_t value) {
    if (skipping()) return true;
    if (member_ != Member::kBits) return wrong("integer");
    if (value < 0 || value > 4294967295)
      return fail(member_, "expected a value >= 0 and <= 4294967295");
    take();
    out_.message.bits = static_cast<std::uint32_t>(value);
    return true;
  }
  bool number_unsigned(json::number_unsigned_t value) {
    if (skipping()) return true;
    if (member_ != Member::kBits) return wrong("integer");
    if (value > 4294967295u) return fail(member_, "expected a value >= 0 and <= 4294967295");
    take();
    out_.message.bits = static_cast<std::uint32_t>(value);
    return true;
  }
  bool number_float(json::number_float_t value, const json::string_t&) {
    if (skipping()) return true;
    if (member_ != Member::kBits) return wrong("number");
    if (value < 0 || value > 4294967295.0)
      return fail(member_, "expected a value >= 0 and <= 4294967295");
    // JSON Schema's "integer" accepts 100.0, as the generated decode does.
    if (value != std::floor(value)) return wrong("number");
    take();
    out_.message.bits = static_cast<std::uint32_t>(value);
    return true;
  }
  bool string(json::string_t& value) {
    if (skipping()) return true;
    v1::ChatMessage& m = out_.message;
    switch (member_) {
      case Member::kChannel:
        out_.channel = std::move(value);
        break;
      case Member::kId:
        m.id = std::move(value);
        break;
      case Member::kUserId:
        m.user_id = std::move(value);
        break;
      case Member::kLogin:
        m.login = std::move(value);
        break;
      case Member::kDisplayName:
        m.display_name = std::move(value);
        break;
      case Member::kColor:
        m.color = std::move(value);
        break;
      case Member::kText:
        m.text = std::move(value);
        break;
      case Member::kMsgType:
        m.msg_type = std::move(value);
        break;
      case Member::kSystemMessage:
        m.system_message = std::move(value);
        break;
      case Member::kTs:
        if (!rpckit::codec::is_rfc3339_date_time(value)) {
          return fail(member_, "expected an RFC 3339 date-time");
        }
        m.ts = std::move(value);
        break;
      case Member::kName:
        m.badges.back().name = std::move(value);
        break;
      case Member::kVersion:
        m.badges.back().version = std::move(value);
        break;
      default:
        return wrong("string");
    }
    take();
    return true;
  }
  bool binary(json::binary_t&) { return wrong("binary"); }

  bool start_object(std::size_t) {
    if (skipping()) return ++skip_depth_, true;
    if (level_ == Level::kTop) return enter(Level::kParams);
    if (member_ == Member::kMessage) return take(), enter(Level::kMessage);
    if (level_ == Level::kBadges) {
      out_.message.badges.emplace_back();
      return enter(Level::kBadge);
    }
    return wrong("object");
  }
  bool key(json::string_t& name) {
    member_ = lookup(name);
    if (member_ != Member::kSkip) seen_[depth_] |= bit(member_);
    return true;
  }
  bool end_object() {
    if (skip_depth_ > 0) return --skip_depth_, true;
    const std::uint32_t required = level_ == Level::kParams    ? kParamsRequired
                                   : level_ == Level::kMessage ? kMessageRequired
                                                               : kBadgeRequired;
    if (std::uint32_t missing = required & ~seen_[depth_]) {
      Member first = Member::kNone;
      while ((missing & bit(first)) == 0) first = static_cast<Member>(static_cast<int>(first) + 1);
      member_ = first;
      return fail(first, "missing required field");
    }
    return leave();
  }
  bool start_array(std::size_t) {
    if (skipping()) return ++skip_depth_, true;
    if (member_ != Member::kBadges) return wrong("array");
    take();
    out_.message.badges.clear();
    return enter(Level::kBadges);
  }
  bool end_array() {
    if (skip_depth_ > 0) return --skip_depth_, true;
    return leave();
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::json::exception& e) {
    error_ = "(root): invalid JSON at byte " + std::to_string(position) + ": " + e.what();
    return false;
  }

  const std::string& error() const { return error_; }

 private:
  static constexpr std::size_t kMaxDepth = 5;

  // An unknown member's value (or anything inside one) is skipped whole.
  // The caller of skipping() ignores a scalar; start_object/start_array count the depth.
  bool skipping() {
    if (skip_depth_ > 0) return true;
    if (member_ != Member::kSkip) return false;
    member_ = Member::kNone;
    return true;
  }
  Member take() { return std::exchange(member_, Member::kNone); }
  bool enter(Level level) {
    parents_[depth_] = level_;
    ++depth_;
    seen_[depth_] = 0;
    level_ = level;
    member_ = Member::kNone;
    return true;
  }
  bool leave() {
    level_ = parents_[--depth_];
    member_ = Member::kNone;
    return true;
  }

  Member lookup(std::string_view name) const {
    constexpr Member kParamsMembers[] = {Member::kChannel, Member::kMessage};
    constexpr Member kMessageMembers[] = {
        Member::kId,      Member::kUserId,        Member::kLogin, Member::kDisplayName,
        Member::kColor,   Member::kBadges,        Member::kText,  Member::kIsAction,
        Member::kMsgType, Member::kSystemMessage, Member::kBits,  Member::kTs};
    constexpr Member kBadgeMembers[] = {Member::kName, Member::kVersion};
    auto find = [name](const auto& members) {
      for (Member m : members) {
        if (member_name(m) == name) return m;
      }
      return Member::kSkip;
    };
    switch (level_) {
      case Level::kParams:
        return find(kParamsMembers);
      case Level::kMessage:
        return find(kMessageMembers);
      case Level::kBadge:
        return find(kBadgeMembers);
      default:
        return Member::kSkip;
    }
  }

  bool wrong(std::string_view got) {
    std::string expected = "expected ";
    switch (member_) {
      case Member::kMessage:
        expected += "object";
        break;
      case Member::kBadges:
        expected += "array";
        break;
      case Member::kIsAction:
        expected += "boolean";
        break;
      case Member::kBits:
        expected += "integer or null";
        break;
      case Member::kColor:
      case Member::kMsgType:
      case Member::kSystemMessage:
        expected += "string or null";
        break;
      case Member::kNone:
        expected += "object";
        break;
      default:
        expected += "string";
        break;
    }
    return fail(member_, expected + ", got " + std::string(got));
  }

  // "params.message.badges[1].name: ..." from the parser's position.
  bool fail(Member member, std::string what) {
    std::string path = "params";
    const std::size_t size = out_.message.badges.size();
    for (std::size_t d = 1; d <= depth_; ++d) {
      const Level level = d == depth_ ? level_ : parents_[d];
      if (level == Level::kMessage) path += ".message";
      if (level == Level::kBadges) path += ".badges";
      if (level == Level::kBadge) {
        path += '[';  // (not "[" + ...: GCC 12 -Wrestrict false positive at -O3)
        path += std::to_string(size - 1);
        path += ']';
      }
    }
    if (member != Member::kNone && member != Member::kSkip) {
      path += ".";
      path += member_name(member);
    }
    error_ = path + ": " + what;
    return false;
  }

  v1::OnChatMessageParams& out_;
  Level level_ = Level::kTop;
  Member member_ = Member::kNone;
  std::size_t depth_ = 0;
  Level parents_[kMaxDepth + 1] = {};
  std::uint32_t seen_[kMaxDepth + 1] = {};
  std::size_t skip_depth_ = 0;
  std::string error_;
};

}  // namespace

void decode_sax(std::string_view text, v1::OnChatMessageParams& out) {
  ChatSax sax(out);
  if (!nlohmann::json::sax_parse(text, &sax)) {
    const std::string& error = sax.error();
    const std::size_t colon = error.find(": ");
    throw rpckit::codec::DecodeError(error.substr(0, colon), error.substr(colon + 2));
  }
}

}  // namespace rpckit::bench
