#include "sim/common/run_control.h"

#include <signal.h>
#include <algorithm>
#include <vector>
#include <unistd.h>

namespace ptosim::run_control {
namespace {

std::atomic<int> g_signal{0};
std::atomic<uint64_t> g_event_limit{0};
std::atomic<bool> g_from_compute{false};
std::atomic<uint64_t> g_anchor{0};  // events before the first compute + 1; 0: none yet
// --probe-period: the statements whose computes came in the current period
// (with the accesses done when each first computed), the current one, and
// the periods closed: the first, the last, how many, and the events done at
// the last close. Only the producer's thread calls note_compute.
std::atomic<uint64_t> g_period_min{0};  // M: 0 = off
std::vector<std::pair<uint32_t, uint64_t>> g_sites;
uint32_t g_current_site = 0;
uint64_t g_first_site_computes = 0;  // while only one statement has computed
std::atomic<uint64_t> g_closes{0}, g_close_events{0};
std::atomic<uint64_t> g_first_from{0}, g_first_to{0}, g_last_from{0}, g_last_to{0};  // accesses
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs a lock-free flag");

extern "C" void on_signal(int sig) {
  int none = 0;
  // Only async-signal-safe calls here: an atomic exchange and _exit.
  if (!g_signal.compare_exchange_strong(none, sig)) _exit(128 + sig);
}

}  // namespace

Counters& counters() {
  static Counters c;
  return c;
}

void install_signal_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;  // readers blocked in read() keep reading; the flag is polled
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

int stop_signal() { return g_signal.load(std::memory_order_relaxed); }

void request_stop(int signal) { g_signal.store(signal); }

void set_event_limit(uint64_t events, bool from_compute) {
  g_event_limit.store(events);
  g_from_compute.store(from_compute);
  g_anchor.store(0);
}

void set_period_probe(uint64_t min_events) {
  g_period_min.store(min_events);
  g_sites.clear();
  g_first_site_computes = 0;
  for (auto* v : {&g_closes, &g_close_events, &g_first_from, &g_first_to, &g_last_from, &g_last_to}) v->store(0);
}

void note_compute(uint32_t site, bool flops) {
  if (g_from_compute.load(std::memory_order_relaxed) && g_anchor.load(std::memory_order_relaxed) == 0)
    g_anchor.store(counters().events.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  // A loop iteration's bookkeeping (no flops) is no phase of the work.
  if (!g_period_min.load(std::memory_order_relaxed) || !flops) return;
  if (!g_sites.empty() && site == g_current_site) {
    ++g_first_site_computes;
    return;
  }
  const uint64_t accesses = counters().accesses.load(std::memory_order_relaxed);
  g_current_site = site;
  for (const auto& [seen, at] : g_sites)
    if (seen == site) {
      // The period ran from this statement's first compute to now; the next
      // one begins here.
      const uint64_t n = g_closes.load(std::memory_order_relaxed) + 1;
      if (n == 1) g_first_from.store(at, std::memory_order_relaxed), g_first_to.store(accesses, std::memory_order_relaxed);
      g_last_from.store(at, std::memory_order_relaxed);
      g_last_to.store(accesses, std::memory_order_relaxed);
      g_close_events.store(counters().events.load(std::memory_order_relaxed), std::memory_order_relaxed);
      g_closes.store(n, std::memory_order_relaxed);
      g_sites.assign(1, {site, accesses});
      return;
    }
  g_sites.emplace_back(site, accesses);
}

Periods periods() {
  return {g_closes.load(), g_first_from.load(), g_first_to.load(), g_last_from.load(), g_last_to.load()};
}

bool event_limit_reached() {
  const uint64_t limit = g_event_limit.load(std::memory_order_relaxed);
  if (!limit) return false;
  uint64_t from = 0;
  if (g_from_compute.load(std::memory_order_relaxed)) {
    from = g_anchor.load(std::memory_order_relaxed);
    if (from == 0) return false;
    --from;
  }
  if (counters().events.load(std::memory_order_relaxed) < from + limit) return false;
  // Past N events, a probe with phases runs on to the first period's end
  // that comes after M events: one period when periods are long, several
  // (the first one cold) when they are short.
  const uint64_t m = g_period_min.load(std::memory_order_relaxed);
  if (!m) return true;
  // One statement so far: the work itself when it computed many times (a
  // tiled matmul: no period to wait for); a set-up that computed a few times
  // (attention's scale, a pow and a division) is not the work, still to come.
  if (g_closes.load(std::memory_order_relaxed) == 0) return g_sites.size() < 2 && g_first_site_computes >= 8;
  return g_close_events.load(std::memory_order_relaxed) >= from + m;
}

}  // namespace ptosim::run_control
