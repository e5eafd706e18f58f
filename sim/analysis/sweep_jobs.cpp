// --emit-jobs and --merge: a sweep run elsewhere (GNU parallel, a Slurm
// array) as one self-contained command per point, and its per-point files
// collected back into the sweep's CSV. With -o, the points that CSV already
// holds (a local sweep's, an earlier merge's) get no job, and --merge takes
// their rows from it: extending a sweep runs only what is new.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "sim/analysis/report_flatten.h"
#include "sim/analysis/run_identity.h"
#include "sim/analysis/sweep_rows.h"
#include "sim/analysis/sweep_runner.h"
#include "sim/common/atomic_file.h"
#include "sim/common/read_file.h"
#include "sim/common/units.h"
#include "sim/common/version.h"

namespace ptosim::cli {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

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

// The rows of a results CSV by their `point` (the key, or for a CSV
// written before keys, the spelling), with this sweep's columns.
std::map<std::string, Row> rows_by_point(const std::string& path, SweepTable table) {
  const auto rows = read_sweep_csv(path, table);
  std::map<std::string, Row> out;
  for (size_t i = 1; i < rows.size(); ++i) {
    Row r;
    for (size_t c = 0; c < rows[0].size() && c < rows[i].size(); ++c) r[rows[0][c]] = rows[i][c];
    out[r["point"]] = r;
  }
  return out;
}

// The row `csv` holds for `p`, or nullptr.
const Row* row_of(const std::map<std::string, Row>& csv, const SweepPoint& p) {
  auto it = csv.find(p.key);
  if (it == csv.end()) it = csv.find(p.spelled);
  return it == csv.end() ? nullptr : &it->second;
}

}  // namespace

int emit_jobs(const SweepSpec& spec, const std::string& jobs_file) {
  std::vector<SweepPoint> points = expand_points(spec);
  const SweepTable table = plan_table(spec, points);
  name_points(table, points);
  const std::string dir = absolute_path(spec.json_dir.empty() ? jobs_file + ".d" : spec.json_dir);
  refuse_overwriting_inputs(jobs_file, {spec.program, spec.trace, spec.file});
  // -o: the points it holds already (ok; failed too with --no-retry-failed) get no job.
  std::map<std::string, Row> finished;
  std::error_code ec;
  const bool have_csv = !spec.output.empty() && spec.output != "-" && fs::exists(spec.output, ec) &&
                        fs::file_size(spec.output, ec) > 0;
  if (have_csv) finished = rows_by_point(spec.output, table);
  make_dir(dir);
  json manifest = {{"pto_sim_version", kPtoSimVersion}, {"columns", table.columns}, {"invalid", table.invalid},
                   {"timeout_s", spec.timeout_s}, {"points", json::array()}};
  if (have_csv) manifest["finished_csv"] = absolute_path(spec.output);
  std::string lines;
  size_t jobs = 0, skipped = 0;
  for (const SweepPoint& p : points) {
    manifest["points"].push_back(point_json(p));
    if (table.invalid.count(combo_key(p))) continue;
    if (const Row* r = row_of(finished, p); r && (row_ok(*r) || !spec.retry_failed)) {
      manifest["points"].back()["finished"] = true;  // --merge takes its row from finished_csv
      ++skipped;
      continue;
    }
    // Self-contained: absolute paths, stdout discarded, stderr and the exit
    // status kept beside the report for --merge. Runs under any POSIX shell.
    const std::string base = dir + "/" + p.id();
    std::string cmd;
    if (spec.timeout_s > 0) cmd += "timeout " + units::format_number(spec.timeout_s) + " ";
    for (const std::string& a : point_argv(spec, p, base + ".json", true, true)) cmd += shell_quote(a) + " ";
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
  std::cerr << "pto-sim sweep: " << jobs << " jobs in " << jobs_file << " (" << points.size() - jobs - skipped
            << " points invalid, recorded for --merge";
  if (have_csv) std::cerr << "; " << skipped << " already in " << spec.output << ", taken from it by --merge";
  std::cerr << "); results go to " << dir << "\n"
            << "  run them: parallel < " << shell_quote(jobs_file) << "   or   scripts/slurm/submit.sh "
            << shell_quote(jobs_file) << "   (Slurm arrays cut under the site's MaxArraySize)\n"
            << "  then:     pto-sim sweep --merge " << shell_quote(dir) << " -o "
            << (have_csv ? shell_quote(spec.output) : std::string("results.csv")) << "\n";
  return 0;
}

int merge_sweep(const std::string& dir, const std::string& output) {
  const std::string mpath = dir + "/" + kManifest;
  const json m = parse_json(read_input_file(mpath, "sweep manifest"), mpath);
  SweepTable table;
  std::vector<SweepPoint> points;
  std::vector<bool> finished;  // the row is in finished_csv: no job ran for it
  std::string finished_csv;
  double timeout_s = 0;
  try {
    table.columns = m.at("columns").get<std::vector<std::string>>();
    table.invalid = m.at("invalid").get<std::map<std::string, std::string>>();
    timeout_s = m.at("timeout_s").get<double>();
    finished_csv = m.value("finished_csv", "");
    for (auto& p : m.at("points")) {
      points.push_back(point_from(p));
      finished.push_back(p.value("finished", false));
    }
  } catch (const json::exception& e) {
    throw InputError({mpath, 0, 0}, "", std::string("not a sweep manifest written by --emit-jobs: ") + e.what());
  }
  // Read before -o is written: it may be the same file.
  std::map<std::string, Row> earlier;
  if (!finished_csv.empty()) earlier = rows_by_point(finished_csv, table);
  std::string csv = header_line(table);
  size_t missing = 0, failed = 0;
  for (size_t i = 0; i < points.size(); ++i) {
    const SweepPoint& p = points[i];
    const std::string base = dir + "/" + p.id();
    if (finished[i]) {
      const Row* r = row_of(earlier, p);
      if (!r) throw InputError({finished_csv, 0, 0}, "", "has no row for " + p.key + " any more (emitted as finished)");
      failed += !row_ok(*r);
      csv += csv_line(table, *r);
      continue;
    }
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
