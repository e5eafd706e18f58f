#pragma once
// Where a byte address lives in DRAM: channel, rank, bank, row, column.
// The mapping string lists the fields most significant first, e.g.
// `ro-ba-ra-ch-co`. The address is first divided by the burst size (bus bytes
// x burst length): the offset within a burst always stays in one column of
// one bank. The burst index is then read as a mixed-radix number whose
// digits, least significant first, are the mapping's fields right to left:
//   co: row_size / burst_bytes columns (bursts per row)
//   ch: channels, ra: ranks, ba: banks
//   ro: 2^16 rows when it is not the most significant field
// The most significant field takes what is left of the address (modulo its
// count when it is not `ro`). With powers of two this is plain bit slicing:
// for 1 channel, 16 banks, 8 KiB rows, 64 B bursts and `ro-ba-ra-ch-co`,
// bits [5:0] burst offset, [12:6] column, [16:13] bank, [63:17] row.
#include <array>
#include <cstdint>
#include <string>

#include "sim/config/hw_config.h"

namespace ptosim {

struct DramCoord {
  uint32_t channel = 0, rank = 0, bank = 0;
  uint64_t row = 0, column = 0;  // column counts bursts within the row
};

class DramAddressMap {
 public:
  DramAddressMap() = default;
  // Throws InputError (naming dram.mapping / dram.row_size) on an unusable geometry.
  DramAddressMap(const DramConfig& config, uint32_t burst_bytes);
  DramCoord decode(uint64_t addr) const {
    if (!bits_) return decode_digits(addr);
    const uint64_t x = addr >> burst_shift_;
    DramCoord d;
    d.channel = uint32_t((x >> slice_[kChannel].shift) & slice_[kChannel].mask);
    d.rank = uint32_t((x >> slice_[kRank].shift) & slice_[kRank].mask);
    d.bank = uint32_t((x >> slice_[kBank].shift) & slice_[kBank].mask);
    d.row = (x >> slice_[kRow].shift) & slice_[kRow].mask;
    d.column = (x >> slice_[kColumn].shift) & slice_[kColumn].mask;
    return d;
  }
  // Human-readable bit / digit layout, least significant first, for docs and errors.
  std::string describe() const;

 private:
  enum Kind : uint8_t { kRow, kBank, kRank, kChannel, kColumn };
  struct Field {
    Kind kind = kColumn;
    uint64_t radix = 1;
    uint32_t shift = 0;  // log2(radix) when pow2
    bool pow2 = true;
  };
  DramCoord decode_digits(uint64_t addr) const;  // any radix: divisions
  static uint64_t div(uint64_t x, const Field& f) { return f.pow2 ? x >> f.shift : x / f.radix; }
  static uint64_t mod(uint64_t x, const Field& f) { return f.pow2 ? x & (f.radix - 1) : x % f.radix; }

  std::array<Field, 5> fields_{};  // least significant first
  // When every radix is a power of two: each field is a bit slice of the
  // burst index, indexed by Kind.
  struct Slice {
    uint32_t shift = 0;
    uint64_t mask = 0;
  };
  std::array<Slice, 5> slice_{};
  bool bits_ = false;
  uint64_t burst_bytes_ = 64;
  uint32_t burst_shift_ = 6;
  bool burst_pow2_ = true;
};

}  // namespace ptosim
