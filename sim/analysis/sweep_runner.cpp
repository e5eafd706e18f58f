#include "sim/analysis/sweep_runner.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <set>
#include <thread>

#include "sim/analysis/sweep_lifetime.h"
#include "sim/analysis/sweep_rows.h"
#include "sim/common/atomic_file.h"

namespace ptosim::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

volatile sig_atomic_t g_interrupted = 0;
void on_interrupt(int) { g_interrupted = 1; }

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
  bool prechecking = false;  // running `pto-sim check` before the simulation
  bool single_thread = false;  // run --single-thread: other points share the machine
};

pid_t spawn(const std::vector<std::string>& argv, const std::string& err_path) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> args, envp;
  for (auto& s : argv) args.push_back(const_cast<char*>(s.c_str()));
  args.push_back(nullptr);
  static const std::vector<std::string> env = sweep_child_environment();  // the children die with the sweep
  for (auto& s : env) envp.push_back(const_cast<char*>(s.c_str()));
  envp.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, args[0], &fa, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw InputError(std::string("pto-sim sweep: cannot start ") + args[0] + ": " + std::strerror(rc));
  return pid;
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


// What the output already holds of this sweep: points with a row are done,
// except failed ones, which run again (their rows go) unless retry is off.
struct Previous {
  std::set<std::string> done;  // keys
  size_t kept_failures = 0;    // failed points left as they are (--no-retry-failed)
};

size_t column(const std::vector<std::string>& head, const char* name) {
  return size_t(std::find(head.begin(), head.end(), name) - head.begin());
}

Previous resume_from(const SweepSpec& spec, SweepTable& table, const std::vector<SweepPoint>& points) {
  auto rows = read_sweep_csv(spec.output, table);
  const size_t point = column(rows[0], "point"), status = column(rows[0], "status");
  auto cell = [](const std::vector<std::string>& r, size_t i) { return i < r.size() ? r[i] : std::string(); };
  std::set<std::string> ok, failed;
  for (size_t i = 1; i < rows.size(); ++i) (cell(rows[i], status) == "ok" ? ok : failed).insert(cell(rows[i], point));
  Previous prev;
  std::set<std::string> retry;
  for (const SweepPoint& p : points) {
    if (prev.done.count(p.key) || retry.count(p.key)) continue;
    const bool was_ok = ok.count(p.key) || ok.count(p.spelled);
    const bool was_failed = failed.count(p.key) || failed.count(p.spelled);
    if (was_ok || (was_failed && !spec.retry_failed)) prev.done.insert(p.key);
    if (was_ok || !was_failed) continue;
    if (!spec.retry_failed) {
      ++prev.kept_failures;
      continue;
    }
    retry.insert(p.key);
    retry.insert(p.spelled);
  }
  if (!spec.retry_failed || retry.empty()) return prev;
  // The failed rows of the points run again go, in one atomic rewrite: the
  // file stays a valid CSV, and a point stays unfinished until its new row.
  std::string text = csv_fields(rows[0]);
  for (size_t i = 1; i < rows.size(); ++i)
    if (cell(rows[i], status) == "ok" || !retry.count(cell(rows[i], point))) text += csv_fields(rows[i]);
  AtomicFile f(spec.output);
  f.write(text);
  f.commit();
  return prev;
}

}  // namespace

int run_sweep(const SweepSpec& spec) {
  std::vector<SweepPoint> points = expand_points(spec);
  SweepTable table = plan_table(spec, points);
  name_points(table, points);
  refuse_overwriting_inputs(spec.output, {spec.program, spec.trace, spec.file});
  for (const std::string& c : spec.configs) refuse_overwriting_inputs(spec.output, {c});
  // Resume: the rows already in the output are finished points.
  Previous prev;
  std::error_code ec;
  const bool resume = fs::exists(spec.output, ec) && fs::file_size(spec.output, ec) > 0;
  if (resume) {
    prev = resume_from(spec, table, points);
  } else {
    AtomicFile f(spec.output);
    f.write(header_line(table));
    f.commit();
  }
  std::set<std::string>& done = prev.done;
  const int fd = ::open(spec.output.c_str(), O_WRONLY | O_APPEND);
  if (fd < 0) throw InputError({spec.output, 0, 0}, "", std::string("cannot append: ") + std::strerror(errno));
  struct CloseFd { int fd; ~CloseFd() { ::close(fd); } } close_fd{fd};

  std::string dir = spec.json_dir;
  bool temp_dir = false;
  if (dir.empty()) {
    dir = make_sweep_temp_dir();
    temp_dir = true;
  } else {
    make_dir(dir);
  }
  struct RemoveDir { std::string d; bool on; ~RemoveDir() { if (on) { std::error_code e; fs::remove_all(d, e); } } } remove_dir{dir, temp_dir};

  std::vector<const SweepPoint*> todo;
  // Points that are one point to the identity (-D TM=16 and the default 16) run once.
  std::set<std::string> seen;
  for (const SweepPoint& p : points)
    if ((!spec.select || spec.select(p)) && seen.insert(p.key).second && !done.count(p.key)) todo.push_back(&p);
  const size_t distinct = seen.size();
  unsigned jobs = spec.jobs;
  if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());

  struct sigaction sa{}, old_int{}, old_term{};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  g_interrupted = 0;

  Progress progress(distinct, distinct - todo.size());
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
      // Another point runs beside it (now or next): one thread each. A
      // point alone (-j 1, the last of a sweep) keeps its second thread.
      c.single_thread = jobs > 1 && (!running.empty() || next < todo.size());
      c.prechecking = spec.precheck && !spec.program.empty();
      c.pid = spawn(c.prechecking ? precheck_argv(spec, p) : point_argv(spec, p, c.json, false, c.single_thread), c.err);
      running.push_back(c);
    }
    int status = 0;
    const pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid > 0) {
      auto it = std::find_if(running.begin(), running.end(), [&](const Child& c) { return c.pid == pid; });
      if (it == running.end()) continue;
      Outcome o;
      o.timeout_s = spec.timeout_s;
      o.status_only = spec.rows_status_only;
      o.timed_out = it->timed_out;
      if (WIFSIGNALED(status)) o.signal = WTERMSIG(status);
      else o.code = WEXITSTATUS(status);
      // The functional run passed: now the simulation, in the same slot.
      if (it->prechecking && !o.timed_out && !o.signal && (o.code == 0 || o.code == 1) && !g_interrupted) {
        it->prechecking = false;
        it->start = Clock::now();
        it->pid = spawn(point_argv(spec, *it->point, it->json, false, it->single_thread), it->err);
        continue;
      }
      // A child stopped by the Ctrl-C that stops the sweep has no result: no row.
      if (!o.interrupted() && !g_interrupted) {
        Row row = make_row(table, *it->point, it->json, it->err, o);
        if (it->prechecking) row["error"] += " [found by --precheck: not simulated]";
        finish(*it->point, row);
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
    std::cerr << "pto-sim sweep: interrupted; " << spec.output << " holds " << distinct - todo.size() + written
              << " of " << distinct << " points (run the same command again to resume)\n";
    return 130;
  }
  std::cerr << "pto-sim sweep: " << distinct << " points, " << todo.size() << " run, " << distinct - todo.size()
            << " already in " << spec.output << ", " << failed << " failed";
  if (prev.kept_failures) std::cerr << ", " << prev.kept_failures << " failed before (not retried: --no-retry-failed)";
  std::cerr << "; " << fmt_duration(progress.elapsed()) << "\n";
  // The status says what the CSV holds: a failure kept from before counts.
  return failed + prev.kept_failures ? 1 : 0;
}

}  // namespace ptosim::cli
