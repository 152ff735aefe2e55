#pragma once
// A schema version named on the command line: a directory holding protocol.json, a protocol
// file, or a git ref of the repository around `cwd` (`streamnook-v1.0`, `HEAD~1`,
// `<ref>:<dir>`; the dir defaults to `schema`), checked out into a temporary directory.
#include <filesystem>
#include <stdexcept>
#include <string>

namespace rpckit::compat {

// An argument that names no directory, file or git ref, or a ref without the schema.
class SourceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class SchemaSource {
 public:
  // Throws SourceError.
  static SchemaSource open(const std::string& argument,
                           const std::filesystem::path& cwd = std::filesystem::current_path());
  SchemaSource(SchemaSource&& other) noexcept;
  SchemaSource& operator=(SchemaSource&&) = delete;
  SchemaSource(const SchemaSource&) = delete;
  ~SchemaSource();  // removes a git ref's checkout

  const std::filesystem::path& protocol_file() const { return protocol_file_; }
  // For the report: "schema/protocol.json", "streamnook-v1.0:schema (f6bdf56)".
  const std::string& label() const { return label_; }

 private:
  SchemaSource() = default;
  std::filesystem::path protocol_file_;
  std::string label_;
  std::filesystem::path temp_dir_;  // "" unless checked out from git
};

}  // namespace rpckit::compat
