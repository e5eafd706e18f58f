// The schedule and the estimator of run --sample (sampling.h); the t
// quantile is Boost.Math's, the one numerical dependency (header-only).
#include "sim/report/sampling.h"

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <algorithm>
#include <cmath>

#include "sim/common/error.h"

namespace ptosim {

namespace {
uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
[[noreturn]] void bad(const char* flag, const std::string& message) { throw InputError({flag, 0, 0}, "", message); }

// Evaluated in double, not promoted to long double (Boost's default): the
// long-double path's static initialisers abort under valgrind, whose long
// double has double's range, and that made every LTO build unprofilable.
using InDouble = boost::math::policies::policy<boost::math::policies::promote_double<false>>;
}  // namespace

SampleParams make_sample_params(uint64_t unit, uint64_t every, uint64_t warmup, uint64_t seed,
                                const std::string& warming) {
  SampleParams p;
  if (unit == 0) bad("--sample-unit", "must be at least 1 access");
  if (every < 2) bad("--sample-every", "must be at least 2 (every unit measured is no sample: run without --sample)");
  if (unit > (uint64_t(1) << 40) || every > (uint64_t(1) << 20))
    bad(unit > (uint64_t(1) << 40) ? "--sample-unit" : "--sample-every", "is beyond what a run can hold");
  p.unit = unit;
  p.period = unit * every;
  if (warmup > p.period - unit)
    bad("--sample-warmup", std::to_string(warmup) + " accesses do not fit between units: at most (--sample-every - 1) x "
                           "--sample-unit = " + std::to_string(p.period - unit));
  p.warmup = warmup;
  // The choices in SampleWarming's order (not registered names: a closed set of two).
  static const char* const kWarmings[] = {"functional", "none"};
  size_t w = 0;
  while (w < 2 && warming != kWarmings[w]) ++w;
  if (w == 2) bad("--sample-warming", "'" + warming + "' is not one of functional | none");
  p.warming = SampleWarming(w);
  p.seed = seed;
  return p;
}

uint64_t SampleSchedule::unit_offset(const SampleParams& p, uint64_t j) {
  return splitmix64(p.seed * 0x9e3779b97f4a7c15ull + j) % (p.period - p.unit + 1);
}

SampleSchedule::SampleSchedule(const SampleParams& p) : p_(p), unit_start_(unit_offset(p, 0)) {}

SampleSchedule::Phase SampleSchedule::phase() const {
  if (pos_ >= unit_start_) return Phase::Measure;
  return pos_ + p_.warmup >= unit_start_ ? Phase::Warm : Phase::Skip;
}

uint64_t SampleSchedule::left_in_phase() const {
  switch (phase()) {
    case Phase::Measure: return unit_start_ + p_.unit - pos_;
    case Phase::Warm: return unit_start_ - pos_;
    case Phase::Skip: break;
  }
  return unit_start_ - p_.warmup - pos_;
}

void SampleSchedule::advance(uint64_t n) {
  pos_ += n;
  while (pos_ >= unit_start_ + p_.unit) {
    ++period_index_;
    unit_start_ = period_index_ * p_.period + unit_offset(p_, period_index_);
  }
}

double student_t_quantile(double dof, double p) {
  return boost::math::quantile(boost::math::students_t_distribution<double, InDouble>(dof), p);
}

double control_slope(const std::vector<std::vector<double>>& per_unit, size_t y, size_t x,
                     const std::vector<double>& weights) {
  double w_sum = 0, y_sum = 0, x_sum = 0;
  for (size_t i = 0; i < per_unit.size(); ++i) w_sum += weights[i], y_sum += per_unit[i][y], x_sum += per_unit[i][x];
  if (w_sum <= 0) return 0;
  double xy = 0, xx = 0;
  for (size_t i = 0; i < per_unit.size(); ++i) {
    const double ry = per_unit[i][y] - y_sum / w_sum * weights[i];
    const double rx = per_unit[i][x] - x_sum / w_sum * weights[i];
    xy += ry * rx, xx += rx * rx;
  }
  return xx > 0 ? std::max(0.0, xy / xx) : 0.0;
}

std::vector<SampleEstimate> estimate_totals(const std::vector<std::string>& metrics,
                                            const std::vector<std::vector<double>>& per_unit,
                                            const std::vector<double>& weights, double total, double confidence,
                                            const std::vector<double>& granules,
                                            const std::vector<SampleControl>& controls) {
  const size_t n = per_unit.size();
  if (n < 2 || weights.size() != n || (!granules.empty() && granules.size() != metrics.size()) ||
      (!controls.empty() && controls.size() != metrics.size()))
    throw std::logic_error("estimate_totals needs two units, their weights, a granule and a control per metric");
  double w_sum = 0;
  for (double w : weights) w_sum += w;
  const double units = total / (w_sum / double(n));  // N, the population of units
  const double t = student_t_quantile(double(n - 1), 0.5 + confidence / 2);
  const double fpc = std::sqrt(std::max(0.0, 1.0 - double(n) / units));
  std::vector<SampleEstimate> out;
  std::vector<double> y(n);
  for (size_t m = 0; m < metrics.size(); ++m) {
    // What is sampled: the metric, less b x its control where it has one.
    const SampleControl c = controls.empty() ? SampleControl{} : controls[m];
    double b = 0;
    if (c.column >= 0) b = std::isnan(c.slope) ? control_slope(per_unit, m, size_t(c.column), weights) : c.slope;
    double y_sum = 0;
    size_t carrying = 0;
    for (size_t i = 0; i < n; ++i) {
      y[i] = per_unit[i][m] - (b != 0 ? b * per_unit[i][size_t(c.column)] : 0.0);
      y_sum += y[i], carrying += y[i] != 0;
    }
    const double ratio = y_sum / w_sum;
    double ss = 0;
    for (size_t i = 0; i < n; ++i) {
      const double d = y[i] - ratio * weights[i];
      ss += d * d;
    }
    SampleEstimate e;
    e.metric = metrics[m];
    e.estimate = ratio * total;
    e.half_width = t * std::sqrt(ss / double(n - 1)) / std::sqrt(double(n)) * units * fpc;
    // A metric that only some units carry: how many units of the stream
    // carry it is known only as well as a binomial proportion from `carrying`
    // of n, whose exact (Clopper-Pearson) upper bound caps the estimate from
    // above. The t interval leans on a normal mean, which a handful of
    // non-zero units does not give (docs/SAMPLING.md).
    const double p_high = carrying_upper_bound(carrying, n, confidence);
    double occurrence = 0;
    if (carrying > 0) occurrence = std::fabs(e.estimate) * (p_high * double(n) / double(carrying) - 1);
    else if (!granules.empty()) occurrence = p_high * units * granules[m];
    e.half_width = std::max(e.half_width, occurrence * fpc);
    e.estimate += b * c.total;  // the part counted exactly
    e.low = e.estimate - e.half_width;
    e.high = e.estimate + e.half_width;
    out.push_back(e);
  }
  return out;
}

double carrying_upper_bound(size_t carrying, size_t n, double confidence) {
  if (carrying >= n) return 1.0;
  return boost::math::binomial_distribution<double, InDouble>::find_upper_bound_on_p(double(n), double(carrying),
                                                                         (1 - confidence) / 2);
}

}  // namespace ptosim
