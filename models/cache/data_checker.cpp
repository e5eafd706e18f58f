#include "models/cache/data_checker.h"

#include <cstring>

#include "sim/trace/data_check.h"

namespace ptosim {

DataChecker::DataChecker(bool stream, std::string source) : stream_(stream), source_(std::move(source)) {
  positions_.push_back({source_, 0, 0});
}

size_t DataChecker::add_store(const std::string& name, const ByteStore* store) {
  stores_.push_back(Store{name, store, {}});
  return stores_.size() - 1;
}

void DataChecker::write_data(const uint8_t* data, size_t n) {
  next_ = data;
  end_ = data + n;
}

template <class F>
void DataChecker::pieces(const Access& a, F&& fn) {
  const uint64_t n = a.bytes ? a.bytes : 1;
  if (!a.elem_bytes) return fn(a.addr, n, uint64_t(0));
  for (uint64_t k = 0, count = n / a.elem_bytes; k < count; ++k)
    fn(a.addr + uint64_t(int64_t(k) * a.stride), uint64_t(a.elem_bytes), k * a.elem_bytes);
}

void DataChecker::take_write(const Access& a, std::vector<uint8_t>& out) {
  const uint64_t n = a.bytes ? a.bytes : 1;
  out.resize(n);
  if (stream_) {
    if (uint64_t(end_ - next_) < n) throw DataCheckError(where() + ": data check: a write came without its bytes");
    std::memcpy(out.data(), next_, n);
    next_ += n;
    return;
  }
  const uint64_t seq = writes_++;
  pieces(a, [&](uint64_t addr, uint64_t bytes, uint64_t off) { trace_bytes(addr, bytes, seq, out.data() + off); });
}

void DataChecker::discarded(size_t store, uint64_t addr, uint64_t bytes,
                            const std::function<uint8_t(uint64_t)>& visible) {
  ByteStore& shadow = stores_[store].shadow;
  std::vector<std::pair<uint64_t, uint64_t>> ranges;  // (address, bytes)
  if (bytes)
    ranges.emplace_back(addr, bytes);
  else
    shadow.for_each_page([&](uint64_t page, const uint8_t*) { ranges.emplace_back(page, ByteStore::kPage); });
  std::vector<uint8_t> now;
  for (auto& [at, n] : ranges) {
    now.resize(n);
    for (uint64_t i = 0; i < n; ++i) now[i] = visible(at + i);
    shadow.write(at, n, now.data());
  }
}

uint32_t DataChecker::position(const std::string& file, int line, int col) {
  positions_.push_back({file, line, col});
  current_ = uint32_t(positions_.size() - 1);
  return current_;
}

std::string DataChecker::where() const {
  if (!stream_) return source_ + ": access " + std::to_string(accesses_ + 1);
  const Position& p = positions_[current_];
  std::string s = p.file;
  if (p.line > 0) s += ":" + std::to_string(p.line);
  if (p.line > 0 && p.col > 0) s += ":" + std::to_string(p.col);
  return s;
}

void DataChecker::expect(size_t store, const Access& a, const uint8_t* data, const std::string& tensor,
                         const std::string& space) {
  expected_.push_back(Expected{store, a, std::vector<uint8_t>(data, data + a.bytes), tensor, space});
}

void DataChecker::wrote(size_t store, const Access& a, const uint8_t* data) {
  ByteStore& s = stores_[store].shadow;
  pieces(a, [&](uint64_t addr, uint64_t bytes, uint64_t off) { s.write(addr, bytes, data + off); });
}

bool DataChecker::read_matches(size_t store, const Access& a, const uint8_t* data) {
  ++reads_;
  const uint64_t n = a.bytes ? a.bytes : 1;
  want_.resize(n);
  const ByteStore& s = stores_[store].shadow;
  pieces(a, [&](uint64_t addr, uint64_t bytes, uint64_t off) { s.read(addr, bytes, want_.data() + off); });
  return first_difference(want_.data(), data, n) == n;
}

void DataChecker::shadow_bytes(size_t store, const Access& a, uint8_t* out) const {
  const ByteStore& s = stores_[store].shadow;
  pieces(a, [&](uint64_t addr, uint64_t bytes, uint64_t off) { s.read(addr, bytes, out + off); });
}

void DataChecker::mismatch(const Access& a, const uint8_t* data, const std::string& space,
                           const std::string& served) const {
  throw DataCheckError(data_mismatch(where(), a.kind == AccessKind::Fetch ? "fetch" : "read", space, a.addr,
                                     a.bytes ? a.bytes : 1, served, want_.data(), data));
}

void DataChecker::final_check() const {
  std::vector<uint8_t> got(ByteStore::kPage), want(ByteStore::kPage);
  const std::string at = source_ + ": after the flush";
  for (const Store& s : stores_) {
    // Every page either side has written: a byte the shadow never saw
    // written must still be 0 (a writeback to the wrong address).
    auto compare = [&](uint64_t page, const uint8_t*) {
      s.actual->read(page, ByteStore::kPage, got.data());
      s.shadow.read(page, ByteStore::kPage, want.data());
      const uint64_t d = first_difference(want.data(), got.data(), ByteStore::kPage);
      if (d == ByteStore::kPage) return;
      const uint64_t from = d & ~uint64_t(15);
      throw DataCheckError(data_mismatch(at, s.name + " image", s.name, page + from, ByteStore::kPage - from, s.name,
                                         want.data() + from, got.data() + from));
    };
    s.shadow.for_each_page(compare);
    s.actual->for_each_page(compare);
  }
  for (const Expected& e : expected_) {
    got.resize(e.a.bytes);
    stores_[e.store].actual->read(e.a.addr, e.a.bytes, got.data());
    if (first_difference(e.data.data(), got.data(), e.a.bytes) == e.a.bytes) continue;
    throw DataCheckError(data_mismatch(
        at, "tensor '" + e.tensor + "' (the executor's memory) against the " + stores_[e.store].name + " image",
        e.space, e.a.addr, e.a.bytes, stores_[e.store].name, e.data.data(), got.data()));
  }
}

}  // namespace ptosim
