// --best: a sweep's results ranked by one column, the direction from the
// report key list (lower cycles, higher GFLOP/s) unless KEY:min / KEY:max.
#include <algorithm>
#include <iostream>

#include "sim/analysis/sweep_rows.h"
#include "sim/analysis/sweep_runner.h"
#include "sim/report/report_keys.h"

namespace ptosim::cli {

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
  {
    const auto& row = rows[ranked[i].second];
    std::cout << "  " << i + 1 << ". " << key << "=" << row[k] << "  " << row[size_t(point_col - head.begin())] << "\n";
    // Every parameter's value, defaults included: the point is reproducible from this line.
    std::string params;
    for (size_t c = 0; c < head.size(); ++c)
      if (head[c].rfind("param.", 0) == 0) params += " " + head[c].substr(6) + "=" + row[c];
    if (!params.empty()) std::cout << "     parameters:" << params << "\n";
  }
  return ranked.empty() ? 1 : 0;
}

}  // namespace ptosim::cli
