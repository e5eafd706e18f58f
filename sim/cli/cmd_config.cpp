#include <algorithm>
#include <iostream>

#include "sim/cli/commands.h"
#include "sim/cli/host_measured.h"
#include "sim/host/host_probe.h"
#include "sim/host/vector_math_probe.h"
#include "sim/config/config_loader.h"
#include "sim/config/host_config.h"
#include "models/cache/replacement_fit.h"

namespace ptosim::cli {

void add_config(CLI::App& app, Action& action) {
  CLI::App* config = app.add_subcommand("config", "Inspect hardware configs");
  config->require_subcommand(1);
  CLI::App* show = config->add_subcommand("show", "Print a config (default: the built-in one) with every default filled in");
  static std::string file;
  static std::vector<std::string> sets;
  show->add_option("FILE", file, "YAML hardware config");
  add_set_option(*show, sets);  // the config as `run --set` would run it
  show->callback([&action] {
    action = [] {
      // Fails before printing anything.
      const std::string yaml = to_yaml(load_config_or_default(file, parse_overrides(sets)));
      std::cout << "# " << (file.empty() ? "built-in default config" : file);
      for (const std::string& s : sets) std::cout << " --set " << s;
      std::cout << ", every default filled in\n" << yaml;
      return 0;
    };
  });
  CLI::App* host = config->add_subcommand("host", "Print a config of this machine (sysfs, /proc/cpuinfo)");
  static bool measure = false;
  host->add_flag("--measure", measure, "Measure clock, latencies and bandwidth (a few seconds)");
  host->callback([&action] {
    action = [] {
      const HostFacts f = read_host_facts();
      HostMeasured m;
      if (measure) {
        const HostCache& l1 = f.caches.front();
        const uint32_t ways = std::max<uint32_t>(l1.ways, 1);
        const std::vector<LinePattern> patterns = replacement_probe_patterns(ways);
        const host::HostProbe p =
            host::probe_host(host_probe_footprints(f), host_dram_stream_footprint(f), l1.size / ways, l1.line,
                             patterns, host_capacity_footprints(f), host_last_level_stream_footprint(f));
        m = measured_from(p);
        const host::VectorMathTimes vm = host::measure_vector_math(int(host_vector_bytes(f)));
        m.exp_ns = vm.exp_ns;
        m.gelu_ns = vm.gelu_ns;
        const std::vector<PolicyFit> fits = fit_replacement(patterns, p.l1_set.cycles, ways);
        m.l1_replacement = fits[0].policy;
        m.l1_replacement_fit = "measured (" + std::to_string(patterns.size()) + " set patterns): " +
                               describe_fits(fits);
      }
      const std::string yaml = host_config_yaml(f, m);
      parse_config(yaml, "<host>");  // what it wrote must be a config
      std::cout << yaml;
      return 0;
    };
  });
}

}  // namespace ptosim::cli
