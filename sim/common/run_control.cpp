#include "sim/common/run_control.h"

#include <signal.h>
#include <unistd.h>

namespace ptosim::run_control {
namespace {

std::atomic<int> g_signal{0};
std::atomic<uint64_t> g_event_limit{0};
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

void set_event_limit(uint64_t events) { g_event_limit.store(events); }

bool event_limit_reached() {
  const uint64_t limit = g_event_limit.load(std::memory_order_relaxed);
  return limit && counters().events.load(std::memory_order_relaxed) >= limit;
}

}  // namespace ptosim::run_control
