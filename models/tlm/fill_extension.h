#pragma once
// Marks a write as the host filling a memory before the kernel reads it
// (pto.load / copy into constant memory): a read-only memory accepts it and
// counts it as a fill. Keep one attached to a reusable payload and flip
// `fill` per access; absent or false = an ordinary access.
#include <tlm>

namespace ptosim {

struct FillExtension : tlm::tlm_extension<FillExtension> {
  bool fill = false;
  tlm::tlm_extension_base* clone() const override { return new FillExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const FillExtension&>(other);
  }
};

inline bool is_fill(tlm::tlm_generic_payload& t) {
  const FillExtension* f = t.get_extension<FillExtension>();
  return f && f->fill;
}

}  // namespace ptosim
