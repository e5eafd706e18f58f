#include "models/dram/address_map.h"

#include <sstream>
#include <vector>

namespace ptosim {

namespace {

bool pow2(uint64_t v) { return v && !(v & (v - 1)); }

uint32_t log2_floor(uint64_t v) {
  uint32_t s = 0;
  while ((v >> s) > 1) ++s;
  return s;
}

constexpr uint64_t kRowsWhenInner = uint64_t(1) << 16;

}  // namespace

DramAddressMap::DramAddressMap(const DramConfig& c, uint32_t burst_bytes)
    : burst_bytes_(burst_bytes), burst_shift_(log2_floor(burst_bytes)), burst_pow2_(pow2(burst_bytes)) {
  if (burst_bytes == 0 || c.row_size < burst_bytes || c.row_size % burst_bytes != 0)
    throw InputError(c.pos, "dram.row_size",
                     "row size " + std::to_string(c.row_size) + " B is not a multiple of the burst (" +
                         std::to_string(burst_bytes) + " B = bus width x burst length)");
  std::vector<std::string> names;
  std::stringstream in(c.mapping);
  for (std::string f; std::getline(in, f, '-');) names.push_back(f);
  if (names.size() != 5) throw InputError(c.pos, "dram.mapping", "'" + c.mapping + "' must name ro ba ra ch co once each");
  for (size_t i = 0; i < 5; ++i) {
    const std::string& n = names[4 - i];  // least significant first
    Field& f = fields_[i];
    const bool top = i == 4;
    if (n == "co") f = {kColumn, c.row_size / burst_bytes};
    else if (n == "ch") f = {kChannel, c.channels};
    else if (n == "ra") f = {kRank, c.ranks};
    else if (n == "ba") f = {kBank, c.banks};
    else if (n == "ro") f = {kRow, top ? 0 : kRowsWhenInner};
    else throw InputError(c.pos, "dram.mapping", "field '" + n + "' is not one of ro ba ra ch co");
    if (f.kind == kRow && top) continue;  // unbounded: takes every remaining bit
    f.pow2 = pow2(f.radix);
    f.shift = log2_floor(f.radix);
  }
  bits_ = burst_pow2_;
  uint32_t lo = 0;
  for (size_t i = 0; i < 5; ++i) {
    const Field& f = fields_[i];
    const bool unbounded = i == 4 && f.kind == kRow;
    bits_ = bits_ && (unbounded || f.pow2);
    slice_[f.kind] = {lo, unbounded ? ~uint64_t(0) : f.radix - 1};
    lo += f.shift;
  }
}

DramCoord DramAddressMap::decode_digits(uint64_t addr) const {
  uint64_t x = burst_pow2_ ? addr >> burst_shift_ : addr / burst_bytes_;
  DramCoord d;
  for (size_t i = 0; i < 5; ++i) {
    const Field& f = fields_[i];
    uint64_t v;
    if (i == 4) {
      v = f.kind == kRow ? x : mod(x, f);
    } else {
      v = mod(x, f);
      x = div(x, f);
    }
    switch (f.kind) {
      case kRow: d.row = v; break;
      case kBank: d.bank = uint32_t(v); break;
      case kRank: d.rank = uint32_t(v); break;
      case kChannel: d.channel = uint32_t(v); break;
      case kColumn: d.column = v; break;
    }
  }
  return d;
}

std::string DramAddressMap::describe() const {
  static const char* names[] = {"ro", "ba", "ra", "ch", "co"};
  std::ostringstream o;
  bool bits = burst_pow2_;
  for (auto& f : fields_) bits = bits && (f.pow2 || (&f == &fields_[4] && f.kind == kRow));
  if (bits) {
    uint32_t lo = burst_shift_;
    o << "[" << (lo ? lo - 1 : 0) << ":0] burst offset";
    for (size_t i = 0; i < 5; ++i) {
      const Field& f = fields_[i];
      o << ", ";
      if (i == 4 && f.kind == kRow) {
        o << "[63:" << lo << "] ro";
      } else if (f.shift == 0) {
        o << "(no bits) " << names[f.kind];
      } else {
        o << "[" << lo + f.shift - 1 << ":" << lo << "] " << names[f.kind];
        if (i == 4) o << " (higher bits ignored)";
      }
      lo += f.shift;
    }
    return o.str();
  }
  o << "address / " << burst_bytes_ << " B as digits (least significant first):";
  for (size_t i = 0; i < 5; ++i) {
    o << " " << names[fields_[i].kind];
    if (!(i == 4 && fields_[i].kind == kRow)) o << "%" << fields_[i].radix;
  }
  return o.str();
}

}  // namespace ptosim
