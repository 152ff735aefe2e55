// live-alerts: a StreamNook plugin that tells you when a followed channel goes live.
#include "live_alerts.hpp"

int main() {
  rpckit::streamnook::Plugin plugin(live_alerts::kVersion);
  live_alerts::LiveAlerts app(plugin);
  return plugin.run();
}
