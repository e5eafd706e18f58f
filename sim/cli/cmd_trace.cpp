#include <iostream>

#include "sim/cli/commands.h"
#include "sim/cli/program_runner.h"
#include "sim/trace/trace_format.h"

namespace ptosim::cli {

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
      refuse_overwriting_inputs(out, {in});
      auto writer = TraceWriter::open(out, format());
      TraceCounts c = replay_trace(in, *writer);
      writer->close();
      std::cerr << "converted " << c.records << " accesses";
      if (writer->counts().dropped_non_global)
        std::cerr << " (" << writer->counts().dropped_non_global << " non-global accesses have no din form and were dropped)";
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
      refuse_overwriting_inputs(out, {program, config});
      HwConfig cfg = load_config_or_default(config, parse_overrides(sets));
      auto writer = TraceWriter::open(out, format());
      const int status = trace_program(cfg, program, defines, max_events, *writer);
      writer->close();
      return status;
    };
  });
}

}  // namespace ptosim::cli
