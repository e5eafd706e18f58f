#include "sim/common/memory_budget.h"

#include <unistd.h>

#include <cstdio>

namespace ptosim::memory_budget {
namespace {
std::atomic<uint64_t> g_limit{0}, g_held{0}, g_value_limit{0}, g_value_held{0};
}

void set_limit(uint64_t bytes) { g_limit.store(bytes); }
uint64_t limit() { return g_limit.load(std::memory_order_relaxed); }
uint64_t held() { return g_held.load(std::memory_order_relaxed); }

void charge(uint64_t bytes) {
  const uint64_t lim = limit();
  const uint64_t now = g_held.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  if (lim && (now > lim || now < bytes)) {
    g_held.fetch_sub(bytes, std::memory_order_relaxed);
    throw Exceeded();
  }
}

void refund(uint64_t bytes) noexcept { g_held.fetch_sub(bytes, std::memory_order_relaxed); }

void set_value_limit(uint64_t bytes) { g_value_limit.store(bytes); }
uint64_t value_limit() { return g_value_limit.load(std::memory_order_relaxed); }
uint64_t value_held() { return g_value_held.load(std::memory_order_relaxed); }

void charge_value(uint64_t bytes) {
  const uint64_t lim = value_limit();
  const uint64_t now = g_value_held.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  if (lim && (now > lim || now < bytes)) {
    g_value_held.fetch_sub(bytes, std::memory_order_relaxed);
    throw Exceeded(true);
  }
  try {
    charge(bytes);
  } catch (...) {
    g_value_held.fetch_sub(bytes, std::memory_order_relaxed);
    throw;
  }
}

void refund_value(uint64_t bytes) noexcept {
  g_value_held.fetch_sub(bytes, std::memory_order_relaxed);
  refund(bytes);
}

void check_value_room(uint64_t bytes) {
  const uint64_t vlim = value_limit(), lim = limit();
  if (vlim && (bytes > vlim || value_held() > vlim - bytes)) throw Exceeded(true);
  if (lim && (bytes > lim || held() > lim - bytes)) throw Exceeded(false);
}

uint64_t default_limit() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), size = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || size <= 0) return uint64_t(4) << 30;
  return uint64_t(pages) * uint64_t(size) / 4;
}

std::string describe(uint64_t bytes) {
  char buf[32];
  if (bytes >= (uint64_t(1) << 30)) std::snprintf(buf, sizeof buf, "%.1f GiB", double(bytes) / double(1 << 30));
  else if (bytes >= (uint64_t(1) << 20)) std::snprintf(buf, sizeof buf, "%.1f MiB", double(bytes) / double(1 << 20));
  else std::snprintf(buf, sizeof buf, "%llu B", (unsigned long long)bytes);
  return buf;
}

}  // namespace ptosim::memory_budget
