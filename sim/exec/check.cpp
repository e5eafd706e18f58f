// pto.check and pto.output: no events.
#include <cmath>
#include <sstream>

#include "sim/common/content_hash.h"
#include "sim/exec/emit.h"

namespace ptosim::exec {

using namespace detail;

namespace {
std::string index_str(int64_t flat, const Shape& shape) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = shape[d] ? flat % shape[d] : 0;
    flat = shape[d] ? flat / shape[d] : 0;
  }
  return shape_str(idx);
}
std::string num(double v) {
  std::ostringstream o;
  o.precision(9);
  o << v;
  return o.str();
}
}  // namespace

CheckOutcome check(ExecContext& c, const Tensor& actual, const Tensor& expected, double rtol, double atol,
                   const SourcePos& pos) {
  actual.check_live();
  expected.check_live();
  CheckOutcome r;
  r.pos = pos;
  if (broadcast_shapes(expected.shape(), actual.shape()) != actual.shape())
    throw OpError("check: shape mismatch: actual " + shape_str(actual.shape()) + " vs expected " +
                  shape_str(expected.shape()));
  if (!c.values()) {  // --no-values: nothing to compare
    r.message = "not compared (--no-values)";
    c.result().checks.push_back(r);
    return r;
  }
  std::vector<double> a = actual.to_vector();
  std::vector<double> e;
  {
    Indexer ex(expected, actual.shape());
    const auto& v = expected.storage()->values;
    int64_t len = inner_len(actual.shape());
    for_each_row(actual.shape(), [&](const int64_t* outer, int64_t) {
      int64_t row = ex.row(outer);
      for (int64_t j = 0; j < len; ++j) e.push_back(v[size_t(row + ex.inner()[size_t(j)])]);
    });
  }
  int64_t first = -1, bad = 0, worst = 0;
  double max_err = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    double d = std::fabs(a[i] - e[i]);
    bool ok = d <= atol + rtol * std::fabs(e[i]);  // false for NaN
    if (std::isnan(d)) {
      if (!std::isnan(max_err)) { max_err = NAN; worst = int64_t(i); }
    } else if (!std::isnan(max_err) && d > max_err) {
      max_err = d;
      worst = int64_t(i);
    }
    if (!ok) {
      if (first < 0) first = int64_t(i);
      ++bad;
    }
  }
  if (first >= 0) {
    r.passed = false;
    r.message = "'" + actual.name() + "' vs '" + expected.name() + "': first mismatch at index " +
                index_str(first, actual.shape()) + ": actual " + num(a[size_t(first)]) + ", expected " +
                num(e[size_t(first)]) + "; max error " + num(max_err) + " at " + index_str(worst, actual.shape()) +
                "; " + std::to_string(bad) + " of " + std::to_string(a.size()) + " elements differ (rtol=" +
                num(rtol) + ", atol=" + num(atol) + ")";
  } else {
    r.message = "max error " + num(max_err);
  }
  c.result().checks.push_back(r);
  return r;
}

OutputChecksum output(ExecContext& c, const Tensor& x, const std::string& name) {
  x.check_live();
  OutputChecksum o;
  o.tensor = name.empty() ? x.name() : name;
  o.dtype = dtype_name(x.dtype());
  o.shape = x.shape();
  Fnv1a64 h;
  uint8_t buf[8];
  uint32_t es = x.elem_size();
  for (double v : x.to_vector()) {
    o.sum += v;
    o.abs_sum += std::fabs(v);
    encode(x.dtype(), v, buf);
    h.add(buf, es);
  }
  o.fnv1a = h.h;
  c.result().outputs.push_back(o);
  return o;
}

}  // namespace ptosim::exec
