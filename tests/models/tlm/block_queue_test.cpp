// BlockQueue (models/tlm/block_queue.h), the core scheduler's per-core
// FIFOs: each keeps its order while several queues take blocks from one
// pool and give them back, and the pool holds no more blocks than were
// ever in use at once.
#include "models/tlm/block_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>

namespace ptosim {
namespace {

// No default constructor, as the scheduler's Queued.
struct Item {
  explicit Item(int v) : v(v) {}
  int v;
};

TEST(BlockQueue, QueuesSharingAPoolKeepTheirOrdersAgainstDeques) {
  using Q = BlockQueue<Item, 8>;
  Q::Pool pool;
  std::vector<Q> queues;
  for (int i = 0; i < 3; ++i) queues.emplace_back(pool);
  std::vector<std::deque<int>> ref(3);
  int next = 0;
  uint32_t x = 12345;
  size_t most = 0;
  for (int step = 0; step < 30000; ++step) {
    x = x * 1103515245u + 12345u;
    const size_t q = (x >> 8) % 3;
    // Pushes win for a while, then pops: the queues grow over many blocks
    // and drain to empty again.
    const bool push = (step / 5000) % 2 == 0 ? (x >> 16) % 3 != 0 : (x >> 16) % 3 == 0;
    if (push) {
      queues[q].push_back(Item(next));
      ref[q].push_back(next++);
    } else if (!ref[q].empty()) {
      ASSERT_FALSE(queues[q].empty());
      ASSERT_EQ(queues[q].front().v, ref[q].front());
      queues[q].pop_front();
      ref[q].pop_front();
    }
    ASSERT_EQ(queues[q].size(), ref[q].size());
    ASSERT_EQ(queues[q].empty(), ref[q].empty());
    most = std::max(most, ref[0].size() + ref[1].size() + ref[2].size());
  }
  for (size_t q = 0; q < 3; ++q) {
    while (!ref[q].empty()) {
      ASSERT_EQ(queues[q].front().v, ref[q].front());
      queues[q].pop_front();
      ref[q].pop_front();
    }
    EXPECT_TRUE(queues[q].empty());
  }
  EXPECT_GT(most, 1000u);
  // Every block came back; at most two partly used blocks a queue beyond
  // the most events queued at once.
  EXPECT_GE(pool.spare(), most / 8);
  EXPECT_LE(pool.spare(), most / 8 + 3 * 2);
}

}  // namespace
}  // namespace ptosim
