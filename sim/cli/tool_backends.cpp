// The command line's side of the article's tools (tool_backends.h).
#include "sim/cli/tool_backends.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include "models/cache/hierarchy.h"
#include "sim/common/error.h"

extern char** environ;

namespace ptosim::cli {

exec::RunFigures figures_of(const StatsNode& root, const HwConfig& config) {
  exec::RunFigures f;
  f.cycles = root.num("cycles");
  f.seconds = root.num("seconds");
  f.dram_bytes = root.u64("dram_bytes");
  f.peak_dram_bandwidth = root.num("peak_dram_bandwidth_bytes_per_s");
  for (const StatsNode& c : root.children)
    if (c.kind == NodeKind::Core) f.core_accesses = c.u64("accesses");
  std::set<std::string> entered;  // the levels a space maps to: the core sends requests there
  for (auto& [space, target] : config.spaces) entered.insert(target);
  const StatsNode* levels = root.find_child("levels");
  if (!levels) return f;
  for (const StatsNode& l : levels->children) {
    exec::LevelFigures x;
    x.name = l.name;
    x.kind = node_kind_name(l.kind);
    x.first = entered.count(l.name) || l.kind == NodeKind::Register || l.kind == NodeKind::Scratchpad ||
              l.kind == NodeKind::Constant;
    x.accesses = l.u64("reads") + l.u64("writes");
    x.hits = l.u64("read_hits") + l.u64("write_hits");
    x.misses = l.u64("read_misses") + l.u64("write_misses");
    x.bytes = l.u64("bytes_read") + l.u64("bytes_written");
    if (const StatsNode* t = l.find_child("tensors"))
      for (const StatsNode& row : t->children) x.tensors[row.name] = {row.u64("accesses"), row.u64("misses")};
    f.levels.push_back(std::move(x));
  }
  return f;
}

namespace {

class SideModel final : public exec::CacheSideModel {
 public:
  SideModel(const std::vector<CacheConfig>& levels, std::vector<bool> cached)
      : hierarchy_(levels), cached_(std::move(cached)) {}
  void access(const Access& a) override {
    if (is_control(a.kind)) return;
    if (a.space >= cached_.size() || !cached_[a.space]) {
      ++uncached_;
      return;
    }
    MemRequest r;
    r.addr = a.addr;
    r.bytes = a.bytes;
    r.write = (uint8_t(a.kind) & 1) != 0 || a.kind == AccessKind::Fill;
    hierarchy_.access(r);
  }
  void compute(const Compute&) override {}
  exec::RunFigures figures() const override {
    exec::RunFigures f;
    for (auto& l : hierarchy_.levels()) {
      const LevelStats& s = l->stats();
      exec::LevelFigures x;
      x.name = l->config().name;
      x.kind = "cache";
      x.accesses = s.accesses();
      x.misses = s.misses();
      x.hits = x.accesses - x.misses;
      x.bytes = s.bytes_read + s.bytes_written;
      f.levels.push_back(std::move(x));
    }
    const LevelStats& m = hierarchy_.memory().stats();
    f.dram_bytes = m.bytes_read + m.bytes_written;
    exec::LevelFigures u;
    u.name = "uncached";
    u.kind = "uncached";
    u.accesses = uncached_;
    f.levels.push_back(u);
    return f;
  }

 private:
  CacheHierarchy hierarchy_;
  std::vector<bool> cached_;
  uint64_t uncached_ = 0;
};

// scripts/plot.py: $PTOSIM_PLOT, else the installed copy, else the source tree's.
std::string plot_script() {
  if (const char* p = std::getenv("PTOSIM_PLOT"); p && *p) return p;
  for (const char* p : {PTOSIM_INSTALL_PLOT, PTOSIM_SOURCE_PLOT})
    if (access(p, R_OK) == 0) return p;
  return PTOSIM_SOURCE_PLOT;
}

// Debian's python3 (which has python3-matplotlib) before whatever comes first
// in PATH (a pyenv or venv python3 usually has no matplotlib); $PTOSIM_PYTHON
// overrides both.
std::string python() {
  if (const char* p = std::getenv("PTOSIM_PYTHON"); p && *p) return p;
  if (access("/usr/bin/python3", X_OK) == 0) return "/usr/bin/python3";
  return "python3";
}

// Runs argv; the exit status, or -1 when it could not start.
int spawn(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid;
  if (posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

std::unique_ptr<exec::CacheSideModel> make_cache_side_model(const std::vector<CacheConfig>& levels,
                                                            std::vector<bool> cached) {
  return std::make_unique<SideModel>(levels, std::move(cached));
}

int draw_pictures(const std::vector<ProgramResult::Picture>& pictures, const std::string& report_json) {
  if (pictures.empty()) return 0;
  char dir[] = "/tmp/pto-sim-pictures-XXXXXX";
  if (!mkdtemp(dir)) {
    std::cerr << "pto-sim: cannot make a temporary folder for the pictures' report\n";
    return 2;
  }
  const std::string json = std::string(dir) + "/report.json";
  { std::ofstream(json) << report_json; }
  int status = 0;
  for (const auto& p : pictures) {
    char window[64];
    std::snprintf(window, sizeof window, "%.0f:%.0f", p.from, p.to);
    std::vector<std::string> args = {python(), plot_script(), p.kind, json, "-o", p.path, "--cycles", window,
                                     "--title-note", "block '" + p.region + "'"};
    const int rc = spawn(args);
    if (rc != 0) {
      std::cerr << InputError::format(p.pos, "", "generate_" + p.kind + "(\"" + p.path + "\"): " +
                                                   (rc < 0 ? "could not start " + python()
                                                           : "scripts/plot.py " + p.kind + " failed (exit " +
                                                                 std::to_string(rc) + ", its message above)"))
                << "\n";
      status = 2;
      break;
    }
  }
  std::remove(json.c_str());
  rmdir(dir);
  return status;
}

}  // namespace ptosim::cli
