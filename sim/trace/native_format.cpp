#include "sim/trace/native_format.h"

#include <cstring>

namespace ptosim {
namespace {

class Decoder {
 public:
  explicit Decoder(ByteSource& in) : in_(in) {}
  bool more() { return in_.fill(1) > 0; }
  uint8_t byte() {
    if (in_.fill(1) == 0) fail("truncated record");
    uint8_t b = uint8_t(in_.data()[0]);
    in_.consume(1);
    ++offset_;
    return b;
  }
  uint64_t varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      uint8_t b = byte();
      v |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    fail("varint longer than 64 bits");
  }
  std::string bytes(uint64_t n) {
    if (n > (1u << 20)) fail("name longer than 1 MiB");
    if (in_.fill(n) < n) fail("truncated name");
    std::string s(in_.data(), n);
    in_.consume(n);
    offset_ += n;
    return s;
  }
  [[noreturn]] void fail(const std::string& msg) const {
    throw InputError({in_.path(), 0, 0}, "", "byte " + std::to_string(offset_) + ": " + msg);
  }
  uint64_t offset_ = 0;

 private:
  ByteSource& in_;
};

TagId tag(Decoder& d, uint64_t v) {
  if (v > 0xffff) d.fail("tag id " + std::to_string(v) + " out of range");
  return TagId(v);
}

}  // namespace

void read_native(ByteSource& in, EventSink& sink, TraceCounts& counts, const TraceRules& rules) {
  Decoder d(in);
  char magic[8];
  for (char& c : magic) c = char(d.byte());
  if (std::memcmp(magic, kNativeMagic, 8) != 0) d.fail("not a native trace (bad magic)");
  uint32_t version = 0;
  for (int i = 0; i < 4; ++i) version |= uint32_t(d.byte()) << (8 * i);
  if (version < 1 || version > kNativeVersion)
    d.fail("unsupported native trace version " + std::to_string(version));
  Access a;
  CoreId core = 0;
  uint64_t last_addr = 0;
  bool have_size = false;  // "same size as before" needs an access before it
  uint64_t seq = 0;  // events read, the last one's number (numbers wrap at 2^32, see event.h)
  // A dependence `dist` events before event `seq`; 0 = none.
  auto dep_at = [&](uint64_t dist) -> uint32_t {
    if (dist == 0) return 0;
    if (dist >= seq || dist >= (1ull << 31)) d.fail("dependence on an event before the first");
    return uint32_t(seq - dist);
  };
  while (d.more()) {
    const uint8_t flags = d.byte();
    const int kind = flags & 3;
    if (kind == 3) {
      const int sub = flags >> 2;
      if (sub == 1) {
        Compute c;
        c.flops = d.varint();
        c.op = uint16_t(tag(d, d.varint()));
        c.region = tag(d, d.varint());
        c.core = core;
        ++seq;
        ++counts.compute;
        sink.compute(c);
      } else if ((sub == 6 && version >= 3) || (sub == 7 && version >= 5)) {
        Compute c;
        c.flops = d.varint();
        c.op = uint16_t(tag(d, d.varint()));
        c.region = tag(d, d.varint());
        const uint64_t dt = d.varint(), sc = d.varint(), cl = d.varint();
        if (dt > 255 || sc > 255 || cl > 255) d.fail("bad compute record");
        c.dtype = uint8_t(dt);
        c.scalar = uint8_t(sc);
        c.op_class = uint8_t(cl);
        c.core = core;
        ++seq;
        c.dep[0] = dep_at(d.varint());
        c.dep[1] = dep_at(d.varint());
        if (sub == 7) {
          const uint64_t m = d.varint();
          if (m > UINT32_MAX) d.fail("bad compute record");
          c.masked = uint32_t(m);
        }
        ++counts.compute;
        sink.compute(c);
      } else if (sub == 2 || sub == 3) {
        TagId id = tag(d, d.varint());
        std::string name = d.bytes(d.varint());
        if (sub == 2) sink.name_tensor(id, name); else sink.name_region(id, name);
      } else if (sub == 4 && version >= 2) {
        const uint64_t v = d.varint();
        if (v >= kMaxCores) d.fail("core " + std::to_string(v) + " out of range");
        core = CoreId(v);
      } else if (sub == 5 && version >= 2) {
        const uint64_t v = d.varint();
        if (v > 1) d.fail("bad barrier record");
        sink.barrier(v == 1);
      } else {
        d.fail("unknown meta record " + std::to_string(sub));
      }
      continue;
    }
    // Bit 7 (version 4): one of din's m/c/v records, kind bits 0 misc, 1 copyback, 2 invalidate.
    const bool din_record = (flags & 128) && version >= 4 && !(flags & 16);
    if ((flags >> (version >= 3 ? 7 : 6)) && !din_record) d.fail("bad record flags");
    ++seq;
    a.kind = din_record ? AccessKind(int(AccessKind::Misc) + kind)
             : (flags & 16) ? AccessKind::Fill
                            : AccessKind(kind);
    if (flags & 8) {
      a.space = SpaceId(tag(d, d.varint()));
      a.tensor = tag(d, d.varint());
      a.region = tag(d, d.varint());
    }
    a.elem_bytes = 0;
    a.stride = 0;
    if (flags & 32) {
      const uint64_t eb = d.varint();
      if (eb > 0xff) d.fail("element size " + std::to_string(eb) + " out of range");
      a.elem_bytes = uint8_t(eb);
      const uint64_t z = d.varint();
      a.stride = int64_t((z >> 1) ^ (~(z & 1) + 1));
    }
    a.dep = (flags & 64) ? dep_at(d.varint()) : 0;
    if ((flags & 64) && a.dep == 0) d.fail("dependence distance 0");
    const uint64_t z = d.varint();
    last_addr += (z >> 1) ^ (~(z & 1) + 1);
    a.addr = last_addr;
    if (!(flags & 4)) a.bytes = d.varint();
    else if (!have_size) d.fail("'same size as before' on the first access");
    have_size = true;
    // Size 0 on a copyback or invalidate record means the whole cache (din's convention).
    if (a.bytes == 0 && !is_control(a.kind)) d.fail("access size must be positive");
    if (!access_in_range(a.addr, a.bytes))
      d.fail(a.bytes > kMaxAccessBytes ? "access size larger than one access may be (1 GiB)"
                                       : "the access runs past the end of the 64-bit address space");
    a.core = core;
    if (!rules.fits(a)) d.fail(rules.why_not(a));
    ++counts.records;
    switch (a.kind) {
      case AccessKind::Write: case AccessKind::Fill: ++counts.writes; break;
      case AccessKind::Read: ++counts.reads; break;
      case AccessKind::Fetch: ++counts.fetches; break;
      case AccessKind::Misc: ++counts.misc; break;
      case AccessKind::Copyback: ++counts.copybacks; break;
      case AccessKind::Invalidate: ++counts.invalidates; break;
    }
    sink.access(a);
  }
}

NativeWriter::NativeWriter(FILE* out) : out_(out) {
  std::fwrite(kNativeMagic, 1, 8, out_);
  for (int i = 0; i < 4; ++i) std::fputc(int((kNativeVersion >> (8 * i)) & 0xff), out_);
}

void NativeWriter::varint(uint64_t v) {
  while (v >= 0x80) {
    std::fputc(int(v & 0x7f) | 0x80, out_);
    v >>= 7;
  }
  std::fputc(int(v), out_);
}

void NativeWriter::set_core(CoreId core) {
  if (core == core_) return;
  std::fputc(3 | (4 << 2), out_);
  varint(core);
  core_ = core;
}

void NativeWriter::barrier(bool parallel) {
  std::fputc(3 | (5 << 2), out_);
  varint(parallel ? 1 : 0);
}

void NativeWriter::access(const Access& a) {
  set_core(a.core);
  const bool same_size = a.bytes == last_size_ && counts_.records > 0;
  const bool tags = a.space != space_ || a.tensor != tensor_ || a.region != region_;
  const bool fill = a.kind == AccessKind::Fill;
  const bool strided = a.elem_bytes != 0;
  ++seq_;
  const uint32_t dist = seq_ - a.dep;  // wraps with the numbers
  const bool dep = a.dep != 0 && dist != 0 && dist < (1u << 31);
  const bool din_record = uint8_t(a.kind) >= uint8_t(AccessKind::Misc);
  const int kind = fill ? int(AccessKind::Write) : din_record ? int(a.kind) - int(AccessKind::Misc) : int(a.kind);
  std::fputc(kind | (same_size ? 4 : 0) | (tags ? 8 : 0) | (fill ? 16 : 0) | (strided ? 32 : 0) | (dep ? 64 : 0) |
                 (din_record ? 128 : 0),
             out_);
  if (tags) {
    varint(a.space);
    varint(a.tensor);
    varint(a.region);
    space_ = a.space;
    tensor_ = a.tensor;
    region_ = a.region;
  }
  if (strided) {
    varint(a.elem_bytes);
    varint((uint64_t(a.stride) << 1) ^ uint64_t(a.stride >> 63));
  }
  if (dep) varint(dist);
  const int64_t delta = int64_t(a.addr - last_addr_);
  varint((uint64_t(delta) << 1) ^ uint64_t(delta >> 63));
  if (!same_size) varint(a.bytes);
  last_addr_ = a.addr;
  last_size_ = a.bytes;
  ++counts_.records;
}

void NativeWriter::compute(const Compute& c) {
  set_core(c.core);
  ++seq_;
  ++counts_.compute;
  const bool dataflow = c.scalar || c.dtype || c.op_class || c.dep[0] || c.dep[1] || c.masked;
  std::fputc(3 | ((c.masked ? 7 : dataflow ? 6 : 1) << 2), out_);
  varint(c.flops);
  varint(c.op);
  varint(c.region);
  if (!dataflow) return;
  varint(c.dtype);
  varint(c.scalar);
  varint(c.op_class);
  for (uint32_t dep : c.dep) {
    const uint32_t dist = seq_ - dep;
    varint(dep && dist < (1u << 31) ? dist : 0);
  }
  if (c.masked) varint(c.masked);
}

void NativeWriter::meta_name(int subtype, TagId id, const std::string& name) {
  std::fputc(3 | (subtype << 2), out_);
  varint(id);
  varint(name.size());
  std::fwrite(name.data(), 1, name.size(), out_);
}

}  // namespace ptosim
