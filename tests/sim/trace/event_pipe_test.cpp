// The producer thread hand-off: order, errors at chunk boundaries, either side
// waiting, and no hang when the consumer stops. The same-thread alternative
// (BatchSink): order, stop requests, consumer errors.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <thread>

#include "models/core/completion_window.h"
#include "sim/trace/batch_sink.h"
#include "sim/trace/event_pipe.h"
#include "sim/trace/lane_cursor.h"
#include "sim/trace/pipe_chunk.h"

using namespace ptosim;

namespace {

struct Recorder : EventSink {
  std::vector<std::string> log;
  uint64_t stop_after = ~0ull;
  uint64_t nap_every = 0;  // sleep after every nap_every-th event: a slow consumer
  void access(const Access& a) override {
    if (log.size() >= stop_after) throw std::runtime_error("consumer gave up");
    if (nap_every && log.size() % nap_every == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
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

// n accesses, untagged ones mixed with tagged and strided ones, and some
// compute records between them.
void produce_mixed(EventSink& s, int n, int nap_every = 0) {
  for (int i = 0; i < n; ++i) {
    if (nap_every && i % nap_every == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
    Access a;
    a.addr = uint64_t(i) << 20 | 7;
    a.bytes = uint64_t(i) * 3 + 1;
    a.kind = AccessKind(i % 4);
    switch (i % 7) {
      case 3: a.tensor = TagId(i); break;
      case 5: a.space = 2, a.region = 9; break;
      case 6: a.elem_bytes = 4, a.stride = -int64_t(i); break;
    }
    s.access(a);
    if (i % 1000 == 999) s.compute(Compute{uint64_t(i), 3, 4});
  }
}

// Exactly n untagged accesses, numbered.
void produce_plain(EventSink& s, uint64_t n) {
  Access a;
  for (uint64_t i = 0; i < n; ++i) {
    a.addr = i;
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

TEST(EventPipe, MixedRecordsCrossChunkBoundaries) {
  for (int n : {1, 1000, int(pipe::kAccesses) - 1, int(pipe::kAccesses), int(pipe::kAccesses) + 1, 50000}) {
    Recorder direct, piped;
    produce_mixed(direct, n);
    EventPipe pipe([n](EventSink& s) { produce_mixed(s, n); });
    pipe.drain(piped);
    EXPECT_EQ(piped.log, direct.log) << n;
  }
}

TEST(EventPipe, ProducerErrorAtAChunkBoundary) {
  // The error comes right after the last event of a full chunk, one before,
  // one after: exactly the events before it arrive, in order.
  const uint64_t k = pipe::kAccesses;
  for (uint64_t n : {uint64_t(0), k - 1, k, k + 1, 3 * k, 3 * k + 1, 20 * k}) {
    Recorder r;
    EventPipe pipe([n](EventSink& s) {
      produce_plain(s, n);
      throw std::invalid_argument("stop at " + std::to_string(n));
    });
    try {
      pipe.drain(r);
      ADD_FAILURE() << "no exception";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(e.what(), "stop at " + std::to_string(n));
    }
    ASSERT_EQ(r.log.size(), n);
    for (uint64_t i = 0; i < n; ++i) ASSERT_EQ(r.log[i].substr(0, r.log[i].find(':')), "a" + std::to_string(i));
  }
}

TEST(EventPipe, EitherSideMayWaitForTheOther) {
  // A slow consumer lets the producer fill the ring and sleep; a slow
  // producer lets the consumer drain it and sleep.
  Recorder direct;
  produce_mixed(direct, 30000);
  for (bool slow_consumer : {true, false}) {
    Recorder piped;
    if (slow_consumer) piped.nap_every = 2000;
    EventPipe pipe([&](EventSink& s) { produce_mixed(s, 30000, slow_consumer ? 0 : 2000); });
    pipe.drain(piped);
    EXPECT_EQ(piped.log, direct.log) << slow_consumer;
  }
}

TEST(EventPipe, RunsOfOtherRecordsOnly) {
  // Compute records alone fill chunks too (their list is bounded).
  auto produce_computes = [](EventSink& s) {
    for (uint64_t i = 0; i < 5 * pipe::kAccesses + 3; ++i) s.compute(Compute{i, 1, 2});
    produce_plain(s, 2);
    s.name_region(3, "end");
  };
  Recorder direct, piped;
  produce_computes(direct);
  EventPipe pipe(produce_computes);
  pipe.drain(piped);
  EXPECT_EQ(piped.log, direct.log);
}

TEST(EventPipe, DestroyedWithoutDrainingDoesNotHang) {
  EventPipe pipe([](EventSink& s) { produce_plain(s, 100 * pipe::kAccesses); });
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

namespace {
std::atomic<bool> g_stop{false};
bool stop_now() { return g_stop.load(); }
}  // namespace

// A stop request (what SIGINT raises) ends delivery between chunks, even
// while the producer is stuck without producing (a read of a terminal, a
// long computation): drain returns false within its polling interval, and
// the pipe lets the producer go instead of waiting for it.
TEST(EventPipe, StopRequestEndsDrainWhileTheProducerIsStuck) {
  g_stop = false;
  auto release = std::make_shared<std::atomic<bool>>(false);
  Recorder r;
  const auto t0 = std::chrono::steady_clock::now();
  {
    EventPipe pipe([release](EventSink& s) {
      produce(s, 50000);
      while (!release->load()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    });
    std::thread stopper([] {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      g_stop = true;
    });
    EXPECT_FALSE(pipe.drain(r, stop_now));
    stopper.join();
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(s, 5.0);
  EXPECT_LE(r.log.size(), 50000u + 200u);
  release->store(true);  // the detached producer may finish now
  g_stop = false;
}

// Without a stop request drain delivers everything and returns true; the
// producer's error comes back through the out parameter, not as a throw.
TEST(EventPipe, ErrorHandedBackWithoutThrow) {
  Recorder r;
  std::exception_ptr error;
  {
    EventPipe pipe([](EventSink& s) {
      produce(s, 3000);
      throw std::runtime_error("producer failed");
    });
    EXPECT_TRUE(pipe.drain(r, stop_now, &error));
  }
  ASSERT_TRUE(error);
  EXPECT_THROW(std::rethrow_exception(error), std::runtime_error);
  Recorder direct;
  produce(direct, 3000);
  EXPECT_EQ(r.log, direct.log);
}

// ---- BatchSink: the producer on the consumer's thread ----

namespace {
bool g_batch_stop = false;
bool batch_stop_flag() { return g_batch_stop; }
}  // namespace

TEST(BatchSink, DeliversEverythingInOrder) {
  // Accesses only, then accesses mixed with every other kind of event.
  const auto same_as_direct = [](auto produce_n, int n) {
    Recorder direct, batched;
    produce_n(direct, n);
    BatchSink b(batched, nullptr);
    produce_n(b, n);
    b.flush();
    EXPECT_EQ(batched.log, direct.log);
  };
  same_as_direct([](EventSink& s, int n) { produce(s, n); }, 100000);
  same_as_direct([](EventSink& s, int n) { produce_mixed(s, n); }, 30000);
}

// The din reader's way in: a LaneCursor over the sink's lane, the last slot
// of each run through access().
TEST(BatchSink, LaneCursorFillsRunsInOrder) {
  Recorder direct, batched;
  produce_plain(direct, 3 * BatchSink::kBatch + 17);
  BatchSink b(batched, nullptr);
  {
    LaneCursor c(b);
    for (uint64_t i = 0; i < 3 * BatchSink::kBatch + 17; ++i) c.put(i, 0, AccessKind::Read);
  }
  b.flush();
  EXPECT_EQ(batched.log, direct.log);
}

// A stop request unwinds the producer at the next run: what was delivered
// is whole runs, in order; nothing after the request.
TEST(BatchSink, StopRequestUnwindsTheProducer) {
  Recorder r;
  g_batch_stop = false;
  BatchSink b(r, batch_stop_flag);
  bool abandoned = false;
  try {
    produce_plain(b, 5 * BatchSink::kBatch + 3);
    g_batch_stop = true;
    produce_plain(b, 5 * BatchSink::kBatch);
  } catch (const pipe::Abandoned&) {
    abandoned = true;
  }
  g_batch_stop = false;
  EXPECT_TRUE(abandoned);
  EXPECT_EQ(r.log.size(), 5 * BatchSink::kBatch);
  Recorder direct;
  produce_plain(direct, 5 * BatchSink::kBatch);
  EXPECT_EQ(r.log, direct.log);
}

// A consumer that throws in the middle of a run: the exception reaches the
// producer's caller, and a later flush delivers nothing twice.
TEST(BatchSink, ConsumerErrorDeliversNothingTwice) {
  Recorder r;
  r.stop_after = BatchSink::kBatch + 10;
  BatchSink b(r, nullptr);
  EXPECT_THROW(produce_plain(b, 4 * BatchSink::kBatch), std::runtime_error);
  EXPECT_EQ(r.log.size(), BatchSink::kBatch + 10);
  r.stop_after = ~0ull;
  b.flush();
  EXPECT_EQ(r.log.size(), BatchSink::kBatch + 10);
}
