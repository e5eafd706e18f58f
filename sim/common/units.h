#pragma once
// Quantities written out with units in configs ("32 KiB", "3 GHz", "80 ns",
// "64 B/cycle", "140 GB/s"). Each parser throws std::invalid_argument with a
// message saying what was expected; the config loader adds file:line:key.
#include <cstdint>
#include <string>

namespace ptosim::units {

uint64_t parse_bytes(const std::string& text);      // B KB KiB MB MiB GB GiB (KB = 1000)
double parse_frequency(const std::string& text);    // Hz kHz MHz GHz -> Hz
double parse_time_ns(const std::string& text);      // ps ns us ms s -> ns
uint32_t parse_cycles(const std::string& text);     // "4 cycles", "4 cycle", "4"
double parse_count(const std::string& text);        // a plain non-negative number

// A bandwidth is either per cycle (of the clock of whoever uses it) or per second.
struct Bandwidth {
  double value = 0;
  bool per_cycle = true;
  double bytes_per_cycle(double clock_hz) const { return per_cycle ? value : value / clock_hz; }
};
Bandwidth parse_bandwidth(const std::string& text);  // "64 B/cycle", "140 GB/s", "25.6 GiB/s"

std::string format_bytes(uint64_t bytes);     // exact: "35.75 MiB", "64 B"
std::string format_frequency(double hz);      // "2.9 GHz"
std::string format_number(double v);          // shortest round-trip form, no trailing zeros

}  // namespace ptosim::units
