// CPUID's deterministic cache parameters: the same four registers on Intel
// (leaf 4) and AMD (leaf 0x8000001D, with TOPOEXT): type and level in EAX,
// line, partitions and ways in EBX, sets in ECX; size = their product.
#include "sim/config/cpuid_caches.h"

#include <algorithm>
#include <string>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace ptosim {
namespace {

#if defined(__x86_64__) || defined(__i386__)
// AMD's associativity codes of leaf 0x80000006; 9 means "see leaf
// 0x8000001D", which a CPU without TOPOEXT does not have: 16, the L3's ways
// on every Zen.
uint32_t amd_ways(unsigned code, uint64_t size, uint32_t line) {
  static const uint32_t table[16] = {0, 1, 2, 3, 4, 6, 8, 0, 16, 16, 32, 48, 64, 96, 128, 0};
  if (code == 0xF) return uint32_t(size / line);  // fully associative
  return table[code & 0xF] ? table[code & 0xF] : 1;
}

HostCache amd_level(int level, uint64_t size, unsigned code, uint32_t line) {
  HostCache h;
  h.level = level;
  h.type = level == 1 ? "Data" : "Unified";
  h.size = size;
  h.line = line;
  h.ways = amd_ways(code, size, line);
  h.shared_cpus = "CPUID (legacy leaves)";
  return h;
}

// Leaves 0x80000005 (L1D) and 0x80000006 (L2, L3), for AMD CPUs (or VMs)
// without TOPOEXT.
std::vector<HostCache> amd_legacy() {
  std::vector<HostCache> out;
  unsigned a, b, c, d;
  if (!__get_cpuid(0x80000005, &a, &b, &c, &d)) return out;
  if ((c >> 24) && (c & 0xff))
    out.push_back(amd_level(1, uint64_t(c >> 24) << 10, 0, c & 0xff)), out.back().ways = (c >> 16) & 0xff;
  if (!__get_cpuid(0x80000006, &a, &b, &c, &d)) return out;
  if ((c >> 16) && (c & 0xff)) out.push_back(amd_level(2, uint64_t(c >> 16) << 10, (c >> 12) & 0xf, c & 0xff));
  if ((d >> 18) && (d & 0xff)) {
    out.push_back(amd_level(3, uint64_t(d >> 18) << 19, (d >> 12) & 0xf, d & 0xff));
    // A core reaches its own CCD's L3 only (16 or 32 MiB on Zen 2..5); more
    // than 256 MiB is a hypervisor's sum over the socket: one CCD's 32 MiB.
    if (out.back().size > (256ull << 20)) {
      out.back().shared_cpus += ": the " + std::to_string(out.back().size >> 20) +
                                " MiB CPUID claims is a socket's sum; one CCD's 32 MiB";
      out.back().size = 32ull << 20;
    }
  }
  for (HostCache& h : out)
    if (!h.ways || h.size % (uint64_t(h.ways) * h.line)) h.ways = uint32_t(h.size / h.line);
  return out;
}
#endif

}  // namespace

std::vector<HostCache> cpuid_caches() {
  std::vector<HostCache> out;
#if defined(__x86_64__) || defined(__i386__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  unsigned leaf = 4;
  if (__get_cpuid(0x80000000, &a, &b, &c, &d) && a >= 0x8000001D) {
    unsigned a1, b1, c1, d1;
    // AMD: leaf 0x8000001D when TOPOEXT (CPUID 0x80000001 ECX bit 22) is there.
    if (__get_cpuid(0x80000001, &a1, &b1, &c1, &d1) && (c1 & (1u << 22))) leaf = 0x8000001D;
  }
  if (leaf == 4 && __get_cpuid(0, &a, &b, &c, &d) && b == 0x68747541 /* "Auth"enticAMD */) return amd_legacy();
  if (leaf == 4 && (!__get_cpuid(0, &a, &b, &c, &d) || a < 4)) return out;
  for (unsigned i = 0; i < 16; ++i) {
    __cpuid_count(leaf, i, a, b, c, d);
    const unsigned type = a & 0x1f;
    if (type == 0) break;
    if (type == 2) continue;  // instruction cache
    HostCache h;
    h.level = int((a >> 5) & 7);
    h.type = type == 1 ? "Data" : "Unified";
    h.line = (b & 0xfff) + 1;
    const uint64_t partitions = ((b >> 12) & 0x3ff) + 1, sets = uint64_t(c) + 1;
    h.ways = ((b >> 22) & 0x3ff) + 1;
    h.size = uint64_t(h.ways) * partitions * h.line * sets;
    if (a & (1u << 9)) h.ways = uint32_t(h.size / h.line);  // fully associative
    h.sharing_threads = ((a >> 14) & 0xfff) + 1;
    h.shared_cpus = "CPUID: " + std::to_string(h.sharing_threads) + " threads";
    if (h.size && h.line) out.push_back(h);
  }
#endif
  std::sort(out.begin(), out.end(), [](const HostCache& x, const HostCache& y) { return x.level < y.level; });
  return out;
}

}  // namespace ptosim
