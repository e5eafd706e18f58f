#include <algorithm>
#include <iostream>

#include "sim/cli/commands.h"
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
            host::probe_host(host_probe_footprints(f), 512ull << 20, l1.size / ways, l1.line, patterns,
                            host_capacity_footprints(f));
        m.valid = true;
        m.clock_hz = p.clock_hz;
        m.adds_per_cycle = p.adds_per_cycle;
        m.add = p.ops.add;
        m.mul = p.ops.mul;
        m.fma = p.ops.fma;
        m.div = p.ops.div;
        m.sqrt = p.ops.sqrt;
        m.forward = p.ops.forward;
        for (auto& l : p.latency) m.level_ns.push_back(l.ns);
        for (auto& l : p.capacity) m.capacity.emplace_back(l.footprint, l.ns);
        m.stream_bytes_per_s = p.stream_bytes_per_s;
        m.l2_miss_ns = p.l2_miss_ns;
        m.one_set_ns = p.one_set_ns;
        m.spread_ns = p.spread_ns;
        m.one_set_store_ns = p.one_set_store_ns;
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
