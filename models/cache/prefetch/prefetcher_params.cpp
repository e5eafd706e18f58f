// The keys every prefetcher shares (sim/config/params.h): which one, how far
// ahead, how many lines per trigger, how many streams, and the page bound.
// Which prefetchers read which is said in each declaration; a prefetcher's
// own default distance or degree is declared in its registration line
// (defaults_to) and applied as `prefetcher:` is read, before those keys.
#include <stdexcept>

#include "models/cache/prefetch/prefetcher.h"
#include "sim/config/params.h"

namespace ptosim {
namespace {

bool is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

Param<PrefetchConfig> page_param() {
  Param<PrefetchConfig> p = param::bytes("prefetch_page", &PrefetchConfig::page);
  p.range = "0 or a power of two";
  p.parse = [](PrefetchConfig& c, const std::string& s, const ParamContext&) {
    const uint64_t v = units::parse_bytes(s);
    if (v && !is_pow2(v)) throw std::invalid_argument("page size " + units::format_bytes(v) + " is not a power of two");
    c.page = v;
  };
  return p;
}

// `prefetcher:`, then the chosen one's own defaults for the keys below (the
// default, `none`, declares none: a level without the key keeps the keys'
// own defaults).
Param<PrefetchConfig> which_param() {
  Param<PrefetchConfig> p = param::registered("prefetcher", &PrefetchConfig::name, concepts::kPrefetcher);
  auto read_name = p.parse;
  p.parse = [read_name](PrefetchConfig& c, const std::string& s, const ParamContext& ctx) {
    read_name(c, s, ctx);
    for (const KeyDefault& d : ChoiceLists::defaults(concepts::kPrefetcher, c.name)) {
      if (d.key == "prefetch_distance") c.distance = uint32_t(d.value);
      else if (d.key == "prefetch_degree") c.degree = uint32_t(d.value);
      else throw std::logic_error("prefetcher '" + c.name + "' declares a default for '" + d.key + "', not its key");
    }
  };
  return p;
}

PTOSIM_PARAMS(PrefetchConfig, Prefetchers,
  which_param()
      .about("", "every level", "a registered prefetcher (models/cache/prefetch/; docs/CACHES.md, \"Prefetchers\")", "",
             0),
  param::count("prefetch_distance", &PrefetchConfig::distance, 1, 4096)
      .about(concepts::kPrefetcher, "every but none",
             "lines ahead (for `stride` strides ahead; for Dinero IV's policies at a level with `subblock`, "
                 "sub-blocks ahead, at most the sub-blocks per line for `load_forward` and `subblock`); Dinero "
                 "IV's `-lN-Tpfdist`. Default: the prefetcher's own (16 for `stream`, 4 for `stride`, else 1)",
             "8", 10),
  param::count("prefetch_degree", &PrefetchConfig::degree, 1, PrefetchConfig::kMaxDegree)
      .about(concepts::kPrefetcher, "next_line, stride, stream",
             "lines proposed per trigger. Default: the prefetcher's own (4 for `stream`, else 1)",
             "2", 20),
  param::count("prefetch_table", &PrefetchConfig::table, 1, 4096)
      .about(concepts::kPrefetcher, "stride, stream",
             "streams tracked",
             "32", 30),
  page_param()
      .about(concepts::kPrefetcher, "every but none",
             "a proposed line outside the page of the read that proposed it is dropped, as hardware "
                 "prefetchers on physical addresses do (0 = no bound; `config host` writes 4 KiB)",
             "4 KiB", 40)
      .shown_when([](const PrefetchConfig& p) { return p.page != 0; }));

}  // namespace
}  // namespace ptosim
