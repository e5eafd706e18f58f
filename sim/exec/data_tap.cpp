#include "sim/exec/data_tap.h"

#include <cstring>

#include "sim/trace/data_check.h"

namespace ptosim::exec {

void DataTap::note_position() {
  if (!line_ || (*line_ == last_line_ && *col_ == last_col_)) return;
  last_line_ = *line_;
  last_col_ = *col_;
  out_.position(file_, last_line_, last_col_);
}

void DataTap::access(const Access& a) {
  note_position();
  if (a.kind != AccessKind::Write && a.kind != AccessKind::Fill) return out_.access(a);
  const uint64_t n = a.bytes ? a.bytes : 1;
  buf_.resize(n);
  if (!a.elem_bytes) {
    gather(a.space, a.addr, n, buf_.data());
  } else {  // a strided access: its elements in order
    const uint64_t count = n / a.elem_bytes;
    for (uint64_t k = 0; k < count; ++k)
      gather(a.space, a.addr + uint64_t(int64_t(k) * a.stride), a.elem_bytes, buf_.data() + k * a.elem_bytes);
  }
  ++writes_;
  out_.access_data(a, buf_.data());
}

void DataTap::gather(SpaceId space, uint64_t addr, uint64_t n, uint8_t* out) {
  uint8_t elem[8];
  while (n) {
    auto it = live_.upper_bound({space, addr});
    std::shared_ptr<Storage> st;
    if (it != live_.begin()) {
      --it;
      if (it->first.first == space) st = it->second.lock();
    }
    if (!st || st->freed || addr >= st->base + st->bytes) {  // a freed storage has dropped its values
      // No tensor here (a fused intermediate's register bytes): made-up bytes.
      uint64_t stop = n;
      auto next = live_.upper_bound({space, addr});
      if (next != live_.end() && next->first.first == space && next->first.second - addr < n)
        stop = next->first.second - addr;
      for (uint64_t i = 0; i < stop; ++i) out[i] = trace_byte(addr + i, writes_);
      addr += stop, out += stop, n -= stop;
      continue;
    }
    const uint32_t es = dtype_size(st->dtype);
    const uint64_t end = std::min(addr + n, st->base + st->bytes);
    while (addr < end) {
      const uint64_t e = (addr - st->base) / es, off = (addr - st->base) % es;
      encode(st->dtype, st->values[size_t(e)], elem);
      const uint64_t k = std::min<uint64_t>(es - off, end - addr);
      std::memcpy(out, elem + off, k);
      addr += k, out += k, n -= k;
    }
  }
}

void DataTap::allocated(const std::shared_ptr<Storage>& st, CoreId core) {
  if (!st->bytes) return;
  // The allocator never overlaps live ranges: a storage this one overlaps
  // is gone (freed, its range reused), and so is an expired one.
  auto it = live_.upper_bound({st->space, st->base});
  if (it != live_.begin() && std::prev(it)->first.first == st->space) --it;
  while (it != live_.end() && it->first.first == st->space && it->first.second < st->base + st->bytes) {
    std::shared_ptr<Storage> old = it->second.lock();
    if (!old || it->first.second >= st->base || old->base + old->bytes > st->base)
      it = live_.erase(it);
    else
      ++it;
  }
  live_[{st->space, st->base}] = st;
  host(*st, core);
}

void DataTap::initialised(const Storage& st, CoreId core) { host(st, core); }

void DataTap::host(const Storage& st, CoreId core) {
  if (!st.bytes) return;
  Access a;
  a.addr = st.base;
  a.bytes = st.bytes;
  a.kind = AccessKind::Write;
  a.space = st.space;
  a.tensor = st.tag;
  a.core = core;
  buf_.resize(st.bytes);
  gather(st.space, st.base, st.bytes, buf_.data());
  out_.host_write(a, buf_.data());
}

void DataTap::expect_final() {
  for (auto& [key, weak] : live_) {
    std::shared_ptr<Storage> st = weak.lock();
    if (!st || st->freed || !st->bytes) continue;
    Access a;
    a.addr = st->base;
    a.bytes = st->bytes;
    a.space = st->space;
    a.tensor = st->tag;
    buf_.resize(st->bytes);
    gather(st->space, st->base, st->bytes, buf_.data());
    out_.expect(a, buf_.data());
  }
}

}  // namespace ptosim::exec
