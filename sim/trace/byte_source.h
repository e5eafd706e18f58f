#pragma once
// Buffered reading of a file or stdin in large blocks, with a lookahead that
// parsers can index directly (no per-byte virtual call or stdio lock).
// kPadding readable bytes (of unspecified value) follow the buffered ones,
// so that a parser may load whole words near the end without a bounds check.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <sys/stat.h>

#include "sim/common/error.h"
#include "sim/common/run_control.h"

namespace ptosim {

class ByteSource {
 public:
  static constexpr size_t kPadding = 64;

  explicit ByteSource(const std::string& path) : path_(path) {
    if (path == "-") {
      f_ = stdin;
    } else {
      f_ = std::fopen(path.c_str(), "rb");
      if (!f_) throw InputError({path, 0, 0}, "", "cannot open trace file");
      owned_ = true;
      struct stat st;
      if (::fstat(fileno(f_), &st) == 0 && S_ISREG(st.st_mode))
        run_control::counters().input_total.store(uint64_t(st.st_size), std::memory_order_relaxed);
    }
    buf_.resize((1 << 20) + kPadding);
  }
  // An open stream (not closed here), named `path` in messages: the fuzz
  // targets read from memory through fmemopen.
  // Small inputs: a small buffer to start with (it grows as a line needs).
  ByteSource(FILE* f, const std::string& path) : path_(path), f_(f) { buf_.resize((1 << 12) + kPadding); }
  ~ByteSource() {
    if (owned_) std::fclose(f_);
  }
  ByteSource(const ByteSource&) = delete;
  ByteSource& operator=(const ByteSource&) = delete;

  // Ensures at least `n` bytes are buffered after pos (fewer only at EOF).
  // Returns the number available.
  size_t fill(size_t n) {
    if (end_ - pos_ >= n) return end_ - pos_;
    std::memmove(buf_.data(), buf_.data() + pos_, end_ - pos_);
    end_ -= pos_;
    pos_ = 0;
    if (buf_.size() < n + kPadding) buf_.resize(n + kPadding);
    while (end_ < n && !eof_) {
      size_t got = std::fread(buf_.data() + end_, 1, buf_.size() - kPadding - end_, f_);
      if (got == 0) {
        if (std::ferror(f_)) throw InputError({path_, 0, 0}, "", "cannot read trace file (is it a directory?)");
        eof_ = true;
      }
      end_ += got;
      read_ += got;
      run_control::counters().input_done.store(read_, std::memory_order_relaxed);  // for the progress line's ETA
    }
    return end_ - pos_;
  }
  const char* data() const { return buf_.data() + pos_; }
  void consume(size_t n) { pos_ += n; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  FILE* f_ = nullptr;
  bool owned_ = false;
  bool eof_ = false;
  std::vector<char> buf_;
  size_t pos_ = 0, end_ = 0;
  uint64_t read_ = 0;
};

}  // namespace ptosim
