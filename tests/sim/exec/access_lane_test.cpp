// ExecContext::lane_takes / access_lane (the multiply-add's reads in one
// batch): the records and event numbers of n access() calls, taken only
// when nothing but the record is to be done.
#include "tests/sim/exec/exec_test_util.h"

namespace ptosim::test {
namespace {

// A sink with a lane of `slots` records, as the event pipe lends one: the
// producer fills it while next + 1 < end, and the last slot comes through
// access(), which logs the lane's records and renews it.
struct LaneRecorder : EventSink {
  explicit LaneRecorder(size_t slots) : buf(slots) { lane_ = AccessLane{buf.data(), buf.data() + slots}; }
  std::vector<Access> buf, log;
  AccessLane lane_;
  AccessLane* lane() override { return &lane_; }
  void access(const Access& a) override {
    take();
    log.push_back(a);
  }
  void compute(const Compute&) override {}
  void take() {
    log.insert(log.end(), buf.data(), lane_.next);
    lane_ = AccessLane{buf.data(), buf.data() + buf.size()};
  }
};

using L = ExecContext::LaneAccess;

// The three reads of one multiply-add at step k.
void reads(L (&r)[3], uint64_t k) {
  r[0] = L{0x1000 + 4 * k, 4, AccessKind::Read, kGlobalSpace, 3, 0};
  r[1] = L{0x8000 + 1024 * k, 4, AccessKind::Read, kGlobalSpace, 4, uint32_t(k)};
  r[2] = L{0x2000, 8, AccessKind::Read, SpaceId(1), 5, 7};
}

bool same(const Access& a, const Access& b) {
  return a.addr == b.addr && a.bytes == b.bytes && a.kind == b.kind && a.space == b.space && a.tensor == b.tensor &&
         a.region == b.region && a.site == b.site && a.core == b.core && a.elem_bytes == b.elem_bytes &&
         a.dep == b.dep && a.stride == b.stride;
}

TEST(AccessLane, EqualsAccessCallsRecordForRecordAndNumberForNumber) {
  HwConfig cfg = small_config();
  LaneRecorder one_by_one(7), batched(7);  // 7 slots: batches meet the lane's end at every phase
  ExecContext a(cfg, &one_by_one), b(cfg, &batched);
  const ExecContext::Statement st{9, 12, 3};
  a.set_statement(&st);
  b.set_statement(&st);
  a.scope_begin("r");
  b.scope_begin("r");
  uint64_t taken = 0;
  for (uint64_t k = 0; k < 40; ++k) {
    L r[3];
    reads(r, k);
    uint32_t want[3];
    for (int i = 0; i < 3; ++i) want[i] = a.access(r[i].addr, r[i].bytes, r[i].kind, r[i].space, r[i].tensor, r[i].dep);
    if (b.lane_takes(3)) {
      const uint32_t first = b.access_lane<3>(r);
      EXPECT_EQ(first, want[0]);
      EXPECT_EQ(first + 2, want[2]);
      ++taken;
    } else {
      for (int i = 0; i < 3; ++i)
        EXPECT_EQ(b.access(r[i].addr, r[i].bytes, r[i].kind, r[i].space, r[i].tensor, r[i].dep), want[i]);
    }
  }
  EXPECT_EQ(a.events(), b.events());
  EXPECT_GT(taken, 10u);
  EXPECT_LT(taken, 40u);  // and some batches found too little room
  one_by_one.take();
  batched.take();
  ASSERT_EQ(one_by_one.log.size(), 120u);
  ASSERT_EQ(batched.log.size(), 120u);
  for (size_t i = 0; i < 120; ++i) {
    EXPECT_TRUE(same(one_by_one.log[i], batched.log[i])) << "access " << i;
    EXPECT_EQ(batched.log[i].site, 9u);
    EXPECT_NE(batched.log[i].region, 0u);
  }
}

TEST(AccessLane, RefusedWithoutRoomOrLaneAndAtTheEventLimit) {
  HwConfig cfg = small_config();
  LaneRecorder lane(4);
  ExecContext c(cfg, &lane);
  EXPECT_TRUE(c.lane_takes(3));   // next + 3 < end
  EXPECT_FALSE(c.lane_takes(4));  // the last slot is access()'s
  c.access(0x40, 4, AccessKind::Read, kGlobalSpace, 0);
  EXPECT_FALSE(c.lane_takes(3));
  EXPECT_TRUE(c.lane_takes(2));

  LaneRecorder roomy(64);
  ExecContext limited(cfg, &roomy, 5);
  EXPECT_TRUE(limited.lane_takes(5));
  EXPECT_FALSE(limited.lane_takes(6));  // the sixth event is over --max-events: access() throws it
  limited.access(0x40, 4, AccessKind::Read, kGlobalSpace, 0);
  EXPECT_TRUE(limited.lane_takes(4));
  EXPECT_FALSE(limited.lane_takes(5));

  Recorder plain;  // no lane: every access goes through the sink
  ExecContext unlaned(cfg, &plain);
  EXPECT_FALSE(unlaned.lane_takes(1));
  std::vector<uint64_t> captured;
  ExecContext capturing(cfg, &roomy);
  capturing.capture_addresses(&captured);
  EXPECT_FALSE(capturing.lane_takes(1));  // every address is captured, one by one
  capturing.capture_addresses(nullptr);
  EXPECT_TRUE(capturing.lane_takes(1));
}

// scalar_ops_quiet (a multiply-add's two scalar ops counted before its
// accesses): the same Compute events, in the same place among the accesses,
// as two scalar_op() calls, over batch ends, statement changes and a muted
// stretch; refused exactly when a scalar_op() would hand something over.
TEST(AccessLane, QuietScalarOpsEqualScalarOpCallsComputeForCompute) {
  HwConfig cfg = small_config();
  Recorder one_by_one, paired;
  ExecContext a(cfg, &one_by_one), b(cfg, &paired);
  const ExecContext::Statement s1{4, 10, 1}, s2{5, 11, 1};
  uint64_t quiet = 0, refused = 0;
  for (uint64_t k = 0; k < 700; ++k) {
    const ExecContext::Statement* st = k % 300 < 250 ? &s1 : &s2;  // the statement changes now and then
    a.set_statement(st);
    b.set_statement(st);
    if (k % 97 == 0) {  // an odd scalar op: batches end at every phase
      a.scalar_op(OpKind::Add);
      b.scalar_op(OpKind::Add);
    }
    const bool muted = k >= 600 && k < 620;
    ExecContext::ScalarMute ma(a, muted), mb(b, muted);
    a.scalar_op(OpKind::Multiply);
    a.scalar_op(OpKind::Add);
    a.access(0x100 + 4 * k, 4, AccessKind::Write, kGlobalSpace, 1);
    if (b.scalar_ops_quiet(OpKind::Multiply, OpKind::Add)) {
      ++quiet;
    } else {
      ++refused;
      EXPECT_FALSE(muted);
      b.scalar_op(OpKind::Multiply);
      b.scalar_op(OpKind::Add);
    }
    b.access(0x100 + 4 * k, 4, AccessKind::Write, kGlobalSpace, 1);
    ASSERT_EQ(one_by_one.comp.size(), paired.comp.size()) << "at " << k;  // nothing handed over early or late
    ASSERT_EQ(one_by_one.acc.size(), paired.acc.size());
  }
  a.flush_scalar();
  b.flush_scalar();
  EXPECT_GT(quiet, 600u);
  EXPECT_GT(refused, 4u);
  ASSERT_EQ(one_by_one.comp.size(), paired.comp.size());
  ASSERT_GT(one_by_one.comp.size(), 8u);
  for (size_t i = 0; i < one_by_one.comp.size(); ++i) {
    const Compute &x = one_by_one.comp[i], &y = paired.comp[i];
    EXPECT_EQ(x.flops, y.flops) << "compute " << i;
    EXPECT_EQ(x.op, y.op) << "compute " << i;
    EXPECT_EQ(x.site, y.site) << "compute " << i;
  }

  HwConfig df = small_config();
  df.core.model = "cpu";  // dataflow: every scalar op is an event of its own
  Recorder r;
  ExecContext c(df, &r);
  ASSERT_TRUE(c.dataflow());
  EXPECT_FALSE(c.scalar_ops_quiet(OpKind::Multiply, OpKind::Add));
}

}  // namespace
}  // namespace ptosim::test
