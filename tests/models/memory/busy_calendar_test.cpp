// BusyCalendar (models/memory/busy_calendar.h): requests in time order start
// where one "busy until" would start them; a late request takes the first
// gap at or after its arrival; on random arrivals, in and out of order, its
// starts are those of a plain first-fit over every interval kept;
// first_fit() and take() (a DRAM bank's) split reserve() in two and merge
// overlapping intervals; with few intervals kept, late requests and the
// oldest leaving agree with a plain list merged after every request.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "models/memory/busy_calendar.h"

namespace ptosim {
namespace {

TEST(BusyCalendar, InOrderRequestsStartAsWithBusyUntil) {
  BusyCalendar cal;
  Fs busy_until = 0;
  std::mt19937_64 rng(3);
  Fs t = 0;
  for (int i = 0; i < 2000; ++i) {
    t += rng() % 20;
    const Fs busy = rng() % 15;
    const Fs expect = std::max(t, busy_until);
    ASSERT_EQ(cal.reserve(t, busy), expect) << i;
    busy_until = expect + busy;
  }
}

TEST(BusyCalendar, ALateRequestTakesAGapOfItsPast) {
  BusyCalendar cal;
  EXPECT_EQ(cal.reserve(1000, 10), 1000u);  // a core far ahead
  EXPECT_EQ(cal.reserve(0, 10), 0u);        // a lagging one: the past is free
  EXPECT_EQ(cal.reserve(5, 10), 10u);       // behind it
  EXPECT_EQ(cal.reserve(995, 10), 1010u);   // [995, 1005) would overlap [1000, 1010)
  EXPECT_EQ(cal.reserve(20, 975), 20u);     // fits [20, 995) exactly
  EXPECT_EQ(cal.reserve(21, 1), 995u);      // the gap left before 1000
  EXPECT_EQ(cal.reserve(21, 10), 1020u);    // too short for 10: after all
}

TEST(BusyCalendar, FirstFitReservesNothingAndTakeMergesOverlaps) {
  BusyCalendar cal;
  cal.take(100, 200);
  EXPECT_EQ(cal.first_fit(150, 10), 200u);
  EXPECT_EQ(cal.first_fit(50, 10), 50u);
  EXPECT_EQ(cal.first_fit(95, 10), 200u);  // [95, 105) would overlap
  EXPECT_EQ(cal.first_fit(50, 10), 50u);   // still free: nothing was reserved
  cal.take(50, 120);                       // overlaps [100, 200): one interval [50, 200)
  EXPECT_EQ(cal.first_fit(45, 10), 200u);  // [45, 55) would overlap [50, 200)
  EXPECT_EQ(cal.first_fit(40, 10), 40u);   // [40, 50) fits exactly
  cal.take(300, 310);
  cal.take(190, 305);  // bridges both: [50, 310)
  EXPECT_EQ(cal.first_fit(60, 1), 310u);
  cal.take(5, 5);  // empty: nothing
  EXPECT_EQ(cal.first_fit(5, 1), 5u);
}

TEST(BusyCalendar, KeepsAtMostItsIntervals) {
  BusyCalendar cal(4);
  for (Fs t = 100; t <= 500; t += 100) EXPECT_EQ(cal.reserve(t, 10), t);  // five intervals, four kept
  EXPECT_EQ(cal.first_fit(100, 10), 100u);  // the oldest went: its time is free again
  EXPECT_EQ(cal.first_fit(200, 10), 210u);
}

// First fit over every interval kept: the reference.
Fs first_fit(std::vector<std::pair<Fs, Fs>>& taken, Fs arrive, Fs busy) {
  Fs start = arrive;
  for (bool moved = true; moved;) {
    moved = false;
    for (const auto& [lo, hi] : taken)
      if (lo < start + busy && start < hi && busy > 0) start = hi, moved = true;
      else if (busy == 0 && lo <= start && start < hi) start = hi, moved = true;
  }
  if (busy > 0) taken.emplace_back(start, start + busy);
  return start;
}

TEST(BusyCalendar, RandomArrivalsAgreeWithFirstFit) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    BusyCalendar cal;
    std::vector<std::pair<Fs, Fs>> taken;
    std::mt19937_64 rng(seed);
    Fs ahead = 0;
    for (int i = 0; i < 400; ++i) {  // fewer than the intervals it keeps
      ahead += rng() % 30;
      const Fs arrive = rng() % 4 ? ahead : rng() % (ahead + 1);  // a quarter arrive late
      const Fs busy = rng() % 25;
      ASSERT_EQ(cal.reserve(arrive, busy), first_fit(taken, arrive, busy)) << "seed " << seed << " request " << i;
    }
  }
}

// The calendar as a plain sorted list of merged intervals, at most `max`:
// the reference for late requests landing among them while the oldest go.
struct PlainCalendar {
  size_t max;
  std::vector<std::pair<Fs, Fs>> busy;  // disjoint, sorted
  Fs fit(Fs arrive, Fs len) const {
    Fs start = arrive;
    for (const auto& [lo, hi] : busy)
      if (hi > start && (lo < start + len || (lo <= start && len == 0))) start = hi;
    return start;
  }
  void take(Fs lo, Fs hi) {  // every request's interval merges with those it overlaps or touches
    if (hi <= lo) return;
    busy.emplace_back(lo, hi);
    std::sort(busy.begin(), busy.end());
    std::vector<std::pair<Fs, Fs>> merged;
    for (const auto& b : busy)
      if (!merged.empty() && b.first <= merged.back().second) merged.back().second = std::max(merged.back().second, b.second);
      else merged.push_back(b);
    busy = merged;
    if (busy.size() > max) busy.erase(busy.begin());
  }
};

TEST(BusyCalendar, FewIntervalsKeptAgreeWithAPlainList) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    BusyCalendar cal(8);
    PlainCalendar ref{8, {}};
    std::mt19937_64 rng(seed);
    Fs ahead = 0;
    for (int i = 0; i < 3000; ++i) {
      ahead += rng() % 30;
      const Fs arrive = rng() % 3 ? ahead : ahead - std::min<Fs>(ahead, rng() % 200);  // a third arrive late
      const Fs len = rng() % 25;
      if (rng() % 2) {
        const Fs start = ref.fit(arrive, len);
        ASSERT_EQ(cal.reserve(arrive, len), start) << "seed " << seed << " request " << i;
        ref.take(start, start + len);
      } else {
        const Fs start = ref.fit(arrive, len);
        ASSERT_EQ(cal.first_fit(arrive, len), start) << "seed " << seed << " request " << i;
        const Fs hi = start + len + rng() % 10;
        cal.take(start, hi);
        ref.take(start, hi);
      }
    }
  }
}

}  // namespace
}  // namespace ptosim
