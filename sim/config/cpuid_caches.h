#pragma once
// The cache levels CPUID describes (Intel leaf 4, AMD leaf 0x8000001D),
// for `config host` on a machine whose sysfs has no cache directory (some
// VMs: cpu0/cache is missing while the CPU still reports its caches).
#include <vector>

#include "sim/config/host_config.h"

namespace ptosim {

// Data and unified levels, L1 first; empty off x86 or when CPUID has no
// deterministic cache leaf. `shared_cpus` says how many logical CPUs CPUID
// says share the level ("CPUID: N threads").
std::vector<HostCache> cpuid_caches();

}  // namespace ptosim
