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
struct Exceeded : std::bad_alloc {
  const char* what() const noexcept override { return "memory limit exceeded"; }
};

void set_limit(uint64_t bytes);  // 0: no limit
uint64_t limit();
// Adds `bytes` to what the program holds; throws Exceeded (charging
// nothing) if that would pass the limit.
void charge(uint64_t bytes);
void refund(uint64_t bytes) noexcept;
uint64_t held();

// A quarter of the machine's physical memory (it is shared, and the process
// needs memory of its own besides): what --max-memory defaults to.
uint64_t default_limit();
// "1.5 GiB", for messages.
std::string describe(uint64_t bytes);

}  // namespace ptosim::memory_budget
