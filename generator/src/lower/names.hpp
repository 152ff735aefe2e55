#pragma once
// C++ naming rules (generator/README.md, "Names"). Pure functions of the wire text, so a name
// never shifts when the schema grows.
#include <string>
#include <string_view>

namespace rpckit::gen {

// "on_stream_start" -> "OnStreamStart", "twitch.android" -> "TwitchAndroid".
std::string pascal_case(std::string_view text);
// "parse_error" -> "kParseError"; a value starting with a digit gets "k_"-free "kN..." form.
std::string constant_name(std::string_view text);
// "game_id" -> "game_id"; C++ keywords get a trailing '_'; characters that cannot appear in
// an identifier become '_'.
std::string member_name(std::string_view wire);
// "ErrorCode" -> "error_code".
std::string snake_case(std::string_view pascal);
bool is_cpp_keyword(std::string_view word);

// What the generator declares per role in a module's namespace: a direction's dispatch table
// ("host", "plugin" -> "HostToPlugin") and a role's surfaces ("HostHandler", "HostClient").
std::string direction_name(std::string_view from, std::string_view to);
std::string handler_name(std::string_view role);
std::string client_name(std::string_view role);

}  // namespace rpckit::gen
