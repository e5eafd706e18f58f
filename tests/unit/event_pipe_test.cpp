// The producer thread hand-off: order, errors, and no hang when the consumer stops.
#include <gtest/gtest.h>

#include <stdexcept>

#include "models/core/completion_window.h"
#include "sim/trace/event_pipe.h"

using namespace ptosim;

namespace {

struct Recorder : EventSink {
  std::vector<std::string> log;
  uint64_t stop_after = ~0ull;
  void access(const Access& a) override {
    if (log.size() >= stop_after) throw std::runtime_error("consumer gave up");
    log.push_back("a" + std::to_string(a.addr) + ":" + std::to_string(a.bytes) + ":" + std::to_string(int(a.kind)) +
                  ":" + std::to_string(a.space) + ":" + std::to_string(a.tensor) + ":" + std::to_string(a.region) +
                  ":" + std::to_string(a.elem_bytes) + ":" + std::to_string(a.stride));
  }
  void compute(const Compute& c) override {
    log.push_back("c" + std::to_string(c.flops) + ":" + std::to_string(c.op) + ":" + std::to_string(c.region));
  }
  void name_tensor(TagId id, const std::string& n) override { log.push_back("t" + std::to_string(id) + n); }
  void name_region(TagId id, const std::string& n) override { log.push_back("r" + std::to_string(id) + n); }
};

void produce(EventSink& s, int n) {
  for (int i = 0; i < n; ++i) {
    if (i % 1000 == 0) s.name_tensor(TagId(i % 7), "T" + std::to_string(i));
    if (i % 777 == 0) s.name_region(TagId(i % 5), "R" + std::to_string(i));
    if (i % 10 == 3) {
      s.compute(Compute{uint64_t(i) * 3, uint16_t(i % 9), TagId(i % 4)});
      continue;
    }
    Access a;
    a.addr = uint64_t(i) * 64;
    a.bytes = 1 + i % 200;
    a.kind = AccessKind(i % 4);
    a.space = SpaceId(i % 3);
    a.tensor = TagId(i % 11);
    a.region = TagId(i % 5);
    a.elem_bytes = uint32_t(i % 2 ? 4 : 0);
    a.stride = i % 2 ? -int64_t(i) : 0;
    s.access(a);
  }
}

}  // namespace

TEST(EventPipe, DeliversEverythingInOrder) {
  Recorder direct, piped;
  produce(direct, 100000);
  EventPipe pipe([](EventSink& s) { produce(s, 100000); });
  pipe.drain(piped);
  EXPECT_EQ(piped.log, direct.log);
}

TEST(EventPipe, ProducerErrorArrivesAfterItsEvents) {
  Recorder r;
  EventPipe pipe([](EventSink& s) {
    produce(s, 12345);
    throw std::invalid_argument("bad program");
  });
  try {
    pipe.drain(r);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "bad program");
  }
  Recorder direct;
  produce(direct, 12345);
  EXPECT_EQ(r.log, direct.log);
}

TEST(EventPipe, ConsumerStoppingEarlyDoesNotHang) {
  Recorder r;
  r.stop_after = 10;
  {
    EventPipe pipe([](EventSink& s) { produce(s, 1000000); });
    EXPECT_THROW(pipe.drain(r), std::runtime_error);
  }  // the destructor must release the blocked producer
  EXPECT_EQ(r.log.size(), 10u);
}

TEST(CompletionWindow, KeepsCompletionsSorted) {
  CompletionWindow w(4);
  w.push(50);
  w.push(20);
  w.push(40);
  EXPECT_EQ(w.size(), 3u);
  EXPECT_EQ(w.earliest(), 20u);
  w.retire(30);
  EXPECT_EQ(w.size(), 2u);
  EXPECT_EQ(w.earliest(), 40u);
  w.push(10);
  w.push(60);
  EXPECT_TRUE(w.full());
  EXPECT_EQ(w.earliest(), 10u);
  w.push(70);  // full: the earliest makes room
  EXPECT_EQ(w.size(), 4u);
  EXPECT_EQ(w.earliest(), 40u);
  w.retire(1000);
  EXPECT_EQ(w.size(), 0u);
}
