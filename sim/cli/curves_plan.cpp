// Flags and exactness rules of `pto-sim curves` (see curves_plan.h).
#include "sim/cli/curves_plan.h"

#include <algorithm>

#include "sim/common/error.h"
#include "sim/common/registry.h"
#include "sim/common/units.h"

namespace ptosim::cli {
namespace {

constexpr size_t kMaxValues = 4096;

[[noreturn]] void bad(const std::string& flag, const std::string& value, const std::string& why) {
  throw InputError({flag, 0, 0}, value, why);
}

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  size_t at = 0;
  for (;;) {
    const size_t c = s.find(',', at);
    out.push_back(s.substr(at, c == std::string::npos ? std::string::npos : c - at));
    if (c == std::string::npos) return out;
    at = c + 1;
  }
}

uint64_t bytes_of(const std::string& flag, const std::string& text) {
  try {
    const uint64_t b = units::parse_bytes(text);
    if (b == 0) bad(flag, text, "a size must be positive");
    return b;
  } catch (const std::invalid_argument& e) {
    bad(flag, text, e.what());
  }
}

// LO..HI[:xF | :+STEP] of byte sizes.
void expand_size_range(const std::string& item, std::vector<uint64_t>& out) {
  const size_t dots = item.find("..");
  std::string hi = item.substr(dots + 2), step = "x2";
  const size_t colon = hi.find(':');
  if (colon != std::string::npos) step = hi.substr(colon + 1), hi = hi.substr(0, colon);
  const uint64_t lo_b = bytes_of("--sizes", item.substr(0, dots)), hi_b = bytes_of("--sizes", hi);
  if (hi_b < lo_b) bad("--sizes", item, "the end is below the start");
  const bool mul = !step.empty() && step[0] == 'x';
  if (step.empty() || (step[0] != 'x' && step[0] != '+')) bad("--sizes", item, "a step is :xFACTOR or :+SIZE");
  const uint64_t s = mul ? std::strtoull(step.c_str() + 1, nullptr, 10) : bytes_of("--sizes", step.substr(1));
  if (mul && (s < 2 || step.find_first_not_of("0123456789", 1) != std::string::npos))
    bad("--sizes", item, "a factor is an integer of 2 or more");
  for (uint64_t v = lo_b; v <= hi_b; v = mul ? v * s : v + s) {
    out.push_back(v);
    if (out.size() > kMaxValues) bad("--sizes", item, "more than 4096 sizes");
    if ((mul && v > hi_b / s) || (!mul && v > hi_b - s)) break;
  }
}

}  // namespace

std::vector<uint64_t> parse_curve_sizes(const std::string& spec) {
  std::vector<uint64_t> out;
  for (const std::string& item : split_commas(spec)) {
    if (item.find("..") != std::string::npos) expand_size_range(item, out);
    else out.push_back(bytes_of("--sizes", item));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<uint32_t> parse_curve_ways(const std::string& spec, bool* full) {
  std::vector<uint32_t> out;
  *full = false;
  for (const std::string& item : split_commas(spec)) {
    if (item == "full") {
      *full = true;
      continue;
    }
    const size_t dots = item.find("..");
    std::string lo = item.substr(0, dots), hi = dots == std::string::npos ? lo : item.substr(dots + 2), step = "+1";
    const size_t colon = hi.find(':');
    if (colon != std::string::npos) step = hi.substr(colon + 1), hi = hi.substr(0, colon);
    auto num = [&](const std::string& t) {
      if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos || t.size() > 6 ||
          std::stoul(t) == 0 || std::stoul(t) > 65536)
        bad("--ways", item, "expected associativities 1..65536, ranges like 1..16:x2, or `full`");
      return uint32_t(std::stoul(t));
    };
    const uint32_t a = num(lo), b = num(hi), s = (step.size() > 1 && (step[0] == 'x' || step[0] == '+')) ? num(step.substr(1)) : 0;
    if (b < a || !s || (step[0] == 'x' && s < 2)) bad("--ways", item, "expected LO..HI, LO..HI:+STEP or LO..HI:xFACTOR");
    for (uint64_t v = a; v <= b; v = step[0] == 'x' ? v * s : v + s) out.push_back(uint32_t(v));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  if (out.empty() && !*full) bad("--ways", spec, "no associativity given");
  return out;
}

namespace {

std::vector<std::string> cache_chain(const HwConfig& config) {
  std::vector<std::string> chain;
  for (const CacheConfig& c : config.caches)
    if (!config.private_cache(c.name)) chain.push_back(c.name);
  return chain;
}

size_t pick_level(const std::vector<std::string>& chain, const std::string& name) {
  if (chain.empty()) bad("--level", name, "the config has no cache level on the global path");
  if (name.empty()) return 0;
  for (size_t i = 0; i < chain.size(); ++i)
    if (chain[i] == name) return i;
  std::string names;
  for (const std::string& c : chain) names += (names.empty() ? "" : " | ") + c;
  bad("--level", name, "'" + name + "' is not one of " + names);
}

// What would make `run`'s counts at this level differ from one LRU pass:
// refused with every key to change at once, and the --set line that
// changes them (a config of this machine, `config host`, has a prefetcher
// and a store queue: one refusal at a time sent the user round twice).
void refuse_inexact(const HwConfig& config, const CacheConfig& c) {
  const std::string at = "caches." + c.name + ".";
  std::vector<std::pair<std::string, std::string>> why;  // the key = the value one pass needs, and why
  std::string stack;  // the policies the registry says one pass is exact for
  for (const Choice& p : ChoiceLists::of(concepts::kReplacement))
    if (ChoiceLists::has_trait(concepts::kReplacement, p.name, traits::kStackDistance))
      stack += (stack.empty() ? "" : " | ") + p.name;
  if (!ChoiceLists::has_trait(concepts::kReplacement, c.replacement, traits::kStackDistance))
    why.push_back({at + "replacement=" + stack.substr(0, stack.find(' ')),
                   "replacement is '" + c.replacement + "', not " + stack});
  if (!ChoiceLists::has_trait(concepts::kPrefetcher, c.prefetch.name, traits::kNoProposals))
    why.push_back({at + "prefetcher=none", "the level has a prefetcher ('" + c.prefetch.name + "')"});
  if (!c.write_allocate || c.allocate_nofetch)
    why.push_back({at + "write_allocate=true", "a write miss may not allocate, so writes are not stack references"});
  if (c.has_subblocks()) why.push_back({at + "subblock=0", "the level has sub-blocks"});
  if (config.core.count > 1)
    why.push_back({"core.cores=1", "several cores reach the shared levels in an order that depends on timing"});
  // A core with a store queue answers a load of a queued store's bytes from
  // the queue, so that load never reaches the caches where one pass sees it
  // (matmul_naive 16³ on a `config host` output with store_request
  // dispatch: 16,384 accesses in the pass, 12,544 in `run`; a read miss of
  // the pass is a write miss of the store after it there, and a load with
  // no store after it would be a miss `run` never has). Its stores other
  // than at dispatch also reach the caches in an order timing decides.
  if (ChoiceLists::has_trait(concepts::kCoreModel, config.core.model, traits::kStoreQueue))
    why.push_back({"core.model=simple",
                   "a '" + config.core.model + "' core answers loads from its store queue, which then never reach the caches" +
                       (config.core.store_request != StoreRequest::Dispatch
                            ? ", and its stores ('" + std::string(kStoreRequests.name(config.core.store_request)) +
                                  "') reach them in an order that depends on timing"
                            : std::string())});
  if (why.empty()) return;
  std::string msg = "one pass is exact only for LRU, write-allocate, no prefetcher, no sub-blocks, one core and a "
                    "core without a store queue; this config has:";
  std::string sets;
  for (const auto& [set, reason] : why) {
    msg += "\n  " + reason + " (" + set.substr(0, set.find('=')) + ")";
    sets += " --set " + set;
  }
  msg += "\nthe counts of that hierarchy, one pass for all sizes:" + sets;
  throw InputError({"--level", 0, 0}, c.name, msg);
}

std::string default_sizes(const CacheConfig& c) {
  const uint64_t lo = std::max<uint64_t>(c.line * 16, c.size / 8);
  return std::to_string(lo) + "B.." + std::to_string(std::max(lo, c.size * 8)) + "B:x2";
}

std::string kib(uint64_t b) { return units::format_bytes(b); }

void add_points(CurvesPlan& p, const std::vector<uint64_t>& sizes, const std::vector<uint32_t>& ways, bool full) {
  const uint64_t line = p.cache->line;
  for (uint64_t size : sizes) {
    if (size % line) {
      p.notes.push_back("skipped " + kib(size) + ": not a multiple of the " + kib(line) + " line");
      continue;
    }
    const uint64_t lines = size / line;
    if (lines >= (1ull << 31)) bad("--sizes", kib(size), "more than 2^31 lines");
    for (uint32_t w : ways) {
      if (w > lines || lines % w) {
        p.notes.push_back("skipped " + kib(size) + " x " + std::to_string(w) + " ways: not a whole number of sets");
        continue;
      }
      if (w == lines && full) continue;  // the `full` point is this one
      p.points.push_back({size, {lines / w, w}, false});
    }
    if (full) p.points.push_back({size, {1, uint32_t(lines)}, true});
  }
  if (p.points.empty()) bad("--sizes", "", "no size x associativity point fits the level's " + kib(line) + " lines");
}

}  // namespace

CurvesPlan plan_curves(const HwConfig& config, const std::string& level, const std::string& sizes,
                       const std::string& ways_spec) {
  bool full = false;
  const std::vector<uint32_t> ways = parse_curve_ways(ways_spec, &full);
  CurvesPlan p;
  p.chain = cache_chain(config);
  p.level = pick_level(p.chain, level);
  p.cache = config.cache(p.chain[p.level]);
  refuse_inexact(config, *p.cache);
  for (size_t j = std::max<size_t>(p.level, 1); j < p.chain.size(); ++j)
    if (config.cache(p.chain[j])->inclusive) {
      p.exact = false;
      p.notes.push_back("approximate: " + p.chain[j] +
                        " is inclusive; its back-invalidations would change what the levels above it hold, which "
                        "depends on the geometry measured. The counts are those of the level's request stream "
                        "with no back-invalidation");
    }
  add_points(p, parse_curve_sizes(sizes.empty() ? default_sizes(*p.cache) : sizes), ways, full);
  return p;
}

}  // namespace ptosim::cli
