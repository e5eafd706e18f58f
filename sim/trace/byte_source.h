#pragma once
// Buffered reading of a file or stdin in large blocks, with a lookahead that
// parsers can index directly (no per-byte virtual call or stdio lock).
// kPadding readable bytes (of unspecified value) follow the buffered ones,
// so that a parser may load whole words near the end without a bounds check.
//
// A regular file is read once: its bytes are parsed straight from a mapped
// window of it (no copy into a buffer; read() spent as long copying the
// benchmark trace out of the page cache as parsing a third of it) and
// hashed as they are exposed, so that the report's source_hash needs no
// second pass over the file. Only a window is mapped at a time: mapped pages
// count in the RSS, and a trace may be gigabytes. Pipes, FIFOs, stdin, and
// files that cannot be mapped are read into a buffer (and hashed only if
// they are regular files).
#include <cstdio>
#include <string>
#include <vector>

#include "sim/common/content_hash.h"
#include "sim/common/error.h"

namespace ptosim {

class ByteSource {
 public:
  static constexpr size_t kPadding = 64;

  explicit ByteSource(const std::string& path);
  // An open stream (not closed here), named `path` in messages: the fuzz
  // targets read from memory through fmemopen.
  // Small inputs: a small buffer to start with (it grows as a line needs).
  ByteSource(FILE* f, const std::string& path);
  ~ByteSource();
  ByteSource(const ByteSource&) = delete;
  ByteSource& operator=(const ByteSource&) = delete;

  // Ensures at least `n` bytes are available after data() (fewer only at
  // EOF). Returns the number available; it may be many more than n.
  size_t fill(size_t n) {
    if (size_t(end_ - pos_) >= n) return size_t(end_ - pos_);
    return refill(n);
  }
  const char* data() const { return pos_; }
  void consume(size_t n) { pos_ += n; }
  const std::string& path() const { return path_; }

  // hash_file(path) of the file, computed from the bytes read: "" unless
  // the source is a regular file that was read to its end (a reader that
  // stopped early leaves the hash to hash_file).
  std::string file_hash() const;

 private:
  size_t refill(size_t n);
  size_t refill_mapped(size_t n);
  size_t refill_buffered(size_t n);
  void leave_mapping();  // to buffered reading, from the end of the bytes exposed so far (copied)
  void unmap();
  void progress();

  std::string path_;
  FILE* f_ = nullptr;
  bool owned_ = false;
  bool eof_ = false;
  bool regular_ = false;  // a regular file (whose bytes are hashed)

  // The bytes [pos_, end_) are available, kPadding more readable after them.
  const char* pos_ = nullptr;
  const char* end_ = nullptr;

  // Mapped mode (a regular file that maps): the window [map_off_,
  // map_off_ + map_len_) of the file at map_. Once the rest of the file is
  // too short for a window with padding, it is copied into buf_ and read on
  // through f_ (which also sees a file that grew meanwhile).
  bool mapped_ = false;
  int fd_ = -1;
  uint64_t size_ = 0;
  char* map_ = nullptr;
  uint64_t map_off_ = 0;
  size_t map_len_ = 0;

  // Buffered mode.
  std::vector<char> buf_;

  uint64_t delivered_ = 0;  // file offset of end_; the bytes before it are hashed (regular files)
  WordHash64 hash_;
};

}  // namespace ptosim
