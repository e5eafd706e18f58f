// RecyclingAllocator (models/memory/recycling_allocator.h): a block freed
// is handed out again for the next allocation of the same object count (1
// to kKept), never for another count; larger blocks go to the heap; a
// vector that grows through the kept sizes reuses the blocks another freed.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "models/memory/recycling_allocator.h"

namespace ptosim {
namespace {

struct Item {  // a type of this test's own: no other user shares its free lists
  uint64_t a = 0, b = 0;
};

TEST(RecyclingAllocator, AFreedBlockServesTheSameCountOnly) {
  RecyclingAllocator<Item> alloc;
  Item* three = alloc.allocate(3);
  alloc.deallocate(three, 3);
  Item* two = alloc.allocate(2);
  EXPECT_NE(two, three);  // another count: not that block
  EXPECT_EQ(alloc.allocate(3), three);
  Item* again = alloc.allocate(3);
  EXPECT_NE(again, three);  // handed out once
  alloc.deallocate(again, 3);
  alloc.deallocate(three, 3);
  EXPECT_EQ(alloc.allocate(3), three);  // last freed, first reused
  EXPECT_EQ(alloc.allocate(3), again);
  alloc.deallocate(two, 2);
  alloc.deallocate(three, 3);
  alloc.deallocate(again, 3);
}

TEST(RecyclingAllocator, BlocksLargerThanKeptGoToTheHeap) {
  RecyclingAllocator<Item> alloc;
  const size_t kept = RecyclingAllocator<Item>::kKept;
  Item* p = alloc.allocate(kept);
  alloc.deallocate(p, kept);  // on the largest kept size's list
  Item* big = alloc.allocate(kept + 1);
  alloc.deallocate(big, kept + 1);  // to the heap, on no list
  EXPECT_EQ(alloc.allocate(kept), p);
  alloc.deallocate(p, kept);
}

TEST(RecyclingAllocator, AGrowingVectorReusesTheBlocksOfOneFreed) {
  std::vector<const Item*> first;
  {
    std::vector<Item, RecyclingAllocator<Item>> v;
    for (int i = 0; i < 8; ++i) {
      v.push_back(Item{});
      first.push_back(v.data());
    }
  }
  std::vector<Item, RecyclingAllocator<Item>> w;
  for (int i = 0; i < 8; ++i) {
    w.push_back(Item{uint64_t(i), 0});
    EXPECT_EQ(w.data(), first[i]) << i;  // capacities 1, 2, 4, 8: each the block of that size freed
  }
  for (int i = 0; i < 8; ++i) EXPECT_EQ(w[i].a, uint64_t(i));
}

}  // namespace
}  // namespace ptosim
