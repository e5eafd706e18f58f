#include "sim/trace/byte_source.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "sim/common/error.h"
#include "sim/common/run_control.h"

namespace ptosim {

namespace {

// A window is mapped at a time (its pages count in the RSS), and exposed to
// the parser a step at a time, each step hashed just before it is parsed:
// a step fits in the host's L2, so the parser reads what the hash brought in.
constexpr size_t kWindow = size_t(4) << 20;
constexpr size_t kStep = size_t(256) << 10;

}  // namespace

ByteSource::ByteSource(const std::string& path) : path_(path) {
  if (path == "-") {
    f_ = stdin;
  } else {
    f_ = std::fopen(path.c_str(), "rb");
    if (!f_) throw InputError({path, 0, 0}, "", "cannot open trace file");
    owned_ = true;
  }
  struct stat st;
  fd_ = fileno(f_);
  if (fd_ >= 0 && ::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode)) {
    // Standard input redirected from a file is mapped too, but has no hash
    // (hash_file has none for "-").
    regular_ = path != "-";
    mapped_ = true;
    size_ = uint64_t(st.st_size);
    // Where the stream stands (a shell may hand over a file read in part).
    const off_t at = ::lseek(fd_, 0, SEEK_CUR);
    if (at < 0 || (path == "-" && at != 0)) mapped_ = false;
    if (regular_) run_control::counters().input_total.store(size_, std::memory_order_relaxed);
  }
  buf_.resize((size_t(1) << 20) + kPadding);
  pos_ = end_ = buf_.data();
}

ByteSource::ByteSource(FILE* f, const std::string& path) : path_(path), f_(f) {
  buf_.resize((1 << 12) + kPadding);
  pos_ = end_ = buf_.data();
}

ByteSource::~ByteSource() {
  unmap();
  if (owned_) std::fclose(f_);
}

void ByteSource::unmap() {
  if (map_) ::munmap(map_, map_len_);
  map_ = nullptr;
}

void ByteSource::progress() {
  run_control::counters().input_done.store(delivered_, std::memory_order_relaxed);  // for the progress line's ETA
}

size_t ByteSource::refill(size_t n) {
  if (mapped_) {
    const size_t got = refill_mapped(n);
    if (mapped_) return got;
  }
  return refill_buffered(n);
}

void ByteSource::leave_mapping() {
  const size_t have = size_t(end_ - pos_);
  if (buf_.size() < have + kPadding) buf_.resize(have + kPadding);
  std::memmove(buf_.data(), pos_, have);
  unmap();
  mapped_ = false;
  pos_ = buf_.data();
  end_ = pos_ + have;
  if (::fseeko(f_, off_t(delivered_), SEEK_SET) != 0) throw InputError({path_, 0, 0}, "", "cannot read trace file");
}

size_t ByteSource::refill_mapped(size_t n) {
  const uint64_t at = delivered_ - uint64_t(end_ - pos_);  // file offset of pos_
  if (at + n + kPadding > size_) {
    // The file's last bytes: read on into the buffer, from where the
    // exposed (and hashed) bytes end.
    leave_mapping();
    return 0;
  }
  if (!map_ || at + n + kPadding > map_off_ + map_len_) {
    static const uint64_t page = uint64_t(::sysconf(_SC_PAGESIZE));
    const uint64_t start = at / page * page;
    size_t len = std::max(kWindow, size_t(at - start) + n + kPadding);
    len = size_t(std::min<uint64_t>(len, size_ - start));
    // The old window goes first: two populated windows at once would be
    // the peak RSS.
    unmap();
    void* m = ::mmap(nullptr, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd_, off_t(start));
    if (m == MAP_FAILED) {
      // Read the rest instead: the bytes exposed already (and hashed) again
      // into the buffer, then on from their end.
      const size_t have = size_t(delivered_ - at);
      if (buf_.size() < have + kPadding) buf_.resize(have + kPadding);
      if (::pread(fd_, buf_.data(), have, off_t(at)) != ssize_t(have) ||
          ::fseeko(f_, off_t(delivered_), SEEK_SET) != 0)
        throw InputError({path_, 0, 0}, "", "cannot read trace file");
      mapped_ = false;
      pos_ = buf_.data();
      end_ = pos_ + have;
      return 0;
    }
    ::madvise(m, len, MADV_SEQUENTIAL);
    map_ = static_cast<char*>(m);
    map_off_ = start;
    map_len_ = len;
    pos_ = map_ + (at - start);
    end_ = map_ + (delivered_ - start);
  }
  // Expose a step more (at least n), short of the window's last kPadding bytes.
  const uint64_t limit = map_off_ + map_len_ - kPadding;
  const uint64_t upto = std::min<uint64_t>(limit, std::max<uint64_t>(at + n, delivered_ + kStep));
  const char* new_end = map_ + (upto - map_off_);
  if (regular_) hash_.add(end_, size_t(new_end - end_));
  delivered_ = upto;
  end_ = new_end;
  progress();
  return size_t(end_ - pos_);
}

size_t ByteSource::refill_buffered(size_t n) {
  const size_t have = size_t(end_ - pos_);
  if (have >= n) return have;
  std::memmove(buf_.data(), pos_, have);  // pos_ is in buf_ here
  if (buf_.size() < n + kPadding) buf_.resize(n + kPadding);
  char* b = buf_.data();
  size_t e = have;
  while (e < n && !eof_) {
    const size_t got = std::fread(b + e, 1, buf_.size() - kPadding - e, f_);
    if (got == 0) {
      if (std::ferror(f_)) throw InputError({path_, 0, 0}, "", "cannot read trace file (is it a directory?)");
      eof_ = true;
    }
    if (regular_) hash_.add(b + e, got);
    e += got;
    delivered_ += got;
    progress();
  }
  pos_ = b;
  end_ = b + e;
  return e;
}

std::string ByteSource::file_hash() const {
  return regular_ && eof_ ? std::string(kWordHashPrefix) + hash_.hex() : std::string();
}

}  // namespace ptosim
