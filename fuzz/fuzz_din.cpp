// libFuzzer target: the din trace reader (its fast and its careful line
// parsers both). An input must be read or fail with an InputError, and every
// access it delivers must be non-empty and inside the address space.
#include <cstdio>

#include "fuzz/fuzz_util.h"
#include "sim/trace/byte_source.h"
#include "sim/trace/din_format.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;  // fmemopen needs a buffer
  FILE* f = fmemopen(const_cast<uint8_t*>(data), size, "rb");
  if (!f) return 0;
  try {
    ptosim::ByteSource in(f, "fuzz.din");
    ptosim::fuzz::CheckingSink sink;
    ptosim::TraceCounts counts;
    ptosim::read_din(in, sink, counts);
  } catch (const ptosim::InputError&) {
  }
  std::fclose(f);
  return 0;
}
