#include "rpckit/framing/content_length_writer.hpp"

#include <array>
#include <charconv>
#include <cstring>

#include "write_frame.hpp"

namespace rpckit::framing {

ContentLengthWriter::ContentLengthWriter(ByteSink& sink, std::size_t max_body_bytes)
    : out_(sink), max_body_bytes_(max_body_bytes) {}

WriteResult ContentLengthWriter::write(std::string_view body) {
  if (auto refused = check_size(body, max_body_bytes_)) return *refused;
  constexpr std::string_view kName = "Content-Length: ";
  constexpr std::string_view kEnd = "\r\n\r\n";
  std::array<char, 64> header{};  // name + up to 20 digits + end
  std::memcpy(header.data(), kName.data(), kName.size());
  char* const digits = header.data() + kName.size();
  char* const digits_end = std::to_chars(digits, header.data() + header.size(), body.size()).ptr;
  std::memcpy(digits_end, kEnd.data(), kEnd.size());
  const auto header_size = static_cast<std::size_t>(digits_end - header.data()) + kEnd.size();
  const std::array<std::string_view, 2> parts{std::string_view(header.data(), header_size), body};
  return out_.write(parts);
}

}  // namespace rpckit::framing
