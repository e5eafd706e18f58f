#include "sim/trace/pipe_writer.h"

namespace ptosim::pipe {

void PipeWriter::compute(const Compute& c) {
  other(Other{count(), Other::Compute, c.flops,
              uint64_t(c.op) | uint64_t(c.region) << 16 | uint64_t(c.core) << 32 | uint64_t(c.dtype) << 40 |
                  uint64_t(c.scalar) << 48 | uint64_t(c.op_class) << 56,
              uint64_t(c.dep[0]) | uint64_t(c.dep[1]) << 32});
}

void PipeWriter::named(Other::Kind kind, TagId id, const std::string& name) {
  other(Other{count(), kind, chunk_->names.size(), id});
  chunk_->names.push_back(name);
}

void PipeWriter::other(const Other& o) {
  chunk_->others.push_back(o);
  // A producer of little but compute records must not grow a chunk forever.
  if (chunk_->others.size() == kAccesses) flush();
}

void PipeWriter::flush() {
  chunk_->count = count();
  ring_.publish();
  chunk_ = ring_.acquire();
  open_lane();
}

void PipeWriter::close() {
  if (count() || !chunk_->others.empty()) {
    chunk_->count = count();
    ring_.publish();
  }
  ring_.close();
}

}  // namespace ptosim::pipe
