#include "sim/trace/pipe_writer.h"

#include <cstring>

namespace ptosim::pipe {

void PipeWriter::compute(const Compute& c) {
  other(Other{count(), Other::Compute, c.flops,
              uint64_t(c.op) | uint64_t(c.region) << 16 | uint64_t(c.core) << 32 | uint64_t(c.dtype) << 40 |
                  uint64_t(c.scalar) << 48 | uint64_t(c.op_class) << 56,
              uint64_t(c.dep[0]) | uint64_t(c.dep[1]) << 32, c.site, c.masked});
}

void PipeWriter::named(Other::Kind kind, TagId id, const std::string& name) {
  other(Other{count(), kind, chunk_->names.size(), id});
  chunk_->names.push_back(name);
}

void PipeWriter::access_data(const Access& a, const uint8_t* data) {
  // Into the chunk that access() puts `a` in: the bytes go first.
  chunk_->data.insert(chunk_->data.end(), data, data + (a.bytes ? a.bytes : 1));
  access(a);
  if (chunk_->data.size() >= kDataBytes) flush();  // large bulk writes must not grow a chunk without end
}

void PipeWriter::hosted(Other::Kind kind, const Access& a, const uint8_t* data) {
  std::vector<uint8_t>& h = chunk_->host;
  const size_t at = h.size();
  h.resize(at + sizeof(Access) + a.bytes);
  std::memcpy(h.data() + at, &a, sizeof(Access));
  std::memcpy(h.data() + at + sizeof(Access), data, a.bytes);
  other(Other{count(), kind, at, 0});
  if (h.size() >= kDataBytes) flush();
}

void PipeWriter::position(const std::string& file, int line, int col) {
  other(Other{count(), Other::Position, chunk_->names.size(), uint64_t(uint32_t(line)) | uint64_t(uint32_t(col)) << 32});
  chunk_->names.push_back(file);
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

bool PipeWriter::settle() {
  if (count() || !chunk_->others.empty()) flush();
  ring_.wait_idle();
  return true;
}

void PipeWriter::close() {
  if (count() || !chunk_->others.empty()) {
    chunk_->count = count();
    ring_.publish();
  }
  ring_.close();
}

}  // namespace ptosim::pipe
