// The native trace keeps what a run needs to be replayed exactly: tags,
// computes, and (version 2) the cores and barriers of pto.parallel.
#include <gtest/gtest.h>

#include "tests/support/temp_dir.h"

#include <cstdio>
#include <string>
#include <vector>

#include "sim/common/error.h"
#include "sim/trace/native_format.h"

namespace ptosim {
namespace {

struct Log : EventSink {
  std::vector<Access> accesses;
  std::vector<Compute> computes;
  std::vector<std::string> order;  // "a", "c", "b1"/"b0"
  void access(const Access& a) override { accesses.push_back(a); order.push_back("a"); }
  void compute(const Compute& c) override { computes.push_back(c); order.push_back("c"); }
  void barrier(bool parallel) override { order.push_back(parallel ? "b1" : "b0"); }
};

using ptosim::test::temp_path;

void write_bytes(const std::string& path, const std::string& bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
}

Log read_file(const std::string& path, const TraceRules& rules = {}) {
  Log log;
  ByteSource in(path);
  TraceCounts counts;
  read_native(in, log, counts, rules);
  return log;
}

std::string error_of(const std::string& path, const TraceRules& rules = {}) {
  try {
    read_file(path, rules);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(NativeFormat, CoresAndBarriersRoundTrip) {
  const std::string path = temp_path("cores.ptt");
  {
    FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    NativeWriter w(f);
    Access a{0x1000, 4, AccessKind::Read, kGlobalSpace, 0, 0};
    w.access(a);
    w.barrier(true);
    a.core = 1;
    a.addr = 0x2000;
    w.access(a);
    Compute c;
    c.flops = 64;
    c.core = 2;
    w.compute(c);
    a.core = 1;
    a.addr = 0x2040;
    w.access(a);
    w.barrier(false);
    a.core = 0;
    a.addr = 0x3000;
    w.access(a);
    std::fclose(f);
  }
  const Log log = read_file(path);
  EXPECT_EQ(log.order, (std::vector<std::string>{"a", "b1", "a", "c", "a", "b0", "a"}));
  ASSERT_EQ(log.accesses.size(), 4u);
  EXPECT_EQ(log.accesses[0].core, 0u);
  EXPECT_EQ(log.accesses[1].core, 1u);
  EXPECT_EQ(log.accesses[1].addr, 0x2000u);
  EXPECT_EQ(log.accesses[2].core, 1u);
  EXPECT_EQ(log.accesses[3].core, 0u);
  EXPECT_EQ(log.accesses[3].addr, 0x3000u);
  ASSERT_EQ(log.computes.size(), 1u);
  EXPECT_EQ(log.computes[0].core, 2u);
  EXPECT_EQ(log.computes[0].flops, 64u);
}

std::string header(uint32_t version) {
  std::string h(kNativeMagic, 8);
  for (int i = 0; i < 4; ++i) h += char((version >> (8 * i)) & 0xff);
  return h;
}

TEST(NativeFormat, VersionOneIsReadWithoutCoreRecords) {
  const std::string path = temp_path("v1.ptt");
  // A read of 4 bytes at 0x10 (flags 0: read, size follows; zigzag delta 0x20).
  write_bytes(path, header(1) + std::string("\x00\x20\x04", 3));
  const Log log = read_file(path);
  ASSERT_EQ(log.accesses.size(), 1u);
  EXPECT_EQ(log.accesses[0].addr, 0x10u);
  // A core record (meta subtype 4) does not exist in version 1.
  write_bytes(path, header(1) + std::string("\x13\x01", 2));
  EXPECT_EQ(error_of(path), path + ": byte 13: unknown meta record 4");
}

TEST(NativeFormat, BadVersionsAndCoreRecords) {
  const std::string path = temp_path("bad.ptt");
  write_bytes(path, header(4));
  EXPECT_EQ(error_of(path), path + ": byte 12: unsupported native trace version 4");
  write_bytes(path, header(2) + std::string("\x13\x80\x02", 3));  // core 256
  EXPECT_EQ(error_of(path), path + ": byte 15: core 256 out of range");
  write_bytes(path, header(2) + std::string("\x17\x02", 2));  // barrier 2
  EXPECT_EQ(error_of(path), path + ": byte 14: bad barrier record");
}

// A trace that does not fit the config that replays it fails at its record.
TEST(NativeFormat, AccessesTheConfigCannotTake) {
  TraceRules rules;
  rules.cores = 2;
  rules.spaces = {"global", "constant"};
  rules.writable = {true, false};
  const std::string path = temp_path("rules.ptt");
  // core 2, then a read of 4 bytes at 0.
  write_bytes(path, header(2) + std::string("\x13\x02\x00\x00\x04", 5));
  EXPECT_EQ(error_of(path, rules), path + ": byte 17: access by core 2 but the config has 2 core(s)");
  // A tagged read (flags 8) in space 2, tensor 0, region 0.
  write_bytes(path, header(2) + std::string("\x08\x02\x00\x00\x00\x04", 6));
  EXPECT_EQ(error_of(path, rules), path + ": byte 18: access to space id 2, which the config does not map");
  // A tagged write (flags 9) in space 1, then the same read.
  write_bytes(path, header(2) + std::string("\x08\x01\x00\x00\x00\x04", 6));
  EXPECT_EQ(read_file(path, rules).accesses.size(), 1u);
  write_bytes(path, header(2) + std::string("\x09\x01\x00\x00\x00\x04", 6));
  EXPECT_EQ(error_of(path, rules), path + ": byte 18: write to the read-only space 'constant'");
  EXPECT_EQ(error_of(path), "");  // converting needs no config: anything goes
}

// A cache splits an access per line: a size near 2^64 would never end.
TEST(NativeFormat, AccessesTooLargeOrWrapping) {
  const std::string path = temp_path("big.ptt");
  // A read at 0 of 2^30 + 1 bytes (varint 81 80 80 80 04), then of 2^30.
  write_bytes(path, header(2) + std::string("\x00\x00\x81\x80\x80\x80\x04", 7));
  EXPECT_EQ(error_of(path), path + ": byte 19: access size larger than one access may be (1 GiB)");
  write_bytes(path, header(2) + std::string("\x00\x00\x80\x80\x80\x80\x04", 7));
  EXPECT_EQ(read_file(path).accesses.at(0).bytes, 1ull << 30);
  // A read of 2 bytes at 2^64 - 1 (zigzag delta -1 from 0).
  write_bytes(path, header(2) + std::string("\x00\x01\x02", 3));
  EXPECT_EQ(error_of(path), path + ": byte 15: the access runs past the end of the 64-bit address space");
}

}  // namespace
}  // namespace ptosim
