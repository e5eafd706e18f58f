// --emit-jobs and --merge: a sweep run elsewhere (GNU parallel, a Slurm
// array) as one self-contained command per point, and its per-point files
// collected back into the sweep's CSV.
#include <fstream>
#include <iostream>

#include "sim/cli/commands.h"
#include "sim/cli/report_flatten.h"
#include "sim/cli/run_identity.h"
#include "sim/cli/sweep_rows.h"
#include "sim/cli/sweep_runner.h"
#include "sim/common/atomic_file.h"
#include "sim/common/read_file.h"
#include "sim/common/units.h"
#include "sim/common/version.h"

namespace ptosim::cli {
namespace {

using nlohmann::json;

json point_json(const SweepPoint& p) {
  json sets = json::array(), params = json::array();
  for (auto& [n, v] : p.sets) sets.push_back({n, v});
  for (auto& [n, v] : p.params) params.push_back({n, v});
  return {{"id", p.id()}, {"index", p.index}, {"key", p.key}, {"config", p.config}, {"sets", sets}, {"params", params}};
}

SweepPoint point_from(const json& j) {
  SweepPoint p;
  p.index = j.at("index").get<size_t>();
  p.key = j.at("key").get<std::string>();
  p.config = j.at("config").get<std::string>();
  for (auto& kv : j.at("sets")) p.sets.emplace_back(kv[0].get<std::string>(), kv[1].get<std::string>());
  for (auto& kv : j.at("params")) p.params.emplace_back(kv[0].get<std::string>(), kv[1].get<std::string>());
  return p;
}

const char* kManifest = "sweep.json";

}  // namespace

int emit_jobs(const SweepSpec& spec, const std::string& jobs_file) {
  std::vector<SweepPoint> points = expand_points(spec);
  const SweepTable table = plan_table(spec, points);
  name_points(table, points);
  const std::string dir = absolute_path(spec.json_dir.empty() ? jobs_file + ".d" : spec.json_dir);
  refuse_overwriting_inputs(jobs_file, {spec.program, spec.trace, spec.file});
  make_dir(dir);
  json manifest = {{"pto_sim_version", kPtoSimVersion}, {"columns", table.columns}, {"invalid", table.invalid},
                   {"timeout_s", spec.timeout_s}, {"points", json::array()}};
  std::string lines;
  size_t jobs = 0;
  for (const SweepPoint& p : points) {
    manifest["points"].push_back(point_json(p));
    if (table.invalid.count(combo_key(p))) continue;
    // Self-contained: absolute paths, stdout discarded, stderr and the exit
    // status kept beside the report for --merge. Runs under any POSIX shell.
    const std::string base = dir + "/" + p.id();
    std::string cmd;
    if (spec.timeout_s > 0) cmd += "timeout " + units::format_number(spec.timeout_s) + " ";
    for (const std::string& a : point_argv(spec, p, base + ".json", true)) cmd += shell_quote(a) + " ";
    cmd += ">/dev/null 2>" + shell_quote(base + ".err") + "; echo $? >" + shell_quote(base + ".rc");
    lines += cmd + "\n";
    ++jobs;
  }
  {
    AtomicFile m(dir + "/" + kManifest);
    m.write(manifest.dump(1) + "\n");
    m.commit();
  }
  write_output(jobs_file, lines);
  std::cerr << "pto-sim sweep: " << jobs << " jobs in " << jobs_file << " (" << points.size() - jobs
            << " points invalid, recorded for --merge); results go to " << dir << "\n"
            << "  run them: parallel < " << shell_quote(jobs_file) << "   or   sbatch --array=1-" << jobs
            << " scripts/slurm/sweep.sbatch " << shell_quote(jobs_file) << "\n"
            << "  then:     pto-sim sweep --merge " << shell_quote(dir) << " -o results.csv\n";
  return 0;
}

int merge_sweep(const std::string& dir, const std::string& output) {
  const std::string mpath = dir + "/" + kManifest;
  const json m = parse_json(read_input_file(mpath, "sweep manifest"), mpath);
  SweepTable table;
  std::vector<SweepPoint> points;
  double timeout_s = 0;
  try {
    table.columns = m.at("columns").get<std::vector<std::string>>();
    table.invalid = m.at("invalid").get<std::map<std::string, std::string>>();
    timeout_s = m.at("timeout_s").get<double>();
    for (auto& p : m.at("points")) points.push_back(point_from(p));
  } catch (const json::exception& e) {
    throw InputError({mpath, 0, 0}, "", std::string("not a sweep manifest written by --emit-jobs: ") + e.what());
  }
  std::string csv = header_line(table);
  size_t missing = 0, failed = 0;
  for (const SweepPoint& p : points) {
    const std::string base = dir + "/" + p.id();
    Outcome o;
    o.timeout_s = timeout_s;
    if (!table.invalid.count(combo_key(p))) {
      std::ifstream rc(base + ".rc");
      int code = -1;
      if (!(rc >> code)) {
        ++missing;
        continue;
      }
      // The shell's status: 124 from `timeout`, 128 + N for a signal.
      if (timeout_s > 0 && code == 124) o.timed_out = true;
      else if (code > 128) o.signal = code - 128;
      else o.code = code;
      if (o.interrupted()) {  // Ctrl-C'd under GNU parallel: run it again
        ++missing;
        continue;
      }
    }
    const Row r = make_row(table, p, base + ".json", base + ".err", o);
    failed += !row_ok(r);
    csv += csv_line(table, r);
  }
  write_output(output, csv);
  std::cerr << "pto-sim sweep --merge: " << points.size() - missing << " of " << points.size() << " points merged, "
            << failed << " failed" << (missing ? ", " + std::to_string(missing) + " without a result yet" : "") << "\n";
  return failed || missing ? 1 : 0;
}


}  // namespace ptosim::cli
