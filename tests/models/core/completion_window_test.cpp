// The misses-in-flight ring keeps its earliest completion in a member of its
// own (retire() on every access is one compare); these check that it
// answers as a sorted multiset of the completions in flight would, through
// every mix of push, pop, retire and a full window.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>

#include "models/core/completion_window.h"

namespace ptosim {
namespace {

TEST(CompletionWindow, RetireForgetsWhatCompletedAndKeepsTheEarliest) {
  CompletionWindow w(4);
  w.push(30);
  w.push(10);
  w.push(20);
  EXPECT_EQ(w.size(), 3u);
  EXPECT_EQ(w.earliest(), 10u);
  w.retire(9);
  EXPECT_EQ(w.size(), 3u);
  w.retire(20);  // 10 and 20 are done by 20
  EXPECT_EQ(w.size(), 1u);
  EXPECT_EQ(w.earliest(), 30u);
  w.retire(30);
  EXPECT_EQ(w.size(), 0u);
  w.retire(~0ull);  // nothing left: no underflow
  EXPECT_EQ(w.size(), 0u);
  w.push(5);
  EXPECT_EQ(w.earliest(), 5u);
}

TEST(CompletionWindow, FullWindowDropsItsEarliestOnPush) {
  CompletionWindow w(2);
  w.push(100);
  w.push(50);
  EXPECT_TRUE(w.full());
  w.push(70);  // 50 leaves
  EXPECT_EQ(w.size(), 2u);
  EXPECT_EQ(w.earliest(), 70u);
  w.pop();
  EXPECT_EQ(w.earliest(), 100u);
}

TEST(CompletionWindow, MatchesASortedMultisetOnRandomOperations) {
  for (uint32_t cap : {1u, 3u, 8u, 10u}) {
    std::mt19937_64 rng(cap * 7919u);
    CompletionWindow w(cap);
    std::multiset<uint64_t> ref;
    uint64_t now = 0;
    for (int step = 0; step < 20000; ++step) {
      const uint32_t op = uint32_t(rng() % 4);
      if (op == 0) {
        now += rng() % 16;
        w.retire(now);
        while (!ref.empty() && *ref.begin() <= now) ref.erase(ref.begin());
      } else if (op == 1 && !ref.empty()) {
        w.pop();
        ref.erase(ref.begin());
      } else {
        const uint64_t done = now + rng() % 64;
        if (ref.size() == cap) ref.erase(ref.begin());
        w.push(done);
        ref.insert(done);
      }
      ASSERT_EQ(w.size(), ref.size()) << "capacity " << cap << ", step " << step;
      if (!ref.empty()) {
        ASSERT_EQ(w.earliest(), *ref.begin()) << "capacity " << cap << ", step " << step;
      }
      ASSERT_EQ(w.full(), ref.size() == cap);
    }
  }
}

}  // namespace
}  // namespace ptosim
