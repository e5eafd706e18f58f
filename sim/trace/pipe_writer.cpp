#include "sim/trace/pipe_writer.h"

#include <new>

namespace ptosim::pipe {

void PipeWriter::access(const Access& a) {
  if (is_plain(a)) {
    new (chunk_->at(count_)) Slot{a.addr, a.bytes};
    chunk_->code(count_) = Code(a.kind);
    count_ += 1;
  } else {
    new (chunk_->at(count_)) Access(a);
    chunk_->code(count_) = Code::Access;
    count_ += kAccessSlots;
  }
  if (count_ >= kSlots) flush();
}

void PipeWriter::compute(const Compute& c) {
  new (chunk_->at(count_)) Slot{c.flops, uint64_t(c.op) | uint64_t(c.region) << 16};
  chunk_->code(count_) = Code::Compute;
  if (++count_ >= kSlots) flush();
}

void PipeWriter::named(Code code, TagId id, const std::string& name) {
  new (chunk_->at(count_)) Slot{chunk_->names.size(), id};
  chunk_->code(count_) = code;
  chunk_->names.push_back(name);
  if (++count_ >= kSlots) flush();
}

void PipeWriter::flush() {
  chunk_->code(count_) = Code::End;
  ring_.publish();
  count_ = 0;
  chunk_ = ring_.acquire();
}

void PipeWriter::close() {
  if (count_) {
    chunk_->code(count_) = Code::End;
    ring_.publish();
  }
  ring_.close();
}

}  // namespace ptosim::pipe
