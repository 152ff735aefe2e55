// The sample server's resources: sample://readme (its text and the notes added since), the
// template sample://echo/{text} (a resource whose text is the rest of its URI, percent-decoded),
// and subscriptions, which hear of every note (notifications/resources/updated).
#include <cctype>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "rpckit/mcp/resource_set.hpp"
#include "sample_server.hpp"
#include "sample_support.hpp"

namespace mcp_sample {
namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  const int lower = std::tolower(static_cast<unsigned char>(c));
  return lower >= 'a' && lower <= 'f' ? lower - 'a' + 10 : -1;
}

// RFC 3986 percent-decoding; nullopt for a '%' not followed by two hex digits.
std::optional<std::string> percent_decoded(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    if (i + 2 >= text.size()) return std::nullopt;
    const int high = hex_digit(text[i + 1]);
    const int low = hex_digit(text[i + 2]);
    if (high < 0 || low < 0) return std::nullopt;
    out += static_cast<char>(high * 16 + low);
    i += 2;
  }
  return out;
}

}  // namespace

std::string SampleServer::readme() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string text(kReadmeText);
  for (const std::string& n : notes_) text += "note: " + n + "\n";
  return text;
}

std::optional<std::string> SampleServer::resource_text(const std::string& uri) const {
  if (uri == kReadmeUri) return readme();
  if (uri.starts_with(kEchoPrefix)) return percent_decoded(uri.substr(kEchoPrefix.size()));
  return std::nullopt;
}

mcp::ResourcesListResult SampleServer::resources_list(Peer&, const mcp::ResourcesListParams&) {
  mcp::ResourcesListResult r;
  mcp::Resource readme_resource;
  readme_resource.uri = std::string(kReadmeUri);
  readme_resource.name = "readme";
  readme_resource.mimeType = "text/plain";
  r.resources = {readme_resource};
  return r;
}

mcp::ResourcesTemplatesListResult SampleServer::resources_templates_list(
    Peer&, const mcp::ResourcesTemplatesListParams&) {
  mcp::ResourcesTemplatesListResult r;
  mcp::ResourceTemplate echo;
  echo.uriTemplate = std::string(kEchoPrefix) + "{text}";
  echo.name = "echo";
  echo.description = "A resource whose text is the rest of its URI, percent-decoded.";
  echo.mimeType = "text/plain";
  r.resourceTemplates = {echo};
  return r;
}

mcp::ResourcesReadResult SampleServer::resources_read(Peer&, const mcp::ResourcesReadParams& p) {
  std::optional<std::string> text = resource_text(p.uri);
  if (!text) rpckit::mcp::resource_not_found(p.uri);
  mcp::ResourcesReadResult r;
  mcp::ResourceContents c;
  c.uri = p.uri;
  c.mimeType = "text/plain";
  c.text = std::move(*text);
  r.contents = {c};
  return r;
}

mcp::ResourcesSubscribeResult SampleServer::resources_subscribe(
    Peer&, const mcp::ResourcesSubscribeParams& p) {
  if (!resource_text(p.uri)) rpckit::mcp::resource_not_found(p.uri);
  std::lock_guard<std::mutex> lock(mutex_);
  subscribed_.insert(p.uri);
  return {};
}

mcp::ResourcesUnsubscribeResult SampleServer::resources_unsubscribe(
    Peer&, const mcp::ResourcesUnsubscribeParams& p) {
  std::lock_guard<std::mutex> lock(mutex_);
  subscribed_.erase(p.uri);  // one never subscribed: nothing to do (and no error)
  return {};
}

mcp::ToolsCallResult SampleServer::note(const tools::TextArgs& args) {
  bool subscribed = false;
  std::size_t count = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    notes_.push_back(args.text);
    count = notes_.size();
    subscribed = subscribed_.contains(std::string(kReadmeUri));
  }
  if (subscribed) {
    mcp::NotificationsResourcesUpdatedParams updated;
    updated.uri = std::string(kReadmeUri);
    client_.notifications_resources_updated(updated);
  }
  return rpckit::mcp::text_result("noted (" + std::to_string(count) + " notes)");
}

}  // namespace mcp_sample
