#include "rpckit/roles/one_shot_line.hpp"

#include "rpckit/codec/json_reader.hpp"

namespace rpckit::roles {

framing::ReaderOptions line_reader_options(bool strict_lines) {
  framing::ReaderOptions options;
  options.deliver_blank_lines = strict_lines;
  options.accept_unterminated_last_line = strict_lines;
  return options;
}

LineReceived parse_line(std::string line) {
  LineReceived got;
  got.status = LineReceived::Status::kMalformed;
  if (line.empty()) {
    got.reason = "an empty line";
  } else {
    try {
      codec::validate_json(line);
      got.message = nlohmann::json::parse(line);
      if (got.message.is_object()) {
        got.status = LineReceived::Status::kOk;
      } else {
        got.reason = std::string("a JSON ") + got.message.type_name() + ", not an object";
        got.message = nullptr;
      }
    } catch (const codec::JsonError& e) {
      got.reason = std::string("not one JSON value: ") + e.what();
    } catch (const nlohmann::json::exception& e) {  // not expected once validated
      got.reason = std::string("not one JSON value: ") + e.what();
    }
  }
  got.line = std::move(line);
  return got;
}

LineReceived read_failure(const framing::ReadResult& result) {
  LineReceived got;
  got.reason = result.reason;
  switch (result.status) {
    case framing::ReadStatus::kEof: got.status = LineReceived::Status::kEof; break;
    case framing::ReadStatus::kOversize: got.status = LineReceived::Status::kMalformed; break;
    default: got.status = LineReceived::Status::kIoError; break;
  }
  return got;
}

}  // namespace rpckit::roles
