#pragma once
// Tensor / region tags ride on every TLM transaction as an extension, so
// every module can break its statistics down without a side channel.
#include <tlm>

#include "models/tlm/fill_extension.h"
#include "models/tlm/stride_extension.h"
#include "sim/trace/event.h"

namespace ptosim {

struct AccessTags : tlm::tlm_extension<AccessTags> {
  TagId tensor = 0;
  TagId region = 0;
  tlm::tlm_extension_base* clone() const override { return new AccessTags(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const AccessTags&>(other);
  }
};

// A reusable payload with its extensions attached once (no per-access
// allocation): tags always, a fill flag and a stride for scratchpad traffic.
class TaggedPayload {
 public:
  TaggedPayload() {
    trans_.set_extension(&tags_);
    trans_.set_extension(&fill_);
    trans_.set_extension(&stride_);
    trans_.set_streaming_width(0);
    trans_.set_byte_enable_ptr(nullptr);
    trans_.set_data_ptr(nullptr);
  }
  ~TaggedPayload() {
    trans_.clear_extension(&tags_);
    trans_.clear_extension(&fill_);
    trans_.clear_extension(&stride_);
  }
  // Marks the next transaction as a host fill and / or strided.
  void set_pattern(bool fill, uint32_t elem_bytes, int64_t stride) {
    fill_.fill = fill;
    stride_.elem_bytes = elem_bytes;
    stride_.stride_bytes = stride;
  }
  tlm::tlm_generic_payload& set(uint64_t addr, uint64_t bytes, bool write, TagId tensor, TagId region) {
    trans_.set_address(addr);
    trans_.set_data_length(unsigned(bytes));
    trans_.set_streaming_width(unsigned(bytes));
    trans_.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    trans_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    tags_.tensor = tensor;
    tags_.region = region;
    return trans_;
  }

 private:
  tlm::tlm_generic_payload trans_;
  AccessTags tags_;
  FillExtension fill_;
  StrideExtension stride_;
};

inline const AccessTags& tags_of(tlm::tlm_generic_payload& t) {
  static const AccessTags none;
  AccessTags* e = t.get_extension<AccessTags>();
  return e ? *e : none;
}

}  // namespace ptosim
