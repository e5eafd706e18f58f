#include "sim/config/config_loader.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>
#include <yaml-cpp/yaml.h>

#include <cctype>
#include <cmath>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include "sim/common/read_file.h"
#include "sim/common/registry.h"
#include "sim/common/time_limits.h"
#include "sim/common/units.h"
#include "sim/common/ids.h"
#include "sim/config/params.h"
#include "sim/config/shared_keys.h"

namespace ptosim {
namespace {

// A real hierarchy has 1-4 cache levels and a few memories. Every level is
// built before the first access and every miss walks the chain, so a config
// of thousands (a YAML list of aliases: 5,001 levels took 59 s and 593 MB
// to build) is refused at its key instead; 16 and 64 leave room for
// experiments.
constexpr size_t kMaxCacheLevels = 16;
constexpr size_t kMaxMemories = 64;

// Reads one YAML mapping, remembering which keys were used so that unknown
// keys can be reported with their own line.
class Section {
 public:
  Section(const YAML::Node& node, std::string file, std::string path)
      : node_(node), file_(std::move(file)), path_(std::move(path)) {
    if (!node.IsMap()) fail(node, path_, "expected a mapping");
    std::set<std::string> keys;  // yaml-cpp keeps both of a repeated key; one would be ignored
    for (auto it = node.begin(); it != node.end(); ++it)
      if (!keys.insert(it->first.Scalar()).second) fail(it->first, key_path(it->first.Scalar()), "given twice");
  }

  SourcePos pos(const YAML::Node& n) const { return {file_, n.Mark().line + 1, 0}; }
  SourcePos pos() const { return pos(node_); }
  const YAML::Node& node() const { return node_; }
  [[noreturn]] void fail(const YAML::Node& n, const std::string& key, const std::string& msg) const {
    throw InputError(pos(n), key, msg);
  }
  std::string key_path(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }

  bool has(const std::string& key) {
    used_.insert(key);
    return bool(node_[key]);
  }
  YAML::Node get(const std::string& key) {
    used_.insert(key);
    return node_[key];
  }

  // Parses node[key] with `parse` (which throws std::invalid_argument) if present.
  template <class T, class F>
  void read(const std::string& key, T& out, F parse) {
    YAML::Node n = get(key);
    if (!n) return;
    if (!n.IsScalar()) fail(n, key_path(key), "expected a scalar value");
    try {
      out = parse(n.Scalar());
    } catch (const std::invalid_argument& e) {
      fail(n, key_path(key), e.what());
    }
  }

  void read_string(const std::string& key, std::string& out) {
    read(key, out, [](const std::string& s) { return s; });
  }
  // A name from a closed table (sim/common/name_table.h).
  template <class E, size_t N>
  void read_enum(const std::string& key, E& out, const NameTable<E, N>& table) {
    read(key, out, [&](const std::string& s) {
      if (auto v = table.find(s)) return *v;
      throw std::invalid_argument("'" + s + "' is not one of " + table.listing());
    });
  }
  // A module's name: it names a SystemC module and a report row, and spaces
  // refer to it.
  void read_name(const std::string& key, std::string& out) {
    read(key, out, [](const std::string& s) {
      if (s.empty() || s.size() > 64) throw std::invalid_argument("a name has 1 to 64 characters");
      for (char ch : s)
        if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_' && ch != '-')
          throw std::invalid_argument("'" + s + "': a name is letters, digits, '_' and '-'");
      if (s == "core") throw std::invalid_argument("'core' is the core's own name");
      if (s == "global") throw std::invalid_argument("'global' is the space the caches serve");
      return s;
    });
  }
  // The keys the models declared for this section (sim/config/params.h),
  // in their declared order, those marked read_first first.
  template <class Cfg>
  void read_params(Cfg& cfg, const ParamContext& ctx) {
    for (bool first : {true, false})
      for (const Param<Cfg>& p : Params<Cfg>::all())
        if (p.read_first == first) read_param(cfg, ctx, p);
  }
  template <class Cfg>
  void read_param(Cfg& cfg, const ParamContext& ctx, const Param<Cfg>& p) {
    YAML::Node n = get(p.key);
    if (!n) return;
    if (!n.IsScalar()) fail(n, key_path(p.key), "expected a scalar value");
    try {
      p.parse(cfg, n.Scalar(), ctx);
    } catch (const std::invalid_argument& e) {
      fail(n, key_path(p.key), e.what());
    }
  }

  void reject_unknown() const {
    for (auto it = node_.begin(); it != node_.end(); ++it) {
      std::string k = it->first.Scalar();
      if (!used_.count(k)) fail(it->first, key_path(k), "unknown key");
    }
  }

 private:
  const YAML::Node node_;
  std::string file_;
  std::string path_;
  std::set<std::string> used_;
};

}  // namespace

// The first YAML document of `text`. yaml-cpp 0.7's LoadAll never returns on
// a stray flow indicator outside a flow collection (a config holding `,`):
// the parser hands out empty documents without consuming the token. So the
// documents are walked here, at most two, and a document that starts where
// the previous one did is that stray token.
class DocumentMarks : public YAML::EventHandler {
 public:
  std::vector<YAML::Mark> starts;  // of each document
  std::vector<YAML::Mark> roots;   // of each document's first node (where its text is)
  void OnDocumentStart(const YAML::Mark& m) override { starts.push_back(m); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { node(m); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { node(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override { node(m); }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(m);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(m);
  }
  void OnMapEnd() override {}

 private:
  void node(const YAML::Mark& m) {
    if (roots.size() < starts.size()) roots.push_back(m);
  }
};

YAML::Node first_document(const std::string& text, const std::string& file) {
  try {
    std::istringstream in(text);
    YAML::Parser parser(in);
    DocumentMarks marks;
    for (int k = 0; k < 3 && parser.HandleNextDocument(marks); ++k) {
      const auto& m = marks.starts;
      if (m.size() >= 2 && m[m.size() - 1].pos == m[m.size() - 2].pos) {
        const YAML::Mark& at = m.back();
        const char ch = at.pos >= 0 && size_t(at.pos) < text.size() ? text[size_t(at.pos)] : '?';
        throw InputError({file, at.line + 1, at.column + 1}, "",
                         std::string("YAML syntax: unexpected '") + ch + "' outside a [list] or {mapping}");
      }
    }
    if (marks.starts.size() > 1) {
      const YAML::Mark& at = marks.roots.size() > 1 ? marks.roots[1] : marks.starts[1];
      throw InputError({file, at.line + 1, 0}, "", "a config is one YAML document, not several");
    }
    return YAML::Load(text);
  } catch (const YAML::DeepRecursion& e) {
    // yaml-cpp says only "bad file" here.
    throw InputError({file, e.mark.line + 1, e.mark.column + 1}, "", "YAML syntax: nested too deeply");
  } catch (const YAML::Exception& e) {
    throw InputError({file, e.mark.line + 1, e.mark.column + 1}, "", "YAML syntax: " + e.msg);
  }
}

namespace {

double positive_number(const std::string& s) {
  double v = units::parse_count(s);
  if (!(v > 0)) throw std::invalid_argument("must be positive");
  return v;
}

bool timed_dtype(const std::string& name) {
  for (size_t i = 0; i < kTimedDtypes; ++i)
    if (name == timed_dtype_name(i)) return true;
  return false;
}

// core.flops_per_cycle: one figure, or one per dtype (float32's is the peak).
void parse_flops_per_cycle(Section& sec, CoreConfig& core, const std::string& file) {
  YAML::Node n = sec.get("flops_per_cycle");
  if (!n) return;
  if (!n.IsMap()) return sec.read("flops_per_cycle", core.flops_per_cycle, positive_number);
  Section m(n, file, "core.flops_per_cycle");
  for (auto it = n.begin(); it != n.end(); ++it) {
    const std::string k = it->first.Scalar();
    if (!timed_dtype(k)) m.fail(it->first, m.key_path(k), "not a dtype (float32 float16 bfloat16 int32 int8)");
    m.read(k, core.flops_per_cycle_by_dtype[k], positive_number);
  }
  if (!core.flops_per_cycle_by_dtype.count("float32"))
    m.fail(n, "core.flops_per_cycle", "a per-dtype table needs float32 (the peak the roofline uses)");
  core.flops_per_cycle = core.flops_per_cycle_by_dtype["float32"];
}

// core.op_timing: {add: {latency: 4, throughput: 2}, div.int32: {...}, ...};
// `class` sets every dtype of the class, `class.dtype` one of them after it.
void parse_op_timing(Section& sec, CoreConfig& core, const std::string& file) {
  YAML::Node n = sec.get("op_timing");
  if (!n) return;
  Section m(n, file, "core.op_timing");
  std::vector<std::pair<std::string, YAML::Node>> plain, typed;
  for (auto it = n.begin(); it != n.end(); ++it) {
    const std::string k = it->first.Scalar();
    const size_t dot = k.find('.');
    if (!op_class_from_name(k.substr(0, dot)))
      m.fail(it->first, m.key_path(k), "not an op class (add mul fma div sqrt exp int)");
    if (dot != std::string::npos && !timed_dtype(k.substr(dot + 1)))
      m.fail(it->first, m.key_path(k), "'" + k.substr(dot + 1) + "' is not a dtype (float32 float16 bfloat16 int32 int8)");
    (dot == std::string::npos ? plain : typed).emplace_back(k, it->second);
  }
  for (auto* list : {&plain, &typed}) {
    for (auto& [k, v] : *list) {
      Section e(v, file, m.key_path(k));
      OpTiming t;
      const size_t dot = k.find('.');
      const OpClass c = *op_class_from_name(k.substr(0, dot));
      t = core.op_timing.at(c, 0);
      if (dot != std::string::npos)
        for (size_t d = 0; d < kTimedDtypes; ++d)
          if (k.substr(dot + 1) == timed_dtype_name(d)) t = core.op_timing.at(c, d);
      e.read("latency", t.latency, [](const std::string& s) { return double(units::parse_cycles(s)); });
      e.read("throughput", t.throughput, positive_number);
      e.reject_unknown();
      for (size_t d = 0; d < kTimedDtypes; ++d)
        if (dot == std::string::npos || k.substr(dot + 1) == timed_dtype_name(d)) core.op_timing.at(c, d) = t;
    }
  }
}

// core.pipes: {mte2: {bandwidth: 256 B/cycle, setup: 100 cycles}, ...}
// and core.vector_flops_per_cycle: the `npu` model's engines (npu_config.h).
void parse_pipes(Section& sec, NpuConfig& npu, const std::string& file, double clock_hz) {
  sec.read("vector_flops_per_cycle", npu.vector_flops_per_cycle, positive_number);
  if (!sec.has("pipes")) return;
  YAML::Node n = sec.get("pipes");
  Section m(n, file, "core.pipes");
  for (auto it = n.begin(); it != n.end(); ++it) {
    const std::string k = it->first.Scalar();
    auto p = kPipes.find(k);
    if (!p || *p == Pipe::Cube || *p == Pipe::Vector)
      m.fail(it->first, m.key_path(k), "not a data-moving engine (mte2 | mte1_l0a | mte1_l0b | fixpipe | mte3)");
    Section e(it->second, file, m.key_path(k));
    PipeConfig& pc = npu.pipes[size_t(*p)];
    e.read("bandwidth", pc.bandwidth, [&](const std::string& s) { return param::parse_port_bandwidth(s, clock_hz); });
    e.read("setup", pc.setup, [&](const std::string& s) { return param::parse_latency(s, clock_hz); });
    m.has(k);
    e.reject_unknown();
  }
  m.reject_unknown();
}

void parse_core(Section& sec, CoreConfig& core, const std::string& file, double clock_hz) {
  // model:, the keys every core model shares (shared_keys.h) and the model's own.
  sec.read_params(core, ParamContext{clock_hz});
  parse_flops_per_cycle(sec, core, file);
  try {
    time_limits::check_step(1e15 / clock_hz / core.flops_per_cycle, "at " + units::format_frequency(clock_hz) + " one flop");
  } catch (const std::invalid_argument& e) {
    sec.fail(sec.get("flops_per_cycle"), "core.flops_per_cycle", e.what());
  }
  parse_op_timing(sec, core, file);
  parse_pipes(sec, core.npu, file, clock_hz);
  sec.reject_unknown();
  if (core.count > kMaxCores)
    sec.fail(sec.get("cores"), "core.cores", "at most " + std::to_string(kMaxCores) + " cores");
  if (core.vector_bytes == 0) sec.fail(sec.get("vector_bytes"), "core.vector_bytes", "must be positive");
}

// A memory named after a kind is of that kind unless it says otherwise.
MemoryKind default_kind(const std::string& name) { return kMemoryKinds.find(name).value_or(MemoryKind::Scratchpad); }

MemoryConfig parse_memory(Section& sec, double clock_hz) {
  MemoryConfig m;
  m.pos = sec.pos();
  if (!sec.has("name")) throw InputError(sec.pos(), sec.key_path("name"), "missing (every memory needs a name)");
  sec.read_name("name", m.name);
  m.kind = default_kind(m.name);
  m.read_only = m.kind == MemoryKind::Constant;
  sec.read_params(m, ParamContext{clock_hz});  // shared_keys.h
  sec.reject_unknown();
  if (m.size == 0) sec.fail(sec.get("size"), sec.key_path("size"), "must be positive");
  if (m.bank_width == 0) sec.fail(sec.get("bank_width"), sec.key_path("bank_width"), "must be positive");
  return m;
}

bool is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

// Dinero IV's limits on -lN-Tsbsize (a power of two, at most the block, at
// most 32 sub-blocks: one bit each in a 32-bit mask) and on the prefetchers
// that act within a block (-lN-Tpfdist at most the sub-blocks per block).
void check_subblock(Section& sec, CacheConfig& c) {
  const std::string at = sec.key_path("subblock"), sb = std::to_string(c.subblock) + " B";
  if (!is_pow2(c.subblock)) sec.fail(sec.get("subblock"), at, "sub-block size " + sb + " is not a power of two");
  if (c.subblock > c.line)
    sec.fail(sec.get("subblock"), at, "sub-block size " + sb + " is larger than the line (" + std::to_string(c.line) + " B)");
  if (c.line / c.subblock > 32)
    sec.fail(sec.get("subblock"), at,
             "sub-block size " + sb + " makes " + std::to_string(c.line / c.subblock) +
                 " sub-blocks per line; at most 32 (one valid bit each, as Dinero IV)");
  c.prefetch.subblocks = c.line / c.subblock;
}

CacheConfig parse_cache(Section& sec, double clock_hz, size_t index) {
  CacheConfig c;
  c.pos = sec.pos();
  c.name = "L" + std::to_string(index + 1);
  sec.read_name("name", c.name);
  c.sharing = index == 0 ? CacheSharing::Private : CacheSharing::Shared;
  sec.read_enum("sharing", c.sharing, kCacheSharing);
  for (const char* key : {"size", "ways", "line"})
    if (!sec.has(key)) throw InputError(sec.pos(), sec.key_path(key), "missing (a cache needs size, ways and line)");
  // A level's keys (shared_keys.h) and the replacement policies' (seed).
  sec.read_params(c, ParamContext{clock_hz});
  if (c.slices > 1 && c.sharing == CacheSharing::Private)
    sec.fail(sec.get("slices"), sec.key_path("slices"),
             "slices split a shared level by address; " + c.name + " is private (one instance per core)");
  if (sec.has("set_writeback_cycles") && !c.set_fill_cycles)
    sec.fail(sec.get("set_writeback_cycles"), sec.key_path("set_writeback_cycles"),
             "needs set_fill_cycles (the spacing a dirty victim adds to)");
  sec.read_params(c.prefetch, ParamContext{});  // prefetcher: and its keys (models/cache/prefetch/prefetcher_params.cpp)
  sec.reject_unknown();
  if (!is_pow2(c.line)) sec.fail(sec.get("line"), sec.key_path("line"), "line size " + std::to_string(c.line) + " B is not a power of two");
  if (sec.has("subblock")) check_subblock(sec, c);
  if (ChoiceLists::has_trait(concepts::kPrefetcher, c.prefetch.name, traits::kWithinLine) &&
      c.prefetch.distance > c.prefetch.subblocks)
    sec.fail(sec.has("prefetch_distance") ? sec.get("prefetch_distance") : sec.get("prefetcher"),
             sec.key_path("prefetch_distance"),
             "prefetcher " + c.prefetch.name + " prefetches within a line: prefetch_distance " +
                 std::to_string(c.prefetch.distance) + " is more than the " + std::to_string(c.prefetch.subblocks) +
                 " sub-block(s) per line (set subblock:)");
  if (c.size == 0 || c.size % (uint64_t(c.ways) * c.line) != 0)
    sec.fail(sec.get("size"), sec.key_path("size"),
             "size " + units::format_bytes(c.size) + " is not divisible by ways x line (" + std::to_string(c.ways) +
                 " x " + std::to_string(c.line) + " B)");
  if (c.size / c.line > (1u << 24))  // the tag store and the 3C shadow hold about 64 B a line
    sec.fail(sec.get("size"), sec.key_path("size"),
             "size " + units::format_bytes(c.size) + " is more than 2^24 lines of " + std::to_string(c.line) + " B");
  return c;
}

void parse_dram(Section& sec, DramConfig& d, double clock_hz) {
  d.pos = sec.pos();
  sec.read_name("name", d.name);
  sec.read_params(d, ParamContext{clock_hz});  // timing: (shared_keys.h) and the DRAM models' keys (models/dram/)
  sec.reject_unknown();
  if (!is_pow2(d.row_size)) sec.fail(sec.get("row_size"), "dram.row_size", "must be a power of two");
  if (d.row_size > (1u << 20)) sec.fail(sec.get("row_size"), "dram.row_size", "at most 1 MiB");
  if (uint64_t(d.channels) * d.ranks * d.banks > (1u << 16))  // one bank state each
    sec.fail(sec.node(), "dram", "channels x ranks x banks is more than 65536 banks");
}

}  // namespace

// Several cores with private levels: they keep whole lines (the
// directory's unit is a line; docs/CACHES.md, "Several cores").
static void check_private_levels(const HwConfig& c) {
  const size_t k = c.private_levels();
  if (k == 0) return;
  std::vector<const CacheConfig*> chain;
  for (auto& cc : c.caches)
    if (!c.private_cache(cc.name)) chain.push_back(&cc);
  for (size_t i = 0; i < k; ++i)
    if (chain[i]->has_subblocks())
      throw InputError(chain[i]->pos, "caches[" + std::to_string(chain[i] - c.caches.data()) + "].subblock",
                       "a private level of several cores keeps whole lines (the directory's unit): no sub-blocks");
}

HwConfig parse_config(const std::string& text, const std::string& file) {
  YAML::Node root = first_document(text, file);
  return parse_config_node(root, file);
}

HwConfig parse_config_node(const YAML::Node& root, const std::string& file) {
  if (!root || root.IsNull()) throw InputError({file, 1, 0}, "", "empty config (a config needs at least `caches:`)");
  HwConfig c;
  c.source = file;
  Section top(root, file, "");
  top.read_string("name", c.name);
  top.read("clock", c.clock_hz, [](const std::string& s) {
    const double hz = units::parse_frequency(s);
    time_limits::check_step(1e15 / hz, "at '" + s + "' one cycle");
    return hz;
  });
  if (top.has("core")) {
    Section s(top.get("core"), file, "core");
    parse_core(s, c.core, file, c.clock_hz);
  }
  if (top.has("memories")) {
    YAML::Node list = top.get("memories");
    if (!list.IsSequence()) top.fail(list, "memories", "expected a list");
    if (list.size() > kMaxMemories)
      top.fail(list, "memories", std::to_string(list.size()) + " memories, more than the " + std::to_string(kMaxMemories) +
                                     " a config may have");
    for (size_t i = 0; i < list.size(); ++i) {
      Section s(list[i], file, "memories[" + std::to_string(i) + "]");
      MemoryConfig m = parse_memory(s, c.clock_hz);
      if (c.memory(m.name)) s.fail(list[i], s.key_path("name"), "memory '" + m.name + "' defined twice");
      c.memories.push_back(m);
    }
  }
  // A config has the memories it names and no others: on a CPU, `shared`
  // and `constant` data live in the caches (`spaces: {shared: L1D}`).
  if (!top.has("caches")) top.fail(root, "caches", "missing (a config needs at least one cache level)");
  YAML::Node caches = top.get("caches");
  if (!caches.IsSequence()) top.fail(caches, "caches", "expected a list of cache levels, L1 first");
  if (caches.size() == 0) top.fail(caches, "caches", "empty (a config needs at least one cache level)");
  if (caches.size() > kMaxCacheLevels)
    top.fail(caches, "caches", std::to_string(caches.size()) + " levels, more than the " +
                                   std::to_string(kMaxCacheLevels) + " a config may have");
  for (size_t i = 0; i < caches.size(); ++i) {
    Section s(caches[i], file, "caches[" + std::to_string(i) + "]");
    CacheConfig cc = parse_cache(s, c.clock_hz, i);
    if (c.cache(cc.name) || c.memory(cc.name)) s.fail(caches[i], s.key_path("name"), "name '" + cc.name + "' used twice");
    // An inclusive level evicts whole lines of the levels above: a larger
    // line above would lose the dirty bytes outside this one (docs/CACHES.md).
    for (const CacheConfig& up : c.caches)
      if (cc.inclusive && up.line > cc.line)
        s.fail(s.get("inclusion"), s.key_path("inclusion"),
               "an inclusive level needs lines at least as large as those above (" + up.name + " has " +
                   std::to_string(up.line) + " B, " + cc.name + " " + std::to_string(cc.line) + " B)");
    // Private levels are the top of the hierarchy: a core reaches its own
    // levels, then the shared ones (docs/CACHES.md, "Several cores").
    if (cc.sharing == CacheSharing::Private && !c.caches.empty() && c.caches.back().sharing == CacheSharing::Shared &&
        s.has("sharing"))
      s.fail(s.get("sharing"), s.key_path("sharing"),
             "a private level below the shared level " + c.caches.back().name +
                 " (private levels come first: L1 .. Lk private, the rest shared)");
    c.caches.push_back(cc);
  }
  if (top.has("coherence")) {
    Section s(top.get("coherence"), file, "coherence");
    c.coherence.pos = s.pos();
    s.read_params(c.coherence, ParamContext{c.clock_hz});  // shared_keys.h
    s.reject_unknown();
    if (c.coherence.message_bytes == 0)
      s.fail(s.get("message_bytes"), "coherence.message_bytes", "must be positive");
  }
  if (top.has("dram")) {
    Section s(top.get("dram"), file, "dram");
    parse_dram(s, c.dram, c.clock_hz);
    if (s.has("name") && (c.cache(c.dram.name) || c.memory(c.dram.name)))
      s.fail(s.get("name"), "dram.name", "name '" + c.dram.name + "' used twice");
  }
  // The DRAM's default name is taken like any other module's.
  if (const CacheConfig* cc = c.cache(c.dram.name))
    throw InputError(cc->pos, "caches[" + std::to_string(cc - c.caches.data()) + "].name",
                     "name '" + c.dram.name + "' is the DRAM's (the default name of `dram`)");
  if (const MemoryConfig* m = c.memory(c.dram.name))
    throw InputError(m->pos, "memories." + m->name + ".name",
                     "name '" + c.dram.name + "' is the DRAM's (the default name of `dram`)");
  top.read("alignment", c.alignment, units::parse_bytes);
  if (!is_pow2(c.alignment)) top.fail(top.get("alignment"), "alignment", "must be a power of two");
  if (top.has("ops")) {
    YAML::Node ops = top.get("ops");
    Section s(ops, file, "ops");
    for (auto it = ops.begin(); it != ops.end(); ++it) {
      std::string k = it->first.Scalar();
      s.read(k, c.op_costs[k], [](const std::string& v) {
        const double cost = units::parse_count(v);
        // An operation's flops are counted in 64 bits: a cost this size would overflow them.
        if (cost > 1e9) throw std::invalid_argument("at most 1e9 flops per element, got '" + v + "'");
        return cost;
      });
    }
  }
  // Spaces: every memory serves the space of its name; global goes to L1.
  for (auto& m : c.memories) c.spaces[m.name] = m.name;
  c.spaces["global"] = c.caches.empty() ? c.dram.name : c.caches.front().name;
  if (top.has("spaces")) {
    YAML::Node sp = top.get("spaces");
    Section s(sp, file, "spaces");
    for (auto it = sp.begin(); it != sp.end(); ++it) {
      std::string k = it->first.Scalar();
      std::string target;
      s.read_string(k, target);
      if (!c.memory(target) && !c.cache(target) && target != c.dram.name)
        s.fail(it->second, "spaces." + k, "'" + target + "' is not a memory, cache or the DRAM of this config");
      c.spaces[k] = target;
    }
  }
  for (auto& m : c.memories) {
    if (m.role != BufferRole::None && c.memory(m.role) != &m)
      throw InputError(m.pos, "memories." + m.name + ".role",
                       "role '" + std::string(kBufferRoles.name(m.role)) + "' is already " + c.memory(m.role)->name + "'s");
    if (m.role != BufferRole::None && m.kind != MemoryKind::Scratchpad)
      throw InputError(m.pos, "memories." + m.name + ".role", "a buffer with a role is a scratchpad");
    if (!m.backing.empty() && !c.cache(m.backing) && m.backing != c.dram.name)
      throw InputError(m.pos, "memories." + m.name + ".backing", "'" + m.backing + "' is not a cache or the DRAM");
  }
  top.reject_unknown();
  check_private_levels(c);
  c.core.npu.space_roles = c.space_roles();
  return c;
}

HwConfig load_config_file(const std::string& path) {
  return parse_config(read_input_file(path, "config"), path);
}

HwConfig default_config() { return parse_config(default_config_text(), "<default>"); }

}  // namespace ptosim
