// The three renderers and the roofline figures on hand-built stats trees
// (docs/REPORTS.md): JSON keys and values, CSV columns, text width.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

#include "sim/report/render.h"
#include "sim/report/roofline.h"
#include "sim/report/run_report.h"

namespace ptosim {
namespace {

// A run shaped like System::run's: core, roofline, levels (an L1 with a tag
// table, a two-channel DRAM with its channel table). Counts are large so that
// the text report's width is tested on long numbers.
StatsNode sample_run(uint64_t flops = 4000000000ull, uint64_t dram_bytes = 1000000000ull) {
  StatsNode root{"pto-sim", NodeKind::Run, {}, {}};
  root.set("config", "t").set("source", "/a/very/long/path/to/some/deeply/nested/directory/of/traces/matmul.din");
  root.set("clock_hz", 2e9).set("cycles", 2e9).set("seconds", 1.0);
  StatsNode& core = root.child("core", NodeKind::Core);
  core.set("accesses", uint64_t(123456789012)).set("reads", uint64_t(100000000000)).set("writes", uint64_t(23456789012));
  core.set("flops", flops).set("window_stalls", uint64_t(9876543210));
  RooflineInputs in;
  in.flops = flops;
  in.seconds = 1.0;
  in.dram_bytes = dram_bytes;
  in.peak_flops_per_s = 64e9;
  in.peak_dram_bandwidth = 25.6e9;
  StatsNode roof = add_roofline(root, in);
  root.children.push_back(roof);
  StatsNode& levels = root.child("levels", NodeKind::List);
  StatsNode& l1 = levels.child("L1", NodeKind::Cache);
  l1.set("reads", uint64_t(100000000000)).set("writes", uint64_t(23456789012));
  l1.set("read_misses", uint64_t(1234567890)).set("write_misses", uint64_t(1234567890));
  l1.set("compulsory_misses", uint64_t(1234567890)).set("capacity_misses", uint64_t(1234567890));
  l1.set("conflict_misses", uint64_t(1234567890)).set("evictions", uint64_t(2469135780));
  l1.set("writebacks", uint64_t(2469135780)).set("back_invalidations", uint64_t(2469135780));
  l1.set("bandwidth_bytes_per_s", 123.4e9).set("peak_bandwidth_bytes_per_s", 256e9);
  l1.set("utilization", 0.48).set("avg_latency_cycles", 12345.6);
  l1.child("tensors", NodeKind::Table).child("a_tensor_with_a_long_name", NodeKind::Row).set("accesses", uint64_t(5));
  StatsNode& d = levels.child("DRAM", NodeKind::Dram);
  d.set("reads", uint64_t(10)).set("bytes_read", dram_bytes).set("bytes_written", uint64_t(0));
  d.set("bandwidth_bytes_per_s", 1e9).set("peak_bandwidth_bytes_per_s", 25.6e9);
  d.set("utilization", 0.04).set("avg_latency_cycles", 80.0);
  d.set("row_hits", uint64_t(7)).set("row_misses", uint64_t(2)).set("row_conflicts", uint64_t(1));
  StatsNode& ch = d.child("channels", NodeKind::Table);
  ch.child("ch0", NodeKind::Row).set("row_hits", uint64_t(4)).set("row_misses", uint64_t(1))
      .set("row_conflicts", uint64_t(1)).set("utilization", 0.05).set("bytes", uint64_t(384));
  ch.child("ch1", NodeKind::Row).set("row_hits", uint64_t(3)).set("row_misses", uint64_t(1))
      .set("row_conflicts", uint64_t(0)).set("utilization", 0.03).set("bytes", uint64_t(256));
  root.child("trace", NodeKind::Trace).set("records", uint64_t(123456789012)).set("reads", uint64_t(100000000000))
      .set("writes", uint64_t(23456789012)).set("fetches", uint64_t(0)).set("skipped_unknown", uint64_t(12345));
  return root;
}

TEST(Roofline, BoundIsTheLowerOfTheComputeAndMemoryRoofs) {
  // 4 GFLOP over 1 GB of DRAM in 1 s: AI 4, memory roof 4 x 25.6 = 102.4
  // GFLOP/s is above the 64 GFLOP/s peak, so compute-bound at 64.
  StatsNode compute{"r", NodeKind::Run, {}, {}};
  StatsNode c = add_roofline(compute, {4000000000ull, 1.0, 1000000000ull, 64e9, 25.6e9});
  EXPECT_DOUBLE_EQ(compute.num("arithmetic_intensity"), 4.0);
  EXPECT_DOUBLE_EQ(compute.num("gflops_per_s"), 4.0);
  EXPECT_DOUBLE_EQ(c.num("bound_flops_per_s"), 64e9);
  EXPECT_EQ(to_string(*c.find("bound")), "compute");
  EXPECT_DOUBLE_EQ(c.num("achieved_fraction"), 4e9 / 64e9);
  // AI 0.5: 12.8 GFLOP/s memory roof.
  StatsNode memory{"r", NodeKind::Run, {}, {}};
  StatsNode m = add_roofline(memory, {500000000ull, 0.5, 1000000000ull, 64e9, 25.6e9});
  EXPECT_DOUBLE_EQ(m.num("bound_flops_per_s"), 0.5 * 25.6e9);
  EXPECT_EQ(to_string(*m.find("bound")), "memory");
  EXPECT_DOUBLE_EQ(m.num("achieved_fraction"), 1e9 / 12.8e9);
  EXPECT_EQ(memory.u64("dram_bytes"), 1000000000u);
  EXPECT_DOUBLE_EQ(memory.num("peak_flops_per_s"), 64e9);
  EXPECT_DOUBLE_EQ(memory.num("peak_dram_bandwidth_bytes_per_s"), 25.6e9);
}

TEST(Roofline, NoDramTrafficIsComputeBoundAndNoFlopsAchievesZero) {
  StatsNode run{"r", NodeKind::Run, {}, {}};
  StatsNode r = add_roofline(run, {1000, 1e-6, 0, 64e9, 25.6e9});
  EXPECT_EQ(run.num("arithmetic_intensity"), 0.0);
  EXPECT_EQ(to_string(*r.find("bound")), "compute");
  EXPECT_DOUBLE_EQ(r.num("bound_flops_per_s"), 64e9);
  StatsNode idle{"r", NodeKind::Run, {}, {}};
  StatsNode z = add_roofline(idle, {0, 1e-6, 4096, 64e9, 25.6e9});
  EXPECT_EQ(z.num("achieved_fraction"), 0.0);
  EXPECT_EQ(idle.num("gflops_per_s"), 0.0);
}

TEST(ReportJson, RunFiguresAndRooflineAreTopLevel) {
  const auto j = nlohmann::json::parse(render_json(sample_run()));
  EXPECT_EQ(j["schema_version"], kReportSchemaVersion);
  EXPECT_EQ(j["flops"], 4000000000ull);
  EXPECT_DOUBLE_EQ(j["gflops_per_s"].get<double>(), 4.0);
  EXPECT_EQ(j["dram_bytes"], 1000000000ull);
  EXPECT_DOUBLE_EQ(j["arithmetic_intensity"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(j["peak_flops_per_s"].get<double>(), 64e9);
  EXPECT_DOUBLE_EQ(j["peak_dram_bandwidth_bytes_per_s"].get<double>(), 25.6e9);
  ASSERT_TRUE(j["roofline"].is_object());
  EXPECT_EQ(j["roofline"]["bound"], "compute");
  EXPECT_DOUBLE_EQ(j["roofline"]["bound_flops_per_s"].get<double>(), 64e9);
  EXPECT_DOUBLE_EQ(j["roofline"]["achieved_fraction"].get<double>(), 4e9 / 64e9);
  const auto& dram = j["levels"][1];
  EXPECT_EQ(dram["name"], "DRAM");
  EXPECT_EQ(dram["kind"], "dram");
  for (const char* k : {"bandwidth_bytes_per_s", "peak_bandwidth_bytes_per_s", "utilization", "avg_latency_cycles",
                        "row_hits", "row_misses", "row_conflicts"})
    EXPECT_TRUE(dram.contains(k)) << k;
  ASSERT_EQ(dram["channels"].size(), 2u);
  EXPECT_EQ(dram["channels"][1]["name"], "ch1");
  EXPECT_EQ(dram["channels"][1]["bytes"], 256);
  EXPECT_FALSE(dram["channels"][1].contains("kind"));  // rows carry only their name
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> v;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

std::vector<std::string> split(const std::string& row) {
  std::vector<std::string> v;
  std::istringstream in(row);
  for (std::string c; std::getline(in, c, ',');) v.push_back(c);
  return v;
}

TEST(ReportCsv, RunColumnsThenOneRowPerLevelAndNoTables) {
  const std::vector<std::string> rows = lines_of(render_csv(sample_run()));
  ASSERT_EQ(rows.size(), 3u);  // header, L1, DRAM: no row for channels, tensors or trace
  const std::vector<std::string> head = split(rows[0]);
  ASSERT_GE(head.size(), 11u);
  EXPECT_EQ(std::vector<std::string>(head.begin(), head.begin() + 11),
            (std::vector<std::string>{"config", "config_hash", "source", "source_hash", "cycles", "seconds", "flops",
                                      "dram_bytes", "arithmetic_intensity", "level", "kind"}));
  for (const std::string& h : head) {
    EXPECT_NE(h, "channels");
    EXPECT_NE(h, "tensors");
    EXPECT_NE(h, "bytes");  // a channel-row key
    EXPECT_NE(h, "accesses");  // a tensor-row key
  }
  const std::vector<std::string> dram = split(rows[2]);
  ASSERT_EQ(dram.size(), head.size());
  EXPECT_EQ(dram[6], "4000000000");
  EXPECT_EQ(dram[8], "4");
  EXPECT_EQ(dram[9], "DRAM");
  for (size_t i = 0; i < head.size(); ++i)
    if (head[i] == "row_conflicts") {
      EXPECT_EQ(dram[i], "1");
    }
}

TEST(ReportText, RooflineBlockChannelTableAndEightyColumns) {
  const std::string text = render_text(sample_run());
  for (const std::string& l : lines_of(text)) EXPECT_LE(l.size(), 80u) << "'" << l << "'";
  EXPECT_NE(text.find("roofline\n  flops 4000000000, 4 GFLOP/s\n"), std::string::npos) << text;
  EXPECT_NE(text.find("arithmetic intensity 4 flop/B over 1000000000 DRAM bytes"), std::string::npos) << text;
  EXPECT_NE(text.find("bound 64 GFLOP/s (compute-bound), 6.25% of it achieved"), std::string::npos) << text;
  EXPECT_NE(text.find("peak 64 GFLOP/s compute, 25.6 GB/s DRAM"), std::string::npos) << text;
  EXPECT_NE(text.find("row misses"), std::string::npos) << text;  // the channel table
  EXPECT_NE(text.find("  ch1 "), std::string::npos) << text;
  EXPECT_NE(text.find("misses by cause: compulsory 1234567890"), std::string::npos) << text;
  EXPECT_EQ(text.find("peak_flops_per_s"), std::string::npos) << text;  // run figures are not dumped raw
  EXPECT_EQ(text.find("roofline:"), std::string::npos) << text;
}

TEST(ReportText, OneChannelPrintsNoChannelTable) {
  StatsNode run = sample_run(1000, 0);
  StatsNode& dram = run.children[2].children[1];
  dram.children[0].children.pop_back();
  const std::string text = render_text(run);
  EXPECT_EQ(text.find("row misses"), std::string::npos) << text;
  EXPECT_NE(text.find("(compute-bound)"), std::string::npos) << text;
}

TEST(ReportText, ReplayWithoutComputeHasNoBoundAndZeroRowCountsAreQuiet) {
  StatsNode run = sample_run(0, 4096);
  StatsNode& dram = run.children[2].children[1];
  for (const char* k : {"row_hits", "row_misses", "row_conflicts"}) dram.set(k, uint64_t(0));
  const std::string text = render_text(run);
  EXPECT_NE(text.find("  bound: none without compute events\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("row buffer"), std::string::npos) << text;
  EXPECT_NE(text.find("cycles 2000000000 (1 s at"), std::string::npos) << text;
}

// Demand misses per 1000 core accesses and per kflop, and AMAT from the
// bottom up: L2 12 + 0.5 x 200 = 112 cycles, L1 4 + 0.1 x 112 = 15.2 cycles.
TEST(LevelMetrics, MissesPerKiloAccessAndKflopAndAmat) {
  StatsNode levels{"levels", NodeKind::List, {}, {}};
  levels.child("spm", NodeKind::Scratchpad).set("demand_misses", uint64_t(0));  // not a cache: no metrics
  levels.child("L1", NodeKind::Cache).set("hit_latency_cycles", uint64_t(4)).set("demand_misses", uint64_t(10))
      .set("demand_miss_ratio", 0.1);
  levels.child("L2", NodeKind::Cache).set("hit_latency_cycles", uint64_t(12)).set("demand_misses", uint64_t(5))
      .set("demand_miss_ratio", 0.5);
  levels.child("DRAM", NodeKind::Dram).set("avg_latency_cycles", 200.0);
  add_level_metrics(levels, 100, 2000);
  const StatsNode& l1 = levels.children[1];
  const StatsNode& l2 = levels.children[2];
  EXPECT_DOUBLE_EQ(l2.num("amat_cycles"), 112.0);
  EXPECT_DOUBLE_EQ(l1.num("amat_cycles"), 15.2);
  EXPECT_DOUBLE_EQ(l1.num("misses_per_1k_accesses"), 100.0);
  EXPECT_DOUBLE_EQ(l2.num("misses_per_1k_accesses"), 50.0);
  EXPECT_DOUBLE_EQ(l1.num("misses_per_kflop"), 5.0);
  EXPECT_DOUBLE_EQ(l2.num("misses_per_kflop"), 2.5);
  EXPECT_EQ(levels.children[0].find("amat_cycles"), nullptr);
  // A replayed trace has no flops: no per-kflop figure rather than a made-up one.
  StatsNode replay{"levels", NodeKind::List, {}, {}};
  replay.child("L1", NodeKind::Cache).set("hit_latency_cycles", uint64_t(4)).set("demand_misses", uint64_t(1))
      .set("demand_miss_ratio", 1.0);
  replay.child("DRAM", NodeKind::Dram).set("avg_latency_cycles", 100.0);
  add_level_metrics(replay, 1, 0);
  EXPECT_EQ(replay.children[0].find("misses_per_kflop"), nullptr);
  EXPECT_DOUBLE_EQ(replay.children[0].num("amat_cycles"), 104.0);
}

// Per byte consumed: L1 fetched 10 x 64 B for 1280 B the program read, so
// 0.5 B per byte and a byte hit rate of 0.5 however many requests those
// bytes took; L2 fetched 40 x 64 B, twice what was consumed: clamped at 0.
TEST(LevelMetrics, MissBytesPerAccessByteAndByteHitRate) {
  StatsNode levels{"levels", NodeKind::List, {}, {}};
  levels.child("L1", NodeKind::Cache).set("hit_latency_cycles", uint64_t(4)).set("demand_misses", uint64_t(10))
      .set("demand_miss_ratio", 0.1).set("demand_miss_bytes", uint64_t(640));
  levels.child("L2", NodeKind::Cache).set("hit_latency_cycles", uint64_t(12)).set("demand_misses", uint64_t(40))
      .set("demand_miss_ratio", 0.5).set("demand_miss_bytes", uint64_t(2560));
  levels.child("DRAM", NodeKind::Dram).set("avg_latency_cycles", 200.0);
  add_level_metrics(levels, 100, 2000, 1280);
  EXPECT_DOUBLE_EQ(levels.children[0].num("miss_bytes_per_access_byte"), 0.5);
  EXPECT_DOUBLE_EQ(levels.children[0].num("byte_hit_rate"), 0.5);
  EXPECT_DOUBLE_EQ(levels.children[1].num("miss_bytes_per_access_byte"), 2.0);
  EXPECT_DOUBLE_EQ(levels.children[1].num("byte_hit_rate"), 0.0);
  // Without the bytes consumed (a hand-made tree, no accesses): no figure.
  StatsNode none{"levels", NodeKind::List, {}, {}};
  none.child("L1", NodeKind::Cache).set("hit_latency_cycles", uint64_t(4)).set("demand_misses", uint64_t(1))
      .set("demand_miss_ratio", 1.0).set("demand_miss_bytes", uint64_t(64));
  add_level_metrics(none, 0, 0);
  EXPECT_EQ(none.children[0].find("byte_hit_rate"), nullptr);
}

TEST(ReportText, DemandMissesAsACountNextToTheirRatio) {
  StatsNode run = sample_run();
  StatsNode& l1 = run.children[2].children[0];
  l1.set("demand_requests", uint64_t(4000)).set("demand_misses", uint64_t(120)).set("demand_miss_ratio", 0.03);
  l1.set("misses_per_1k_accesses", 12.5).set("amat_cycles", 7.25);
  const std::string text = render_text(run);
  EXPECT_NE(text.find("  demand misses 120 of 4000 (3.00%), 12.5 per 1000 core accesses,"), std::string::npos) << text;
  EXPECT_NE(text.find("AMAT 7.25 cycles"), std::string::npos) << text;
  for (const std::string& l : lines_of(text)) EXPECT_LE(l.size(), 80u) << "'" << l << "'";
}

}  // namespace
}  // namespace ptosim
