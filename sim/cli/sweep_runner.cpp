#include "sim/cli/sweep_runner.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "sim/cli/report_flatten.h"
#include "sim/cli/commands.h"
#include "sim/cli/run_identity.h"
#include "sim/common/atomic_file.h"
#include "sim/common/read_file.h"
#include "sim/common/version.h"
#include "sim/config/config_override.h"
#include "sim/common/units.h"
#include "sim/frontend/frontend.h"
#include "sim/report/report.h"
#include "sim/report/report_keys.h"

extern char** environ;

namespace ptosim::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

volatile sig_atomic_t g_interrupted = 0;
void on_interrupt(int) { g_interrupted = 1; }

std::string self_exe() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("pto-sim") : p.string();
}

std::string absolute(const std::string& p) {
  if (p.empty() || p == "-") return p;
  std::error_code ec;
  const fs::path a = fs::absolute(p, ec);
  return ec ? p : a.lexically_normal().string();
}

// The combination of a config and its overrides: points that share it share
// its validity and its levels.
std::string combo_key(const SweepPoint& p) {
  std::string k = p.config;
  for (auto& [path, v] : p.sets) k += "\n" + path + "=" + v;
  return k;
}

std::vector<std::string> point_argv(const SweepSpec& spec, const SweepPoint& p, const std::string& json_out, bool abs_paths) {
  auto path = [&](const std::string& s) { return abs_paths ? absolute(s) : s; };
  std::vector<std::string> a = {self_exe(), "run"};
  if (!spec.program.empty()) a.push_back(path(spec.program));
  else a.insert(a.end(), {"--trace", path(spec.trace)});
  for (auto& [n, v] : p.params) a.insert(a.end(), {"-D", n + "=" + v});
  if (!p.config.empty()) a.insert(a.end(), {"--config", path(p.config)});
  for (auto& [n, v] : p.sets) a.insert(a.end(), {"--set", n + "=" + v});
  if (spec.max_events) a.insert(a.end(), {"--max-events", std::to_string(spec.max_events)});
  if (spec.flush) a.push_back("--flush");
  a.insert(a.end(), {"--format", "json", "-o", json_out});
  return a;
}

struct Outcome {
  bool timed_out = false;
  int signal = 0;      // killed by this signal
  int code = 0;        // exit status otherwise
  double timeout_s = 0;
};

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) return line.size() > 500 ? line.substr(0, 500) + "..." : line;
  return "";
}

using Row = std::map<std::string, std::string>;

Row make_row(const SweepTable& table, const SweepPoint& p, const std::string& json_path, const std::string& err_path,
             const Outcome& o) {
  const auto bad = table.invalid.find(combo_key(p));
  const std::string invalid = bad == table.invalid.end() ? "" : bad->second;
  Row r;
  r["point"] = p.key;
  r["config_file"] = p.config.empty() ? "<default>" : p.config;
  for (auto& [n, v] : p.sets) r["set." + n] = v;
  for (auto& [n, v] : p.params) r["param." + n] = v;
  if (!invalid.empty()) {
    r["status"] = "invalid";
    r["error"] = invalid;
    return r;
  }
  if (o.timed_out) {
    r["status"] = "timeout";
    r["error"] = "no result after " + units::format_number(o.timeout_s) + " s; killed";
    return r;
  }
  if (o.signal) {
    r["status"] = "crashed";
    r["error"] = std::string("killed by signal ") + std::to_string(o.signal) + " (" + strsignal(o.signal) + ")";
    return r;
  }
  const std::string err = first_line(err_path);
  if (o.code == 0 || o.code == 1) {
    try {
      const json rep = load_report(json_path);
      std::set<std::string> cols(table.columns.begin(), table.columns.end());
      for (const Metric& m : flatten_report(rep)) {
        std::string name = m.name;
        if (name.rfind("parameters.", 0) == 0) name = "param." + name.substr(11);
        else if (name.rfind("config_overrides.", 0) == 0) name = "set." + name.substr(17);
        if (cols.count(name)) r[name] = cell(m.value);
      }
      r["status"] = o.code == 0 ? "ok" : "check_failed";
      if (o.code == 1) r["error"] = err;
      return r;
    } catch (const InputError& e) {
      r["status"] = "error";
      r["error"] = std::string("no report: ") + e.what();
      return r;
    }
  }
  // Exit 2: the point's input was bad. Capacity and assertion failures say the
  // combination cannot run on this hardware; anything else is an error.
  const bool infeasible = err.find("cannot allocate") != std::string::npos || err.find("assertion failed") != std::string::npos ||
                          err.find("does not fit") != std::string::npos;
  r["status"] = o.code == 2 ? (infeasible ? "infeasible" : "error") : "error";
  r["error"] = err.empty() ? "exit status " + std::to_string(o.code) : err;
  return r;
}

std::string csv_line(const SweepTable& t, const Row& r) {
  std::string line;
  for (size_t i = 0; i < t.columns.size(); ++i) {
    auto it = r.find(t.columns[i]);
    line += (i ? "," : "") + (it == r.end() ? std::string() : csv_quote(it->second));
  }
  return line + "\n";
}

std::string header_line(const SweepTable& t) {
  std::string line;
  for (size_t i = 0; i < t.columns.size(); ++i) line += (i ? "," : "") + csv_quote(t.columns[i]);
  return line + "\n";
}

// Validity of each config + overrides combination, loaded once each.
std::map<std::string, std::string> check_combos(const std::vector<SweepPoint>& points,
                                                std::vector<std::pair<std::string, std::string>>& levels) {
  std::map<std::string, std::string> invalid;
  std::set<std::string> seen;
  std::string first_error;
  size_t valid = 0;
  for (const SweepPoint& p : points) {
    const std::string k = combo_key(p);
    if (!seen.insert(k).second) continue;
    std::vector<ConfigOverride> ov;
    try {
      for (auto& [n, v] : p.sets) ov.push_back(parse_override(n + "=" + v));
      const HwConfig c = load_config_with_overrides(p.config, ov);
      ++valid;
      for (auto& l : c.report_levels())
        if (std::find(levels.begin(), levels.end(), l) == levels.end()) levels.push_back(l);
    } catch (const InputError& e) {
      invalid[k] = e.what();
      if (first_error.empty()) first_error = e.what();
    }
  }
  // Not one combination loads: the sweep itself is wrong (a typo in a path).
  if (valid == 0 && !first_error.empty()) throw InputError(first_error);
  return invalid;
}

std::string fmt_duration(double s) {
  char buf[32];
  if (s >= 3600) std::snprintf(buf, sizeof buf, "%dh%02dm", int(s / 3600), int(std::fmod(s, 3600) / 60));
  else if (s >= 60) std::snprintf(buf, sizeof buf, "%dm%02ds", int(s / 60), int(std::fmod(s, 60)));
  else std::snprintf(buf, sizeof buf, "%.0fs", s);
  return buf;
}

class Progress {
 public:
  Progress(size_t total, size_t skipped) : total_(total), done_(skipped), skipped_(skipped), tty_(isatty(STDERR_FILENO)) {}
  void finished(bool ok) {
    ++done_;
    failed_ += !ok;
    draw(false);
  }
  void draw(bool force) {
    if (!tty_) return;
    const auto now = Clock::now();
    if (!force && now - last_ < std::chrono::milliseconds(200) && done_ < total_) return;
    last_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const size_t ran = done_ - skipped_;
    const double rate = elapsed > 0 ? ran / elapsed : 0;
    const int width = 24;
    const int fill = total_ ? int(width * done_ / total_) : width;
    std::string bar(fill, '#');
    bar += std::string(width - fill, '.');
    char buf[200];
    std::snprintf(buf, sizeof buf, "\r\033[K[%s] %zu/%zu done, %zu failed, %.2f points/s, ETA %s", bar.c_str(), done_, total_,
                  failed_, rate, rate > 0 ? fmt_duration((total_ - done_) / rate).c_str() : "?");
    std::cerr << buf << std::flush;
  }
  void end() {
    if (tty_) std::cerr << "\r\033[K" << std::flush;
  }
  size_t failed() const { return failed_; }
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

 private:
  size_t total_, done_, skipped_, failed_ = 0;
  bool tty_;
  Clock::time_point start_ = Clock::now(), last_{};
};

struct Child {
  pid_t pid;
  const SweepPoint* point;
  Clock::time_point start;
  bool timed_out = false;
  std::string json, err;
};

pid_t spawn(const std::vector<std::string>& argv, const std::string& err_path) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> args;
  for (auto& s : argv) args.push_back(const_cast<char*>(s.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw InputError(std::string("pto-sim sweep: cannot start ") + args[0] + ": " + std::strerror(rc));
  return pid;
}

bool row_ok(const Row& r) { return r.at("status") == "ok"; }

std::string json_dir_for(const SweepSpec& spec, const std::string& fallback) {
  return spec.json_dir.empty() ? fallback : spec.json_dir;
}

void make_dir(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) throw InputError({dir, 0, 0}, "", "cannot create the directory: " + ec.message());
}

void write_all(int fd, const std::string& s, const std::string& path) {
  size_t off = 0;
  while (off < s.size()) {
    const ssize_t n = ::write(fd, s.data() + off, s.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw InputError({path, 0, 0}, "", std::string("write failed: ") + std::strerror(errno));
    off += size_t(n);
  }
}

}  // namespace

std::vector<std::vector<std::string>> read_csv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({path, 0, 0}, "", "cannot open CSV file");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string t = ss.str();
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false, any = false;
  int line = 1;
  for (size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (quoted) {
      if (c == '"' && i + 1 < t.size() && t[i + 1] == '"') field += '"', ++i;
      else if (c == '"') quoted = false;
      else field += c, line += c == '\n';
      continue;
    }
    if (c == '"' && field.empty()) quoted = any = true;
    else if (c == ',') row.push_back(field), field.clear(), any = true;
    else if (c == '\n') {
      row.push_back(field);
      rows.push_back(row);
      row.clear(), field.clear(), any = false;
      ++line;
    } else if (c != '\r') field += c, any = true;
  }
  if (quoted) throw InputError({path, line, 0}, "", "unterminated quoted field");
  if (any || !field.empty()) throw InputError({path, line, 0}, "", "the last row has no end of line (an interrupted write?)");
  return rows;
}

SweepTable plan_table(const SweepSpec& spec, const std::vector<SweepPoint>& points) {
  SweepTable t;
  t.columns = {"point", "status", "error", "config", "config_file", "config_hash"};
  if (!spec.program.empty()) {
    const std::vector<std::string> declared = declared_parameters(spec.program);
    for (const SweepAxis& a : spec.params)
      if (std::find(declared.begin(), declared.end(), a.name) == declared.end()) {
        std::string known;
        for (auto& n : declared) known += (known.empty() ? "" : ", ") + n;
        throw InputError(a.pos, a.name, "not a parameter of " + spec.program + " (it declares: " +
                                            (known.empty() ? std::string("none") : known) + ")");
      }
    for (auto& n : declared) t.columns.push_back("param." + n);
  } else if (!spec.params.empty()) {
    throw InputError(spec.params[0].pos, spec.params[0].name, "a trace sweep has no program parameters");
  }
  for (const SweepAxis& a : spec.sets) t.columns.push_back("set." + a.name);
  // Run results: every scalar, non-identity run-level key of the schema.
  for (const ReportKey& k : report_keys()) {
    const std::string p = k.path;
    if (k.identity || k.type == KeyType::Object || k.type == KeyType::List || p.find_first_of("[*") != std::string::npos) continue;
    if (p.rfind("levels", 0) == 0 || p.rfind("core.per_core", 0) == 0) continue;
    if (p.rfind("trace.", 0) == 0 && spec.trace.empty()) continue;
    if (p.rfind("program.", 0) == 0 && spec.program.empty()) continue;
    t.columns.push_back(p);
  }
  t.columns.push_back("wall_seconds");
  std::vector<std::pair<std::string, std::string>> levels;
  t.invalid = check_combos(points, levels);
  for (auto& [name, kind] : levels)
    for (const ReportKey& k : report_keys()) {
      const std::string p = k.path;
      if (p.rfind("levels[].", 0) != 0 || k.type == KeyType::List || k.type == KeyType::Object) continue;
      const std::string key = p.substr(9);
      if (key.find_first_of(".[") != std::string::npos || key == "name" || key == "kind" || !key_applies_to(k, kind)) continue;
      t.columns.push_back(name + "." + key);
    }
  return t;
}

int run_sweep(const SweepSpec& spec) {
  const std::vector<SweepPoint> points = expand_points(spec);
  const SweepTable table = plan_table(spec, points);
  refuse_overwriting_inputs(spec.output, {spec.program, spec.trace, spec.file});
  for (const std::string& c : spec.configs) refuse_overwriting_inputs(spec.output, {c});
  // Resume: the rows already in the output are finished points.
  std::set<std::string> done;
  const std::string header = header_line(table);
  std::error_code ec;
  const bool resume = fs::exists(spec.output, ec) && fs::file_size(spec.output, ec) > 0;
  if (resume) {
    const auto rows = read_csv(spec.output);
    if (rows.empty() || rows[0] != table.columns)
      throw InputError({spec.output, 1, 1}, "",
                       "its columns are not this sweep's (another program, parameters, configs or pto-sim version): "
                       "remove it or choose another -o");
    for (size_t i = 1; i < rows.size(); ++i) done.insert(rows[i][0]);
  } else {
    AtomicFile f(spec.output);
    f.write(header);
    f.commit();
  }
  const int fd = ::open(spec.output.c_str(), O_WRONLY | O_APPEND);
  if (fd < 0) throw InputError({spec.output, 0, 0}, "", std::string("cannot append: ") + std::strerror(errno));
  struct CloseFd { int fd; ~CloseFd() { ::close(fd); } } close_fd{fd};

  std::string dir = spec.json_dir;
  bool temp_dir = false;
  if (dir.empty()) {
    std::string templ = (fs::temp_directory_path() / "pto-sim-sweep-XXXXXX").string();
    if (!mkdtemp(templ.data())) throw InputError(std::string("pto-sim sweep: cannot create a temporary directory: ") + std::strerror(errno));
    dir = templ;
    temp_dir = true;
  } else {
    make_dir(dir);
  }
  struct RemoveDir { std::string d; bool on; ~RemoveDir() { if (on) { std::error_code e; fs::remove_all(d, e); } } } remove_dir{dir, temp_dir};

  std::vector<const SweepPoint*> todo;
  for (const SweepPoint& p : points)
    if (!done.count(p.key)) todo.push_back(&p);
  unsigned jobs = spec.jobs;
  if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());

  struct sigaction sa{}, old_int{}, old_term{};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  g_interrupted = 0;

  Progress progress(points.size(), points.size() - todo.size());
  std::vector<Child> running;
  size_t next = 0, failed = 0, written = 0;
  auto finish = [&](const SweepPoint&, const Row& r) {
    write_all(fd, csv_line(table, r), spec.output);
    ++written;
    const bool ok = row_ok(r);
    failed += !ok;
    progress.finished(ok);
  };
  while ((next < todo.size() || !running.empty()) && !g_interrupted) {
    while (running.size() < jobs && next < todo.size() && !g_interrupted) {
      const SweepPoint& p = *todo[next++];
      if (table.invalid.count(combo_key(p))) {
        finish(p, make_row(table, p, "", "", Outcome{}));
        continue;
      }
      Child c{0, &p, Clock::now(), false, dir + "/" + p.id() + ".json", dir + "/" + p.id() + ".err"};
      c.pid = spawn(point_argv(spec, p, c.json, false), c.err);
      running.push_back(c);
    }
    int status = 0;
    const pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid > 0) {
      auto it = std::find_if(running.begin(), running.end(), [&](const Child& c) { return c.pid == pid; });
      if (it == running.end()) continue;
      Outcome o;
      o.timeout_s = spec.timeout_s;
      o.timed_out = it->timed_out;
      if (WIFSIGNALED(status)) o.signal = WTERMSIG(status);
      else o.code = WEXITSTATUS(status);
      // A child killed by the Ctrl-C that stops the sweep has no result: no row.
      if (!(o.signal == SIGINT && !o.timed_out)) {
        finish(*it->point, make_row(table, *it->point, it->json, it->err, o));
        if (temp_dir) {
          fs::remove(it->json, ec);
          fs::remove(it->err, ec);
        } else {
          fs::remove(it->err, ec);
        }
      }
      running.erase(it);
      continue;
    }
    if (spec.timeout_s > 0)
      for (Child& c : running)
        if (!c.timed_out && std::chrono::duration<double>(Clock::now() - c.start).count() > spec.timeout_s) {
          c.timed_out = true;
          kill(c.pid, SIGKILL);
        }
    progress.draw(false);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  const bool interrupted = g_interrupted;
  for (Child& c : running) kill(c.pid, SIGTERM);
  for (Child& c : running) waitpid(c.pid, nullptr, 0);
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  progress.end();
  if (interrupted) {
    std::cerr << "pto-sim sweep: interrupted; " << spec.output << " holds " << points.size() - todo.size() + written
              << " of " << points.size() << " points (run the same command again to resume)\n";
    return 130;
  }
  std::cerr << "pto-sim sweep: " << points.size() << " points, " << todo.size() << " run, "
            << points.size() - todo.size() << " already in " << spec.output << ", " << failed << " failed; "
            << fmt_duration(progress.elapsed()) << "\n";
  return failed ? 1 : 0;
}

}  // namespace ptosim::cli

namespace ptosim::cli {
namespace {

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
  const std::vector<SweepPoint> points = expand_points(spec);
  const SweepTable table = plan_table(spec, points);
  const std::string dir = absolute(spec.json_dir.empty() ? jobs_file + ".d" : spec.json_dir);
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

int print_best(const std::string& csv_path, const std::string& key_spec, size_t count) {
  std::string key = key_spec;
  int dir = 0;  // -1 smaller is better, +1 larger
  const size_t colon = key.rfind(':');
  if (colon != std::string::npos && (key.substr(colon) == ":min" || key.substr(colon) == ":max")) {
    dir = key.substr(colon) == ":min" ? -1 : 1;
    key = key.substr(0, colon);
  }
  const auto rows = read_csv(csv_path);
  if (rows.empty()) throw InputError({csv_path, 1, 0}, "", "empty file: no header");
  const auto& head = rows[0];
  const auto col = std::find(head.begin(), head.end(), key);
  if (col == head.end()) throw InputError({"--best", 0, 0}, key, "no such column in " + csv_path);
  const size_t k = size_t(col - head.begin());
  const auto status_col = std::find(head.begin(), head.end(), "status");
  const auto point_col = std::find(head.begin(), head.end(), "point");
  if (status_col == head.end() || point_col == head.end())
    throw InputError({csv_path, 1, 0}, "", "not a sweep results file (no point / status columns)");
  if (dir == 0) {
    // "L1.miss_rate" is the schema's levels[].miss_rate.
    const ReportKey* rk = find_report_key(key);
    if (!rk && key.find('.') != std::string::npos) rk = find_report_key("levels[]." + key.substr(key.find('.') + 1));
    dir = rk && rk->better == Better::Higher ? 1 : -1;
  }
  std::vector<std::pair<double, size_t>> ranked;
  for (size_t i = 1; i < rows.size(); ++i) {
    if (rows[i].size() != head.size() || rows[i][size_t(status_col - head.begin())] != "ok") continue;
    char* end = nullptr;
    const double v = std::strtod(rows[i][k].c_str(), &end);
    if (end == rows[i][k].c_str()) continue;
    ranked.emplace_back(v, i);
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [&](auto& a, auto& b) { return dir < 0 ? a.first < b.first : a.first > b.first; });
  std::cout << "best " << std::min(count, ranked.size()) << " of " << ranked.size() << " ok points by " << key
            << (dir < 0 ? " (lowest first)" : " (highest first)") << ":\n";
  for (size_t i = 0; i < ranked.size() && i < count; ++i)
    std::cout << "  " << i + 1 << ". " << key << "=" << rows[ranked[i].second][k] << "  "
              << rows[ranked[i].second][size_t(point_col - head.begin())] << "\n";
  return ranked.empty() ? 1 : 0;
}

}  // namespace ptosim::cli
