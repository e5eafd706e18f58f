// The article's tools (tools.h): profiler and visualizer blocks that read the
// simulation's figures at their edges, a cache simulator that runs a
// function through a side model of other levels, a leak detector over the
// run's own leak tracking, and the records they hand back.
#include "sim/frontend/tools.h"

#include <algorithm>
#include <map>

#include "sim/common/registry.h"
#include "sim/exec/ops.h"

namespace ptosim::frontend {

namespace {

Value object(ObjectBase* o) { return Value::object(VT::Object, o); }
Value count(uint64_t n) { return Value::integer(int64_t(n)); }
double ratio(uint64_t part, uint64_t whole) { return whole ? double(part) / double(whole) : 0.0; }

void put(Value& d, const std::string& key, Value v) { as_dict(d).set("s" + key, Value::str(key), std::move(v)); }

void expect_args(const std::string& what, const std::vector<Value>& args, const std::vector<std::string>& kw,
                 size_t lo, size_t hi, Pos pos) {
  if (!kw.empty()) fail(pos, what + "() takes no keyword arguments");
  if (args.size() < lo || args.size() > hi)
    fail(pos, what + "() takes " + (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
                  " argument" + (hi == 1 ? "" : "s") + ", got " + std::to_string(args.size()));
}

// Named fields read as attributes: `leak.size`, `stats.miss_rate`.
struct Record : ObjectBase {
  std::string kind;
  std::vector<std::pair<std::string, Value>> fields;
  const char* type() const override { return kind.c_str(); }
  std::string str() const override {
    std::string s = kind + "(";
    for (size_t k = 0; k < fields.size(); ++k) s += (k ? ", " : "") + fields[k].first + "=" + to_repr(fields[k].second);
    return s + ")";
  }
  bool attribute(const std::string& name, Value& out) const override {
    for (auto& [k, v] : fields)
      if (k == name) {
        out = v;
        return true;
      }
    return false;
  }
};

// The simulation's figures now (every event so far simulated), or an error
// saying why there are none.
exec::RunFigures figures_now(Interp& in, Pos pos, const std::string& who) {
  if (!in.figures)
    fail(pos, who + " reads the simulation's figures, and this command simulates nothing (use `pto-sim run`)");
  if (in.ctx.in_parallel())
    fail(pos, who + " inside pto.parallel: the cores' events are still being put in time order there; "
                    "begin and end the block outside the parallel loop");
  in.ctx.flush_scalar();
  return in.figures();
}

// get_memory_stats(): the block's figures, as docs/LANGUAGE.md defines them.
Value stats_dict(const exec::RunFigures& f) {
  uint64_t accesses = 0, hits = 0;
  Value levels = new_dict();
  for (const exec::LevelFigures& l : f.levels) {
    if (l.first) {
      accesses += l.accesses;
      hits += l.hits;
    }
    Value d = new_dict();
    put(d, "accesses", count(l.accesses));
    put(d, "hits", count(l.hits));
    put(d, "misses", count(l.misses));
    put(d, "miss_rate", Value::number(ratio(l.misses, l.accesses)));
    put(d, "bytes", count(l.bytes));
    put(levels, l.name, std::move(d));
  }
  Value s = new_dict();
  put(s, "total_accesses", count(accesses));
  put(s, "cache_hits", count(hits));
  put(s, "cache_misses", count(accesses - hits));
  put(s, "miss_rate", Value::number(ratio(accesses - hits, accesses)));
  put(s, "core_accesses", count(f.core_accesses));
  put(s, "dram_bytes", count(f.dram_bytes));
  const double peak_bytes = f.seconds * f.peak_dram_bandwidth;
  put(s, "bandwidth_util", Value::number(peak_bytes > 0 ? double(f.dram_bytes) / peak_bytes : 0.0));
  put(s, "cycles", Value::number(f.cycles));
  put(s, "seconds", Value::number(f.seconds));
  put(s, "levels", std::move(levels));
  return s;
}

// get_hot_spots(n): the n tensors (tiles, with hot-spot tagging) with the
// most requests at the levels the core talks to, most first.
Value hot_spots(const exec::RunFigures& f, int64_t n) {
  std::map<std::string, uint64_t> by;
  for (const exec::LevelFigures& l : f.levels)
    if (l.first)
      for (auto& [t, am] : l.tensors) by[t] += am.first;
  std::vector<std::pair<std::string, uint64_t>> rows(by.begin(), by.end());
  std::stable_sort(rows.begin(), rows.end(), [](auto& a, auto& b) { return a.second > b.second; });
  Value d = new_dict();
  for (size_t k = 0; k < rows.size() && int64_t(k) < n; ++k) put(d, rows[k].first, count(rows[k].second));
  return d;
}

struct BlockTool;

// `with tool.profile("name"):` — what the block does is its tool's.
struct Block : ObjectBase {
  Value tool;  // keeps the tool alive
  std::string name;
  const char* type() const override { return "block"; }
  bool is_context() const override { return true; }
  void enter(Interp& in, Pos pos) override;
  void exit(Interp& in, Pos pos) override;
};

// A profiler or a visualizer: its blocks are regions of the report (named
// like pto.scope's, without freeing what they allocate) whose figures are
// those of the simulation at their edges.
struct BlockTool : ObjectBase {
  const char* verb;  // "profile" | "trace"
  bool open = false, ended = false, measured = false;
  std::string region;
  exec::RunFigures before, last;
  explicit BlockTool(const char* v) : verb(v) {}

  Value block(const Value& self, std::vector<Value>& args, const std::vector<std::string>& kw, Pos pos) {
    expect_args(verb, args, kw, 1, 1, pos);
    auto* b = new Block;
    b->tool = self;
    b->name = to_string_arg(args[0], pos, "block name");
    return object(b);
  }
  void begin(Interp& in, const std::string& name, Pos pos) {
    if (open) fail(pos, std::string(type()) + "." + verb + " blocks of one " + type() + " do not nest");
    measured = bool(in.figures);
    if (measured) before = figures_now(in, pos, std::string(type()) + "." + verb);
    at_pos(pos, [&] { in.ctx.scope_begin(name); });
    open = true;
    region = name;
  }
  void end(Interp& in, Pos pos) {
    at_pos(pos, [&] { in.ctx.scope_end(false); });
    if (measured) last = exec::figures_between(before, figures_now(in, pos, std::string(type()) + "." + verb));
    open = false;
    ended = true;
  }
  // The last block's figures, or why there are none.
  const exec::RunFigures& figures(Interp& in, const std::string& who, Pos pos) {
    if (!ended)
      fail(pos, who + ": no " + verb + " block has ended yet (wrap the code in `with " + "x." + verb + "(\"name\"):`)");
    if (!measured) figures_now(in, pos, who);  // fails: nothing was simulated
    return last;
  }
};

void Block::enter(Interp& in, Pos pos) { static_cast<BlockTool&>(as_object(tool)).begin(in, name, pos); }
void Block::exit(Interp& in, Pos pos) { static_cast<BlockTool&>(as_object(tool)).end(in, pos); }

struct Profiler : BlockTool {
  Profiler() : BlockTool("profile") {}
  const char* type() const override { return "MemoryProfiler"; }
  bool method(Interp& in, const std::string& name, std::vector<Value>& args, const std::vector<std::string>& kw,
              std::vector<Value>& kw_vals, Pos pos, Value& result) override {
    if (name == "profile") {
      Value self = Value::object(VT::Object, this);
      ++refs;  // `self` shares this object
      result = block(self, args, kw, pos);
      return true;
    }
    if (name == "get_memory_stats") {
      expect_args(name, args, kw, 0, 0, pos);
      result = stats_dict(figures(in, name, pos));
      return true;
    }
    if (name == "get_hot_spots") {
      int64_t n = 10;
      if (kw.size() == 1 && kw[0] == "n" && args.empty()) n = to_int(kw_vals[0], pos, "n");
      else if (kw.empty() && args.size() == 1) n = to_int(args[0], pos, "n");
      else if (!(kw.empty() && args.empty())) fail(pos, "get_hot_spots(n=10) takes one argument, n");
      if (n <= 0) fail(pos, "get_hot_spots: n must be positive, got " + std::to_string(n));
      result = hot_spots(figures(in, name, pos), n);
      return true;
    }
    return false;
  }
};

struct Visualizer : BlockTool {
  Visualizer() : BlockTool("trace") {}
  const char* type() const override { return "MemoryVisualizer"; }
  bool method(Interp& in, const std::string& name, std::vector<Value>& args, const std::vector<std::string>& kw,
              std::vector<Value>&, Pos pos, Value& result) override {
    if (name == "trace") {
      Value self = Value::object(VT::Object, this);
      ++refs;
      result = block(self, args, kw, pos);
      return true;
    }
    if (name != "generate_heatmap" && name != "generate_timeline") return false;
    expect_args(name, args, kw, 1, 1, pos);
    const std::string path = to_string_arg(args[0], pos, "picture file");
    if (path.size() < 5 || path.compare(path.size() - 4, 4, ".png") != 0)
      fail(pos, name + ": the picture is a PNG file (a name ending in .png), got '" + path + "'");
    if (!ended) fail(pos, name + ": no trace block has ended yet (wrap the code in `with x.trace(\"name\"):`)");
    result = Value::none();
    if (!measured) {
      in.warn(pos, name + " draws nothing: this command simulates nothing (use `pto-sim run`)");
      return true;
    }
    ProgramResult::Picture p;
    p.pos = in.source_pos(pos);
    p.kind = name == "generate_heatmap" ? "heatmap" : "timeline";
    p.path = path;
    p.region = region;
    p.from = before.cycles;
    p.to = before.cycles + last.cycles;
    in.pictures.push_back(p);
    return true;
  }
};

// with detector.monitor(): the buffers allocated in the block and still
// allocated when it ends, in every space but global (as --leaks reports
// them at the end of the program).
struct LeakDetector : ObjectBase {
  bool open = false, ended = false;
  exec::ExecContext::LiveMark mark;
  std::vector<ProgramResult::Leak> leaks;
  const char* type() const override { return "MemoryLeakDetector"; }
  bool method(Interp& in, const std::string& name, std::vector<Value>& args, const std::vector<std::string>& kw,
              std::vector<Value>&, Pos pos, Value& result) override;
};

struct Monitor : ObjectBase {
  Value detector;
  const char* type() const override { return "block"; }
  bool is_context() const override { return true; }
  void enter(Interp& in, Pos pos) override {
    auto& d = static_cast<LeakDetector&>(as_object(detector));
    if (d.open) fail(pos, "MemoryLeakDetector.monitor blocks of one detector do not nest");
    d.open = true;
    d.mark = in.ctx.live_buffers();
  }
  void exit(Interp& in, Pos) override {
    auto& d = static_cast<LeakDetector&>(as_object(detector));
    d.leaks = in.ctx.leaks_since(d.mark, in.src.path());
    d.mark.clear();
    d.open = false;
    d.ended = true;
  }
};

bool LeakDetector::method(Interp&, const std::string& name, std::vector<Value>& args,
                          const std::vector<std::string>& kw, std::vector<Value>&, Pos pos, Value& result) {
  if (name == "monitor") {
    expect_args(name, args, kw, 0, 0, pos);
    auto* m = new Monitor;
    m->detector = Value::object(VT::Object, this);
    ++refs;
    result = object(m);
    return true;
  }
  if (name != "get_leaks") return false;
  expect_args(name, args, kw, 0, 0, pos);
  if (!ended) fail(pos, "get_leaks: no monitor block has ended yet (wrap the code in `with x.monitor():`)");
  std::vector<Value> out;
  for (const auto& l : leaks) {
    auto* r = new Record;
    r->kind = "Leak";
    r->fields = {{"location", Value::str(l.pos.file + ":" + std::to_string(l.pos.line) + ":" + std::to_string(l.pos.col))},
                 {"size", count(l.bytes)},
                 {"tensor", Value::str(l.tensor)},
                 {"space", Value::str(l.space)},
                 {"scope", Value::str(l.scope.empty() ? std::string("the top level") : l.scope)}};
    out.push_back(object(r));
  }
  result = Value::list(std::move(out));
  return true;
}

// Levels of other sizes run beside the simulation: each simulate() call
// starts them cold and feeds them the accesses of the function it runs.
struct CacheSimulator : ObjectBase {
  std::vector<CacheConfig> levels;
  const char* type() const override { return "CacheSimulator"; }
  bool method(Interp& in, const std::string& name, std::vector<Value>& args, const std::vector<std::string>& kw,
              std::vector<Value>&, Pos pos, Value& result) override {
    if (name != "simulate") return false;
    expect_args(name, args, kw, 1, 1, pos);
    if (args[0].tag != VT::Func && args[0].tag != VT::Builtin)
      fail(pos, std::string("simulate() runs a function (def run(): ...; simulator.simulate(run)), got '") +
                    type_name(args[0]) + "'");
    if (!in.cache_model) fail(pos, "pto.CacheSimulator: no cache model is linked into this program's runner");
    std::vector<bool> cached;
    for (size_t s = 0; s < in.ctx.space_count(); ++s)
      cached.push_back(in.ctx.space_kind(SpaceId(s)) == exec::SpaceKind::Cached);
    std::unique_ptr<exec::CacheSideModel> model = in.cache_model(levels, cached);
    Value ret;
    at_pos(pos, [&] { in.ctx.side_begin(model.get()); });
    try {
      std::vector<Value> none;
      std::vector<std::string> no_names;
      std::vector<Value> no_vals;
      std::vector<Pos> no_pos;
      ret = call_value(in, args[0], none, no_names, no_vals, no_pos, pos);
    } catch (...) {
      in.ctx.side_end();
      throw;
    }
    in.ctx.side_end();
    const exec::RunFigures f = model->figures();
    auto* r = new Record;
    r->kind = "CacheStats";
    const exec::LevelFigures* l1 = nullptr;
    uint64_t requests = 0;
    Value per_level = new_dict();
    for (const exec::LevelFigures& l : f.levels) {
      if (l.kind != "cache") continue;
      if (!l1) l1 = &l;
      Value d = new_dict();
      put(d, "accesses", count(l.accesses));
      put(d, "hits", count(l.hits));
      put(d, "misses", count(l.misses));
      put(d, "miss_rate", Value::number(ratio(l.misses, l.accesses)));
      put(per_level, l.name, std::move(d));
    }
    for (const exec::LevelFigures& l : f.levels)
      if (l.kind == "uncached") requests = l.accesses;
    r->fields = {{"miss_rate", Value::number(l1 ? ratio(l1->misses, l1->accesses) : 0.0)},
                 {"accesses", count(l1 ? l1->accesses : 0)},
                 {"hits", count(l1 ? l1->hits : 0)},
                 {"misses", count(l1 ? l1->misses : 0)},
                 {"dram_bytes", count(f.dram_bytes)},
                 {"uncached_accesses", count(requests)},
                 {"levels", std::move(per_level)},
                 {"result", ret}};
    result = object(r);
    return true;
  }
};

}  // namespace

Value p_memory_profiler(Interp&, Args&) { return object(new Profiler); }
Value p_memory_visualizer(Interp&, Args&) { return object(new Visualizer); }
Value p_memory_leak_detector(Interp&, Args&) { return object(new LeakDetector); }

// pto.CacheSimulator(l1_size, l2_size=None, l3_size=None, line_size=64,
// associativity=8, replacement=the default policy): write-back levels.
Value p_cache_simulator(Interp&, Args& a) {
  auto* s = new CacheSimulator;
  Value v = object(s);
  const int64_t line = a.has(3) ? to_int(a[3], a.at(3), "line_size") : 64;
  const int64_t ways = a.has(4) ? to_int(a[4], a.at(4), "associativity") : 8;
  // The default policy is the registry's (rank 0), as a config's is.
  const std::string repl = a.has(5) ? to_string_arg(a[5], a.at(5), "replacement")
                                    : ChoiceLists::default_name(concepts::kReplacement);
  auto pow2 = [](int64_t x) { return x > 0 && (x & (x - 1)) == 0; };
  if (!pow2(line) || line > (1 << 20)) fail(a.at(3), "line_size must be a power of two (bytes), got " + std::to_string(line));
  if (ways <= 0 || ways > 65536) fail(a.at(4), "associativity must be 1..65536, got " + std::to_string(ways));
  for (int k = 0; k < 3; ++k) {
    if (!a.has(k)) continue;
    const std::string what = "l" + std::to_string(k + 1) + "_size";
    const int64_t size = to_int(a[k], a.at(k), what.c_str());
    if (size <= 0 || size % (line * ways) != 0 || !pow2(size / (line * ways)) || size > (int64_t(1) << 40))
      fail(a.at(k), what + " must be line_size x associativity x a power of two sets (bytes), got " +
                        std::to_string(size));
    if (k > 0 && !a.has(k - 1)) fail(a.at(k), what + " needs l" + std::to_string(k) + "_size too");
    CacheConfig c;
    c.name = "L" + std::to_string(k + 1);
    c.size = uint64_t(size);
    c.ways = uint32_t(ways);
    c.line = uint32_t(line);
    c.replacement = repl;
    s->levels.push_back(c);
  }
  if (!ChoiceLists::has(concepts::kReplacement, repl))
    fail(a.at(5), "replacement '" + repl + "' is not one of " + ChoiceLists::listing(concepts::kReplacement));
  return v;
}

}  // namespace ptosim::frontend
