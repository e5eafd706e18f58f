#include "models/cache/replacement_fit.h"

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>

#include "models/cache/cache_level.h"
#include "sim/common/registry.h"

namespace ptosim {
namespace {

struct Nowhere final : MemPort {  // below the one set: fills come from nowhere, at no time
  uint64_t access(const MemRequest&, uint64_t at) override { return at; }
};

std::vector<std::string> policies() {
  std::vector<std::string> v;
  for (const Choice& c : ChoiceLists::of(concepts::kReplacement)) v.push_back(c.name);
  return v;
}

LinePattern loop_of(uint32_t n) {
  LinePattern p(n);
  for (uint32_t i = 0; i < n; ++i) p[i] = i;
  return p;
}

}  // namespace

double pattern_miss_fraction(const std::string& policy, uint32_t ways, const LinePattern& pattern, uint32_t warm,
                             uint32_t counted) {
  if (pattern.empty() || ways == 0) throw std::invalid_argument("pattern_miss_fraction: an empty pattern or set");
  constexpr uint32_t kLine = 64;
  CacheConfig c;
  c.name = "set";
  c.ways = ways;
  c.line = kLine;
  c.size = uint64_t(ways) * kLine;  // one set: every line maps to it
  c.replacement = policy;
  std::unique_ptr<CacheLevel> set = make_cache_level(c);
  Nowhere below;
  set->connect_below(&below);
  auto loop = [&] {
    for (uint32_t l : pattern) set->request(MemRequest{uint64_t(l) * kLine, 4, false, 0, 0});
  };
  for (uint32_t i = 0; i < warm; ++i) loop();
  const uint64_t before = set->stats().misses();
  for (uint32_t i = 0; i < counted; ++i) loop();
  return double(set->stats().misses() - before) / (double(counted) * double(pattern.size()));
}

std::vector<LinePattern> replacement_probe_patterns(uint32_t ways) {
  const std::vector<std::string> names = policies();
  std::vector<LinePattern> out = {loop_of(ways > 2 ? ways - 2 : 1), loop_of(ways + 2)};
  // Candidates: a fixed-seed search, so that every run (and the test) times the same patterns.
  std::mt19937 rng(5);
  std::vector<std::pair<LinePattern, std::vector<double>>> cand;
  for (int t = 0; t < 400; ++t) {
    const uint32_t lines = ways + 1 + rng() % 4, length = ways + 2 + rng() % (ways + 8);
    LinePattern p;
    for (uint32_t i = 0; i < length; ++i) {
      uint32_t l = rng() % lines;
      if (!p.empty() && l == p.back()) l = (l + 1) % lines;
      p.push_back(l);
    }
    if (p.size() > 1 && p.front() == p.back()) p.pop_back();  // looped: the last does not precede itself
    std::vector<double> f;
    for (const std::string& n : names) f.push_back(pattern_miss_fraction(n, ways, p, 10, 20));
    cand.emplace_back(std::move(p), std::move(f));
  }
  for (size_t a = 0; a < names.size(); ++a)
    for (size_t b = a + 1; b < names.size(); ++b) {
      std::stable_sort(cand.begin(), cand.end(), [&](const auto& x, const auto& y) {
        return std::abs(x.second[a] - x.second[b]) > std::abs(y.second[a] - y.second[b]);
      });
      for (size_t k = 0, taken = 0; k < cand.size() && taken < 2; ++k) {
        if (std::find(out.begin(), out.end(), cand[k].first) != out.end()) {
          ++taken;  // already timed for another pair: it serves this one too
          continue;
        }
        out.push_back(cand[k].first);
        ++taken;
      }
    }
  return out;
}

std::vector<PolicyFit> fit_replacement(const std::vector<LinePattern>& patterns, const std::vector<double>& cycles,
                                       uint32_t ways) {
  if (patterns.size() != cycles.size() || patterns.size() < 3)
    throw std::invalid_argument("fit_replacement: one time per pattern, at least three");
  std::vector<PolicyFit> fits;
  for (const std::string& name : policies()) {
    std::vector<double> x;
    for (const LinePattern& p : patterns) x.push_back(pattern_miss_fraction(name, ways, p));
    const double n = double(x.size());
    double mx = 0, my = 0;
    for (size_t i = 0; i < x.size(); ++i) mx += x[i] / n, my += cycles[i] / n;
    double sxx = 0, sxy = 0;
    for (size_t i = 0; i < x.size(); ++i) sxx += (x[i] - mx) * (x[i] - mx), sxy += (x[i] - mx) * (cycles[i] - my);
    const double slope = sxx > 0 ? sxy / sxx : 0, hit = my - slope * mx;
    double res = 0;
    for (size_t i = 0; i < x.size(); ++i) res += std::pow(cycles[i] - hit - slope * x[i], 2);
    PolicyFit f{name, hit, hit + slope, std::sqrt(res / n)};
    if (slope <= 0) f.rms_cycles = INFINITY;  // misses no slower than hits: no explanation
    fits.push_back(f);
  }
  std::stable_sort(fits.begin(), fits.end(), [](const PolicyFit& a, const PolicyFit& b) { return a.rms_cycles < b.rms_cycles; });
  return fits;
}

std::string describe_fits(const std::vector<PolicyFit>& fits) {
  auto rms = [](double r) {
    if (!std::isfinite(r)) return std::string("no fit");
    char b[32];
    std::snprintf(b, sizeof b, "%.1f", r);
    return std::string(b);
  };
  std::string s;
  for (size_t i = 0; i < fits.size(); ++i) {
    if (i == 0) s = fits[0].policy + " " + rms(fits[0].rms_cycles) + " cycles RMS";
    else s += (i == 1 ? " (" : ", ") + fits[i].policy + " " + rms(fits[i].rms_cycles);
  }
  return s + (fits.size() > 1 ? ")" : "");
}

}  // namespace ptosim
