#include "sim/common/run_control.h"

#include <signal.h>
#include <unistd.h>

namespace ptosim::run_control {
namespace {

std::atomic<int> g_signal{0};
std::atomic<uint64_t> g_event_limit{0};
std::atomic<bool> g_from_compute{false};
std::atomic<uint64_t> g_anchor{0};  // events before the first compute + 1; 0: none yet
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

void note_compute() {
  if (g_from_compute.load(std::memory_order_relaxed) && g_anchor.load(std::memory_order_relaxed) == 0)
    g_anchor.store(counters().events.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
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
  return counters().events.load(std::memory_order_relaxed) >= from + limit;
}

}  // namespace ptosim::run_control
