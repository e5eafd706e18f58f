// libFuzzer target: the native (PTOTRACE) trace reader. An input must be
// read or fail with an InputError, and every access it delivers must be
// non-empty and inside the address space. Inputs get the magic and version
// prepended half the time, so that mutations reach the records.
#include <cstdio>
#include <cstring>
#include <vector>

#include "fuzz/fuzz_util.h"
#include "sim/trace/byte_source.h"
#include "sim/trace/native_format.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::vector<uint8_t> buf;
  if (data[0] & 1) {
    buf.assign(ptosim::kNativeMagic, ptosim::kNativeMagic + 8);
    const uint8_t version[4] = {uint8_t(ptosim::kNativeVersion), 0, 0, 0};
    buf.insert(buf.end(), version, version + 4);
    buf.insert(buf.end(), data + 1, data + size);
  } else {
    buf.assign(data, data + size);
  }
  FILE* f = fmemopen(buf.data(), buf.size(), "rb");
  if (!f) return 0;
  try {
    ptosim::ByteSource in(f, "fuzz.ptt");
    ptosim::fuzz::CheckingSink sink;
    ptosim::TraceCounts counts;
    ptosim::read_native(in, sink, counts);
  } catch (const ptosim::InputError&) {
  }
  std::fclose(f);
  return 0;
}
