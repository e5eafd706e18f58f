#pragma once
// A hardware config built in code, so that frontend tests do not depend on
// the YAML loader: the spaces of configs/default.yaml.
#include "sim/config/hw_config.h"

namespace ptosim::test {

inline HwConfig frontend_test_config() {
  HwConfig c;
  c.name = "frontend-test";
  c.source = "<test>";
  MemoryConfig reg;
  reg.name = "register";
  reg.kind = MemoryKind::Register;
  reg.size = 64 * 1024;
  MemoryConfig sh;
  sh.name = "shared";
  sh.kind = MemoryKind::Scratchpad;
  sh.size = 64 * 1024;
  MemoryConfig cst;
  cst.name = "constant";
  cst.kind = MemoryKind::Constant;
  cst.size = 64 * 1024;
  cst.read_only = true;
  c.memories = {reg, sh, cst};
  CacheConfig l1;
  l1.name = "L1";
  l1.size = 32 * 1024;
  l1.ways = 8;
  l1.line = 64;
  CacheConfig l2;
  l2.name = "L2";
  l2.size = 256 * 1024;
  l2.ways = 8;
  l2.line = 64;
  c.caches = {l1, l2};
  c.spaces = {{"global", "L1"}, {"register", "register"}, {"shared", "shared"}, {"constant", "constant"}};
  return c;
}

}  // namespace ptosim::test
