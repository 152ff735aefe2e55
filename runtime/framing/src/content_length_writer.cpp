#include "rpckit/framing/content_length_writer.hpp"

#include <array>
#include <charconv>
#include <cstring>
#include <vector>

#include "write_frame.hpp"

namespace rpckit::framing {

ContentLengthWriter::ContentLengthWriter(ByteSink& sink, std::size_t max_body_bytes)
    : out_(sink), max_body_bytes_(max_body_bytes) {}

namespace {

constexpr std::string_view kName = "Content-Length: ";
constexpr std::string_view kEnd = "\r\n\r\n";
using Header = std::array<char, 64>;  // name + up to 20 digits + end

std::string_view make_header(Header& header, std::size_t body_size) {
  std::memcpy(header.data(), kName.data(), kName.size());
  char* const digits = header.data() + kName.size();
  char* const digits_end = std::to_chars(digits, header.data() + header.size(), body_size).ptr;
  std::memcpy(digits_end, kEnd.data(), kEnd.size());
  return {header.data(), static_cast<std::size_t>(digits_end - header.data()) + kEnd.size()};
}

}  // namespace

WriteResult ContentLengthWriter::write(std::string_view body) {
  if (auto refused = check_size(body, max_body_bytes_)) return *refused;
  Header header{};
  const std::array<std::string_view, 2> parts{make_header(header, body.size()), body};
  return out_.write(parts);
}

WriteResult ContentLengthWriter::write_many(std::span<const std::string_view> bodies) {
  for (std::string_view body : bodies) {
    if (check_size(body, max_body_bytes_)) return FrameWriter::write_many(bodies);  // one by one
  }
  std::vector<Header> headers(bodies.size());
  std::vector<std::string_view> parts;
  parts.reserve(bodies.size() * 2);
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    parts.push_back(make_header(headers[i], bodies[i].size()));
    parts.push_back(bodies[i]);
  }
  return out_.write(parts);
}

}  // namespace rpckit::framing
