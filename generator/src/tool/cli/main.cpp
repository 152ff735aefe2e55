// rpckit: the toolkit's command line (generate, check, validate, compat, docs, trace).
//   rpckit <command> --help   what a command takes
// Exit status: 0 ok, 1 the check found problems, 2 usage or input error (commands.hpp).
#include <iostream>

#include "generator_version.hpp"
#include "tool/cli/commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"rpckit: typed bindings, validation, compatibility, reference docs and session "
               "inspection for JSON Schema plugin protocols"};
  app.set_version_flag("--version", std::string("rpckit ") + rpckit::gen::kGeneratorVersion);
  app.require_subcommand(1);
  int status = rpckit::cli::kOk;
  rpckit::cli::add_generate_commands(app, status);
  rpckit::cli::add_validate_command(app, status);
  rpckit::cli::add_compat_command(app, status);
  rpckit::cli::add_docs_command(app, status);
  rpckit::cli::add_trace_command(app, status);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);  // prints the message and the usage line
    return rpckit::cli::kUsage;
  }
  return status;
}
