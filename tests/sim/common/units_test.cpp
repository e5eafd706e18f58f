#include <gtest/gtest.h>

#include "sim/common/units.h"

using namespace ptosim::units;

TEST(Units, Bytes) {
  EXPECT_EQ(parse_bytes("32 KiB"), 32768u);
  EXPECT_EQ(parse_bytes("64 B"), 64u);
  EXPECT_EQ(parse_bytes("35.75 MiB"), 37486592u);
  EXPECT_EQ(parse_bytes("1 KB"), 1000u);
  EXPECT_EQ(parse_bytes("2GiB"), 2147483648ull);
  EXPECT_THROW(parse_bytes("32 KiBs"), std::invalid_argument);
  EXPECT_THROW(parse_bytes("32"), std::invalid_argument);
  EXPECT_THROW(parse_bytes("KiB"), std::invalid_argument);
  EXPECT_THROW(parse_bytes("0.5 B"), std::invalid_argument);
  EXPECT_THROW(parse_bytes("-1 B"), std::invalid_argument);
}

TEST(Units, FrequencyTimeCycles) {
  EXPECT_DOUBLE_EQ(parse_frequency("3 GHz"), 3e9);
  EXPECT_DOUBLE_EQ(parse_frequency("2.5 GHz"), 2.5e9);
  EXPECT_DOUBLE_EQ(parse_time_ns("80 ns"), 80);
  EXPECT_DOUBLE_EQ(parse_time_ns("1 us"), 1000);
  EXPECT_EQ(parse_cycles("4 cycles"), 4u);
  EXPECT_EQ(parse_cycles("1 cycle"), 1u);
  EXPECT_EQ(parse_cycles("7"), 7u);
  EXPECT_THROW(parse_frequency("3 GHZ"), std::invalid_argument);
  EXPECT_THROW(parse_frequency("0 GHz"), std::invalid_argument);
  EXPECT_THROW(parse_time_ns("80"), std::invalid_argument);
  EXPECT_THROW(parse_cycles("4.5 cycles"), std::invalid_argument);
}

TEST(Units, Bandwidth) {
  Bandwidth a = parse_bandwidth("64 B/cycle");
  EXPECT_TRUE(a.per_cycle);
  EXPECT_DOUBLE_EQ(a.value, 64);
  Bandwidth b = parse_bandwidth("140 GB/s");
  EXPECT_FALSE(b.per_cycle);
  EXPECT_DOUBLE_EQ(b.value, 140e9);
  EXPECT_DOUBLE_EQ(b.bytes_per_cycle(2e9), 70);
  EXPECT_THROW(parse_bandwidth("140 GB"), std::invalid_argument);
}

TEST(Units, FormatRoundTrips) {
  for (uint64_t v : {64ull, 32768ull, 37486592ull, 1048576ull, 100ull, 1ull << 33})
    EXPECT_EQ(parse_bytes(format_bytes(v)), v) << format_bytes(v);
  EXPECT_EQ(format_bytes(37486592), "35.75 MiB");
  EXPECT_EQ(format_bytes(64), "64 B");
}
