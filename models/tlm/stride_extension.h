#pragma once
// A strided access on one TLM payload: the payload's address is the first
// element, its data length is elem_bytes x count (the bytes moved), and the
// elements sit stride_bytes apart. Absent = contiguous. Only the scratchpad
// modules read it (for bank conflicts); caches and DRAM ignore it.
#include <cstdint>
#include <tlm>

namespace ptosim {

struct StrideExtension : tlm::tlm_extension<StrideExtension> {
  uint32_t elem_bytes = 0;   // 0 = treat the payload as contiguous
  int64_t stride_bytes = 0;
  tlm::tlm_extension_base* clone() const override { return new StrideExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const StrideExtension&>(other);
  }
};

}  // namespace ptosim
