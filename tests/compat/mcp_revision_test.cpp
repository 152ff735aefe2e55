// MCP 2025-06-18 (schema/mcp/2025-06-18) against 2025-11-25 (schema/mcp): every difference of the
// two revisions of a protocol nobody here wrote, with its rule, direction and verdict, through
// rpckit::compat. The previous revision's folder is written from the specification's
// schema/2025-06-18/schema.ts; its README lists the differences this test sees.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support.hpp"

namespace rpckit::compat::test {
namespace {

using ::testing::Contains;
using ::testing::UnorderedElementsAreArray;

// MCP's schema: the current revision (schema/mcp) or the previous one (schema/mcp/2025-06-18).
gen::SchemaSet mcp_schema(bool previous) {
  const auto dir = gen::test::source_dir() / "schema" / "mcp";
  return gen::SchemaSet::load((previous ? dir / "2025-06-18" : dir) / "protocol.json");
}

Report compare_mcp() { return compare(mcp_schema(true), mcp_schema(false), {}); }

TEST(McpRevision, EveryDifferenceFrom20250618HasItsVerdict) {
  Report r = compare_mcp();
  const std::vector<std::string> expected = {
      // The revision itself: a new module and namespace for C++, the version constant bumped (MCP
      // negotiates it in initialize: a peer answers the version it speaks), the one profile
      // difference (an answer to an unreadable id: "id": null in 2025-06-18, which requires an
      // id, no id in 2025-11-25), the task _meta keys and URL elicitation's error code.
      "breaking | protocol.namespace |  | protocol x-namespace",
      "breaking | protocol.module |  | protocol x-module",
      "breaking | protocol.profile |  | protocol x-profile",
      "breaking | constant.version |  | constant protocol_version",
      "additive | constant.added |  | constant related_task_meta_key",
      "additive | constant.added |  | constant model_immediate_response_meta_key",
      "additive | error.added |  | error code -32042",
      // sampling and elicitation capabilities were open objects (maps of any JSON) and became
      // structs of optional members (sampling.tools/context, elicitation.form/url): only those
      // members narrow (a new server rejects an old client's member of that name with another
      // shape); any other member is ignored, as before.
      "breaking | type.narrower | client_to_server | ClientCapabilities.sampling.context",
      "breaking | type.narrower | client_to_server | ClientCapabilities.sampling.tools",
      "breaking | type.narrower | client_to_server | ClientCapabilities.elicitation.form",
      "breaking | type.narrower | client_to_server | ClientCapabilities.elicitation.url",
      // Icons, Implementation.description/websiteUrl, tasks capabilities, Tool.execution and the
      // tools' $schema: new optional members, additive for the reader.
      "additive | member.optional_added | client_to_server | ClientCapabilities.tasks",
      "additive | member.optional_added | client_to_server | Implementation.description",
      "additive | member.optional_added | client_to_server | Implementation.websiteUrl",
      "additive | member.optional_added | client_to_server | Implementation.icons",
      "additive | member.optional_added | server_to_client | ServerCapabilities.tasks",
      "additive | member.optional_added | server_to_client | Implementation.description",
      "additive | member.optional_added | server_to_client | Implementation.websiteUrl",
      "additive | member.optional_added | server_to_client | Implementation.icons",
      "additive | member.optional_added | server_to_client | Resource.icons",
      "additive | member.optional_added | server_to_client | ResourceTemplate.icons",
      "additive | member.optional_added | server_to_client | Prompt.icons",
      "additive | member.optional_added | server_to_client | ResourceLink.icons",
      "additive | member.optional_added | server_to_client | Tool.inputSchema.$schema",
      "additive | member.optional_added | server_to_client | Tool.execution",
      "additive | member.optional_added | server_to_client | Tool.outputSchema.$schema",
      "additive | member.optional_added | server_to_client | Tool.icons",
      // notifications/cancelled.requestId became optional (tasks are cancelled otherwise): by the
      // schemas a new sender may leave it out. 2025-11-25 says it MUST be given for a request
      // that is not a task, so conforming peers never meet this break.
      "breaking | member.now_optional | client_to_server | "
      "notifications/cancelled.params.requestId",
      "breaking | member.now_optional | server_to_client | "
      "notifications/cancelled.params.requestId",
      // tools/call: task augmentation (a param, and -32601 for a tool's task-support mismatch) and
      // -32042 when it needs a URL elicitation first. Additive: the new param is sent only to a
      // server that declared tasks.requests.tools.call (its x-gate), which a 2025-06-18 server
      // never does.
      "additive | gate.new_param_gated | client_to_server | message tools/call",
      "additive | errors.added | client_to_server | message tools/call",
      "additive | errors.added | client_to_server | message tools/call",
      "additive | member.optional_added | client_to_server | tools/call.params.task",
      // ... and a request carrying it is answered with a CreateTaskResult (x-result-when):
      // additive, as the param is new.
      "additive | result_when.added | client_to_server | message tools/call",
      // Sampling with tools: SamplingMessage.content (and the result's content) was one block
      // tagged by `type` and became a block or an array: wider, which breaks an old receiver of
      // a new sender's array. The blocks compare as before, tag by tag: tool_use and tool_result
      // are new members of an open union.
      // The new params (tools, toolChoice, task) are optional members, each sent only to a client
      // that declared sampling.tools or tasks.requests.sampling.createMessage (gated); "toolUse"
      // is a new value of an open enum; includeContext gained its default.
      "additive | gate.new_param_gated | server_to_client | message sampling/createMessage",
      "additive | gate.new_param_gated | server_to_client | message sampling/createMessage",
      "additive | gate.new_param_gated | server_to_client | message sampling/createMessage",
      "breaking | type.wider | server_to_client | SamplingMessage.content",
      "additive | union.member_added | server_to_client | "
      "SamplingMessage.content<type=\"tool_use\">",
      "additive | union.member_added | server_to_client | "
      "SamplingMessage.content<type=\"tool_result\">",
      "additive | member.optional_added | server_to_client | SamplingMessage._meta",
      "additive | default.added | server_to_client | sampling/createMessage.params.includeContext",
      "additive | member.optional_added | server_to_client | sampling/createMessage.params.tools",
      "additive | member.optional_added | server_to_client | "
      "sampling/createMessage.params.toolChoice",
      "additive | member.optional_added | server_to_client | sampling/createMessage.params.task",
      "additive | result_when.added | server_to_client | message sampling/createMessage",
      "breaking | type.wider | client_to_server | SamplingMessageContent",
      "additive | union.member_added | client_to_server | "
      "SamplingMessageContent<type=\"tool_use\">",
      "additive | union.member_added | client_to_server | "
      "SamplingMessageContent<type=\"tool_result\">",
      "additive | enum.value_added | client_to_server | sampling/createMessage.result.stopReason",
      // Elicitation: URL mode (mode, elicitationId, url; requestedSchema no longer required,
      // breaking for an old client by the schemas, though only a client that declared
      // elicitation.url gets a URL request), defaults and titled enums on fields, multi-select
      // fields (a new member of the open field union) and string-array answers.
      "additive | member.optional_added | server_to_client | elicitation/create.params.mode",
      "breaking | member.now_optional | server_to_client | "
      "elicitation/create.params.requestedSchema",
      "additive | member.optional_added | server_to_client | ElicitRequestedSchema.$schema",
      "additive | member.optional_added | server_to_client | "
      "ElicitRequestedSchema.properties.*<type=\"string\">.oneOf",
      "additive | member.optional_added | server_to_client | "
      "ElicitRequestedSchema.properties.*<type=\"string\">.default",
      "additive | member.optional_added | server_to_client | "
      "ElicitRequestedSchema.properties.*<type=\"number\">.default",
      "additive | member.optional_added | server_to_client | "
      "ElicitRequestedSchema.properties.*<type=\"integer\">.default",
      "additive | union.member_added | server_to_client | "
      "ElicitRequestedSchema.properties.*<type=\"array\">",
      "additive | member.optional_added | server_to_client | "
      "elicitation/create.params.elicitationId",
      "additive | member.optional_added | server_to_client | elicitation/create.params.url",
      "additive | member.optional_added | server_to_client | elicitation/create.params.task",
      "additive | result_when.added | server_to_client | message elicitation/create",
      "additive | gate.new_param_gated | server_to_client | message elicitation/create",
      // The mode now picks the capability member (elicitation.form / .url): a new client that
      // declared URL mode alone refuses an old server's elicitation (form, by default).
      "breaking | gate.capability_keyed | server_to_client | message elicitation/create",
      "additive | union.member_added | client_to_server | "
      "elicitation/create.result.content.*<\"array\" of \"string\">",
      // New messages: URL elicitation's completion notice and the task messages (both
      // directions); an old receiver answers -32601 or ignores a notification.
      "additive | message.added | server_to_client | message notifications/elicitation/complete",
      "additive | message.added | client_to_server, server_to_client | message tasks/get",
      "additive | message.added | client_to_server, server_to_client | message tasks/result",
      "additive | message.added | client_to_server, server_to_client | message tasks/list",
      "additive | message.added | client_to_server, server_to_client | message tasks/cancel",
      "additive | message.added | client_to_server, server_to_client | message "
      "notifications/tasks/status",
      // The envelope (jsonrpc.json): an error response's id became optional (2025-11-25 leaves it
      // out when the request's id could not be read). The profile row above says the same.
      "breaking | member.now_optional |  | ErrorResponse.id",
      // The types the new members and messages use.
      "additive | type.added |  | Icon",
      "additive | type.added |  | ClientTasksCapability",
      "additive | type.added |  | ClientTaskRequests",
      "additive | type.added |  | ClientTaskSamplingRequests",
      "additive | type.added |  | ClientTaskElicitationRequests",
      "additive | type.added |  | ServerTasksCapability",
      "additive | type.added |  | ServerTaskRequests",
      "additive | type.added |  | ServerTaskToolsRequests",
      "additive | type.added |  | ToolChoice",
      "additive | type.added |  | ToolExecution",
      "additive | type.added |  | TaskStatus",
      "additive | type.added |  | Task",
      "additive | type.added |  | TaskMetadata",
      "additive | type.added |  | RelatedTaskMetadata",
      "additive | type.added |  | CreateTaskResult",
      "additive | type.added |  | ElicitRequestFormParams",
      "additive | type.added |  | ElicitRequestURLParams",
      "additive | type.added |  | MultiSelectItems",
      "additive | type.added |  | EnumOption",
      "additive | type.added |  | UrlElicitationRequiredData",
      // The C++ API of the generated bindings: every name moves (module, namespace); the capability
      // maps become structs; the changed members' types, requiredness and defaults. (A gate's
      // clauses and a message's errors are views, kGate and kErrors: no declaration changes.)
      "breaking | api.changed |  | module name",
      "breaking | api.changed |  | namespace",
      "breaking | api.changed |  | constant protocol_version values",
      "breaking | api.changed |  | type ClientSamplingCapability changed kind: alias -> struct",
      "breaking | api.changed |  | type ClientElicitationCapability changed kind: alias -> struct",
      "breaking | api.changed |  | struct SamplingMessage field content type",
      "breaking | api.changed |  | struct NotificationsCancelledParams field requestId required",
      "breaking | api.changed |  | struct SamplingCreateMessageParams field includeContext default",
      "breaking | api.changed |  | struct SamplingCreateMessageResult field content type",
      "breaking | api.changed |  | struct ElicitationCreateParams field requestedSchema required",
  };
  // Grouped by feature here; the report lists them by message and type.
  EXPECT_THAT(verdicts(r), UnorderedElementsAreArray(expected));
  EXPECT_EQ(r.count(Verdict::kBreaking), 25u);
  EXPECT_EQ(r.count(Verdict::kAdditive), 77u);
}

TEST(McpRevision, TheNewProtocolVersionLicensesItsBreakingChanges) {
  // A new revision of MCP is a new protocolVersion string, negotiated in initialize: the bump
  // allows the breaking changes, so the comparison passes.
  Report r = compare_mcp();
  EXPECT_EQ(r.old_version, "\"2025-06-18\"");
  EXPECT_EQ(r.new_version, "\"2025-11-25\"");
  EXPECT_TRUE(r.version_bumped);
  EXPECT_TRUE(r.breaking());
  EXPECT_FALSE(r.fails());
}

TEST(McpRevision, GoingBackIsBreakingAndNoBumpLicensesIt) {
  // 2025-11-25 -> 2025-06-18 (a peer that went back): what was added is removed, which breaks a
  // peer that sends or needs it, and the version constant went down, which licenses nothing.
  Report back = compare(mcp_schema(false), mcp_schema(true), {});
  std::vector<std::string> all = verdicts(back);
  EXPECT_THAT(all, Contains("breaking | message.removed | client_to_server, server_to_client | "
                            "message tasks/get"));
  EXPECT_THAT(all, Contains("breaking | message.removed | server_to_client | "
                            "message notifications/elicitation/complete"));
  EXPECT_THAT(all, Contains("breaking | result_when.removed | client_to_server | "
                            "message tools/call"));
  EXPECT_FALSE(back.version_bumped);
  EXPECT_TRUE(back.fails());
}

}  // namespace
}  // namespace rpckit::compat::test
