// pto-sim: simulate PTO kernel programs and memory traces on a configured
// memory hierarchy. Exit status: 0 ok, 1 a check failed, 2 bad input,
// 128 + signal when SIGINT/SIGTERM stopped a run.
#include <systemc>

#include <spdlog/spdlog.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "sim/cli/commands.h"
#include "sim/analysis/run_identity.h"
#include "sim/analysis/sweep_lifetime.h"
#include "sim/cli/logging.h"
#include "sim/common/error.h"
#include "sim/common/run_control.h"
#include "sim/common/version.h"
#include "sim/trace/data_check.h"

namespace {

// CLI11 says only "A subcommand is required" for `pto-sim simulate x`:
// name the word it did not know, and the ones it would have.
std::string unknown_subcommand(CLI::App& app, int argc, char* argv[]) {
  CLI::App* at = &app;
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.empty() || word[0] == '-') return "";
    CLI::App* sub = nullptr;
    for (CLI::App* s : at->get_subcommands({}))
      if (s->get_name() == word) sub = s;
    if (!sub) {
      if (at->get_subcommands({}).empty() || !at->get_require_subcommand_min()) return "";
      std::string names;
      for (CLI::App* s : at->get_subcommands({})) names += (names.empty() ? "" : ", ") + s->get_name();
      return "unknown subcommand '" + word + "' (expected one of: " + names + ")";
    }
    at = sub;
  }
  return "";
}

// Every write to stdout (a report, `config show`, print()) is checked here
// once, at the end: a full disk or a closed pipe is an error, not a silent loss.
bool stdout_ok(bool quiet) {
  std::cout.flush();
  errno = 0;
  if (std::fflush(stdout) == 0 && !std::ferror(stdout) && std::cout.good()) return true;
  if (!quiet) std::cerr << "pto-sim: cannot write to standard output: " << (errno ? std::strerror(errno) : "write error") << "\n";
  return false;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  ptosim::cli::watch_sweep_parent();  // a sweep's child ends with the sweep
  CLI::App app{"pto-sim: a cycle-approximate memory-hierarchy simulator for tiled tensor programs"};
  app.require_subcommand(1);
  ptosim::cli::record_invocation(argc, argv);
  app.fallthrough();  // -v and --log-level may follow the subcommand
  app.set_version_flag("--version", std::string("pto-sim ") + ptosim::kPtoSimVersion);
  ptosim::cli::LogOptions log;
  ptosim::cli::add_log_options(app, log);
  ptosim::cli::Action action;
  ptosim::cli::add_run(app, action);
  ptosim::cli::add_check(app, action);
  ptosim::cli::add_annotate(app, action);
  ptosim::cli::add_trace(app, action);
  ptosim::cli::add_config(app, action);
  ptosim::cli::add_schema(app, action);
  ptosim::cli::add_sweep(app, action);
  ptosim::cli::add_compare(app, action);
  ptosim::cli::add_curves(app, action);
  ptosim::cli::add_tune(app, action);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    const int status = app.exit(e);
    return stdout_ok(false) ? status : 2;
  } catch (const CLI::CallForAllHelp& e) {
    const int status = app.exit(e);
    return stdout_ok(false) ? status : 2;
  } catch (const CLI::CallForVersion& e) {
    const int status = app.exit(e);
    return stdout_ok(false) ? status : 2;
  } catch (const CLI::ParseError& e) {
    const std::string unknown = unknown_subcommand(app, argc, argv);
    std::cerr << "pto-sim: " << (unknown.empty() ? e.what() : unknown) << "\n";
    return 2;
  }
  ptosim::cli::start_logging(log);
  int status = 2;
  try {
    status = action();
  } catch (const ptosim::InputError& e) {
    std::cerr << e.what() << "\n";
    status = 2;
  } catch (const ptosim::DataCheckError& e) {  // run --check-data: a memory lost or changed data
    std::cerr << e.what() << "\n";
    status = 1;
  } catch (const std::bad_alloc&) {
    std::cerr << "pto-sim: out of memory\n";
    status = 2;
  } catch (const ptosim::run_control::Stopped& e) {  // before anything was written
    std::cerr << "pto-sim: stopped by " << (e.signal == SIGINT ? "SIGINT" : e.signal == SIGTERM ? "SIGTERM" : "a signal")
              << " " << e.what() << "; nothing written\n";
    std::cerr.flush();
    std::_Exit(128 + e.signal);
  }
  // A failed report write has said so already (status 2).
  return stdout_ok(status == 2) ? status : 2;
}

// Our own entry point, so that SystemC's banner is switched off before the
// library decides to print it into the report on stdout.
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
