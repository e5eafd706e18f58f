#pragma once
// A program's lists, strings and tensor values live in this process. A
// runaway program (`l = l + l` in a loop) used to grow until the machine ran
// out and end with "out of memory" and no line; bounded like its events
// (--max-events), it now stops at the statement that went over.
// One budget per process (one program runs at a time), shared by the
// interpreter and the executor.
#include <atomic>
#include <cstdint>
#include <new>
#include <string>

namespace ptosim::memory_budget {

// Thrown when a charge would pass the limit; a bad_alloc, so that every
// out-of-memory handler takes it, and the interpreter names the statement.
// `values`: the limit passed is the one of lists, strings and dicts.
struct Exceeded : std::bad_alloc {
  explicit Exceeded(bool v = false) : values(v) {}
  const char* what() const noexcept override { return "memory limit exceeded"; }
  bool values;
};

void set_limit(uint64_t bytes);  // 0: no limit
uint64_t limit();
// Adds `bytes` to what the program holds; throws Exceeded (charging
// nothing) if that would pass the limit.
void charge(uint64_t bytes);
void refund(uint64_t bytes) noexcept;
uint64_t held();

// Lists, strings and dicts ("values": what the interpreter builds, as
// opposed to tensors) have a budget of their own inside the whole one, much
// smaller by default: a kernel's lists hold shapes, offsets and tiles (a few
// KiB), while a runaway doubling (`s = s + s`) reaches a quarter of the
// machine only after a minute of copying (5.5 s per GiB on the project's VM)
// and meets 256 MiB in about a second. 256 MiB is 16 M list items or 256 M
// characters. --max-value-memory raises it.
constexpr uint64_t kDefaultValueLimit = uint64_t(256) << 20;
void set_value_limit(uint64_t bytes);  // 0: only the whole limit
uint64_t value_limit();
uint64_t value_held();
// Like charge()/refund(), for a list, string or dict: counts against both
// budgets (Exceeded::values says which one it passed).
void charge_value(uint64_t bytes);
void refund_value(uint64_t bytes) noexcept;
// Throws Exceeded if `bytes` more of lists, strings or dicts would not fit
// (charging nothing): a check before a large result is built.
void check_value_room(uint64_t bytes);

// A quarter of the machine's physical memory (it is shared, and the process
// needs memory of its own besides): what --max-memory defaults to.
uint64_t default_limit();
// "1.5 GiB", for messages.
std::string describe(uint64_t bytes);

}  // namespace ptosim::memory_budget
