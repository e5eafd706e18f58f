// pto-sim: simulate PTO kernel programs and memory traces on a configured
// memory hierarchy. Exit status: 0 ok, 1 a check failed, 2 bad input.
#include <systemc>

#include <cstdlib>
#include <iostream>

#include "sim/cli/commands.h"
#include "sim/cli/run_identity.h"
#include "sim/common/error.h"
#include "sim/common/version.h"
#include "sim/trace/data_check.h"

int sc_main(int argc, char* argv[]) {
  CLI::App app{"pto-sim: a cycle-approximate memory-hierarchy simulator for tiled tensor programs"};
  app.require_subcommand(1);
  ptosim::cli::record_invocation(argc, argv);
  app.set_version_flag("--version", std::string("pto-sim ") + ptosim::kPtoSimVersion);
  ptosim::cli::Action action;
  ptosim::cli::add_run(app, action);
  ptosim::cli::add_check(app, action);
  ptosim::cli::add_annotate(app, action);
  ptosim::cli::add_trace(app, action);
  ptosim::cli::add_config(app, action);
  ptosim::cli::add_schema(app, action);
  ptosim::cli::add_sweep(app, action);
  ptosim::cli::add_compare(app, action);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "pto-sim: " << e.what() << "\n";
    return 2;
  }
  try {
    return action();
  } catch (const ptosim::InputError& e) {
    std::cerr << e.what() << "\n";
    return 2;
  } catch (const ptosim::DataCheckError& e) {  // run --check-data: a memory lost or changed data
    std::cerr << e.what() << "\n";
    return 1;
  } catch (const std::bad_alloc&) {
    std::cerr << "pto-sim: out of memory\n";
    return 2;
  }
}

// Our own entry point, so that SystemC's banner is switched off before the
// library decides to print it into the report on stdout.
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
