#pragma once
// What the spec allows in a settings panel but the real StreamNook host refuses (its
// register_panel answers -32602). The plugin role logs these before it registers a panel, the
// host role reports them for a panel it is given; the manifest's are ManifestResult::warnings.
// The real host's rules, and where they were read: schema/README.md ("The real StreamNook host").
#include <string>
#include <vector>

#include "streamnook_v1/types.hpp"

namespace rpckit::streamnook {

// One line per field the real host would refuse, naming it and where it is:
// `schema.sections[0].fields[2].type = "folder": ...`. Empty when it takes the whole panel.
std::vector<std::string> real_host_panel_warnings(const ::streamnook::v1::PanelSchema& schema);

}  // namespace rpckit::streamnook
