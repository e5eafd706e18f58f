#include <csignal>
#include <cstdlib>
#include <iostream>

#include "sim/cli/commands.h"
#include "sim/cli/program_runner.h"
#include "sim/common/run_control.h"
#include "sim/trace/batch_sink.h"
#include "sim/trace/trace_format.h"

namespace ptosim::cli {
namespace {

// Writes a trace as `run` simulates one: events reach the writer in batches
// that look at run_control's stop flag first, so a SIGINT/SIGTERM unwinds
// the producer (pipe::Abandoned), the unfinished writer removes its
// temporary file, and the process ends 128 + signal with no output left.
template <class Produce>
int write_trace(std::unique_ptr<TraceWriter> writer, Produce produce) {
  int status = 0;
  try {
    BatchSink batch(*writer, run_control::stop_requested);
    status = produce(static_cast<EventSink&>(batch));
    batch.flush();
  } catch (const pipe::Abandoned&) {
  }
  if (const int sig = run_control::stop_signal()) {
    writer.reset();  // without close(): the temporary goes, nothing is renamed
    std::cerr << "pto-sim: stopped by " << (sig == SIGINT ? "SIGINT" : "SIGTERM") << "; no trace written\n";
    return 128 + sig;
  }
  writer->close();
  return status;
}

}  // namespace

void add_trace(CLI::App& app, Action& action) {
  static std::string in, out, to, program, config;
  static std::vector<std::string> defines, sets;
  static uint64_t max_events = 0;
  CLI::App* trace = app.add_subcommand("trace", "Write a program's access stream as a trace, or convert traces");
  trace->add_option("PROGRAM", program, "PTO kernel program whose events to write");
  add_output_option(*trace, out, "Trace file to write (.din = din text, otherwise native)");
  trace->add_option("--config", config, "YAML hardware config (default: built in)");
  trace->add_option("--to", to, "Output format (default: from the file name)")->check(CLI::IsMember({"din", "native"}));
  add_program_options(*trace, defines, max_events);
  add_set_option(*trace, sets);
  CLI::App* convert = trace->add_subcommand("convert", "Convert between din and native traces");
  convert->add_option("IN", in, "Input trace ('-' = stdin)")->required();
  convert->add_option("OUT", out, "Output trace (.din = din text, otherwise native)")->required();
  convert->add_option("--to", to, "Output format (default: from the file name)")->check(CLI::IsMember({"din", "native"}));

  auto format = [] { return to.empty() ? format_for_path(out) : (to == "din" ? TraceFormat::Din : TraceFormat::Native); };
  convert->callback([&action, format] {
    action = [format] {
      run_control::install_signal_handlers();
      refuse_overwriting_inputs(out, {in});
      auto writer = TraceWriter::open(out, format());
      TraceWriter& w = *writer;
      TraceCounts c;
      const int status = write_trace(std::move(writer), [&](EventSink& sink) {
        c = replay_trace(in, sink);
        return 0;
      });
      if (status) return status;
      std::cerr << "converted " << c.records << " accesses";
      if (w.counts().dropped_non_global)
        std::cerr << " (" << w.counts().dropped_non_global << " non-global accesses have no din form and were dropped)";
      std::cerr << "\n";
      return 0;
    };
  });
  trace->callback([&action, format, trace, convert] {
    if (convert->parsed()) return;
    action = [format] {
      if (program.empty() || out.empty()) {
        std::cerr << "pto-sim trace: give PROGRAM and -o FILE (or use `trace convert IN OUT`)\n";
        return 2;
      }
      run_control::install_signal_handlers();
      refuse_overwriting_inputs(out, {program, config});
      HwConfig cfg = load_config_or_default(config, parse_overrides(sets));
      return write_trace(TraceWriter::open(out, format()), [&](EventSink& sink) {
        return trace_program(cfg, program, defines, max_events, sink);
      });
    };
  });
}

}  // namespace ptosim::cli
