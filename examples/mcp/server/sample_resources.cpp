// The sample server's resources: sample://readme (its text and the notes added since) in a
// ResourceSet, the template sample://echo/{text} (a resource whose text is the URI's last
// segment, percent-decoded) in a ResourceTemplateSet, and subscriptions, which hear of every
// note (notifications/resources/updated).
#include <string>
#include <utility>

#include "sample_server.hpp"
#include "sample_support.hpp"

namespace mcp_sample {
namespace {

mcp::ResourcesReadResult text_contents(const std::string& uri, std::string text) {
  mcp::ResourcesReadResult r;
  mcp::ResourceContents c;
  c.uri = uri;
  c.mimeType = "text/plain";
  c.text = std::move(text);
  r.contents = {c};
  return r;
}

}  // namespace

void SampleServer::add_resources() {
  mcp::Resource readme_resource;
  readme_resource.uri = std::string(kReadmeUri);
  readme_resource.name = "readme";
  readme_resource.mimeType = "text/plain";
  resources_.add(readme_resource, [this](const mcp::ResourcesReadParams& p) {
    return text_contents(p.uri, readme());
  });

  mcp::ResourceTemplate echo;
  echo.uriTemplate = "sample://echo/{text}";
  echo.name = "echo";
  echo.description = "A resource whose text is the URI's last segment, percent-decoded.";
  echo.mimeType = "text/plain";
  resource_templates_.add(
      echo,
      [](const mcp::ResourcesReadParams& p, const rpckit::mcp::UriTemplate::Values& values) {
        return text_contents(p.uri, values.at("text"));
      },
      {{"text", rpckit::mcp::starts_with({"hello", "help", "world"})}});
}

std::string SampleServer::readme() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string text(kReadmeText);
  for (const std::string& n : notes_) text += "note: " + n + "\n";
  return text;
}

mcp::ResourcesListResult SampleServer::resources_list(Peer&, const mcp::ResourcesListParams& p) {
  return resources_.list(p);
}

mcp::ResourcesTemplatesListResult SampleServer::resources_templates_list(
    Peer&, const mcp::ResourcesTemplatesListParams& p) {
  return resource_templates_.list(p);
}

mcp::ResourcesReadResult SampleServer::resources_read(Peer&, const mcp::ResourcesReadParams& p) {
  if (auto contents = resources_.try_read(p)) return std::move(*contents);
  return resource_templates_.read(p);  // neither has it: -32002 with the URI
}

mcp::ResourcesSubscribeResult SampleServer::resources_subscribe(
    Peer&, const mcp::ResourcesSubscribeParams& p) {
  if (!resources_.contains(p.uri) && !resource_templates_.matches(p.uri)) {
    rpckit::mcp::resource_not_found(p.uri);
  }
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
