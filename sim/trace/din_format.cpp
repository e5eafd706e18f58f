#include "sim/trace/din_format.h"

#include <cstring>

namespace ptosim {
namespace {

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

inline int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Parses one din line [p, e). Returns false when the line holds no access.
class LineParser {
 public:
  LineParser(const char* p, const char* e, const std::string& path, uint64_t line)
      : begin_(p), p_(p), e_(e), path_(path), line_(line) {}

  [[noreturn]] void fail(const char* at, const std::string& msg) const {
    throw InputError({path_, int(line_), int(at - begin_) + 1}, "", msg);
  }

  void skip_blanks() {
    while (p_ < e_ && is_blank(*p_)) ++p_;
  }

  uint64_t hex(const char* what) {
    const char* start = p_;
    if (e_ - p_ >= 2 && p_[0] == '0' && (p_[1] == 'x' || p_[1] == 'X')) p_ += 2;
    uint64_t v = 0;
    int n = 0;
    for (int d; p_ < e_ && (d = hex_digit(*p_)) >= 0; ++p_, ++n) {
      if (n == 16) fail(start, std::string(what) + " has more than 64 bits");
      v = v << 4 | uint64_t(d);
    }
    if (n == 0 || (p_ < e_ && !is_blank(*p_) && *p_ != '#'))
      fail(start, std::string("expected a hexadecimal ") + what + ", got '" + token(start) + "'");
    return v;
  }

  std::string token(const char* start) const {
    const char* q = start;
    while (q < e_ && !is_blank(*q)) ++q;
    return std::string(start, q);
  }

  bool parse(Access& a, TraceCounts& counts) {
    skip_blanks();
    if (p_ == e_ || *p_ == '#') return false;
    const char* type_at = p_;
    std::string type = token(p_);
    p_ += type.size();
    if (type == "r" || type == "0") a.kind = AccessKind::Read;
    else if (type == "w" || type == "1") a.kind = AccessKind::Write;
    else if (type == "i" || type == "2") a.kind = AccessKind::Fetch;
    else if (type.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789") == std::string::npos) {
      ++counts.skipped[type];
      return false;
    } else {
      fail(type_at, "bad access type '" + type + "' (expected r, w or i)");
    }
    skip_blanks();
    if (p_ == e_ || *p_ == '#') fail(p_, "missing address");
    a.addr = hex("address");
    skip_blanks();
    a.bytes = 1;
    if (p_ < e_ && *p_ != '#') {
      const char* size_at = p_;
      a.bytes = hex("size");
      if (a.bytes == 0) fail(size_at, "size must be positive");
      skip_blanks();
      if (p_ < e_ && *p_ != '#') fail(p_, "unexpected text '" + token(p_) + "' after the size");
    }
    return true;
  }

 private:
  const char* begin_;
  const char* p_;
  const char* e_;
  const std::string& path_;
  uint64_t line_;
};

// The common shape "r 1a2b3c 4" (single-letter type, bare hex, single
// spaces): parsed without building strings. Anything else returns false and
// goes through LineParser, which also produces the error messages.
inline bool fast_line(const char* p, const char* e, Access& a) {
  static const struct Table {
    int8_t v[256];
    Table() {
      for (int i = 0; i < 256; ++i) v[i] = int8_t(hex_digit(char(i)));
    }
  } hex;
  if (e - p < 3 || p[1] != ' ') return false;
  switch (p[0]) {
    case 'r': case '0': a.kind = AccessKind::Read; break;
    case 'w': case '1': a.kind = AccessKind::Write; break;
    case 'i': case '2': a.kind = AccessKind::Fetch; break;
    default: return false;
  }
  p += 2;
  uint64_t addr = 0;
  const char* start = p;
  int d;
  while (p < e && (d = hex.v[uint8_t(*p)]) >= 0) addr = addr << 4 | uint64_t(d), ++p;
  if (p == start || p - start > 16) return false;
  uint64_t size = 1;
  if (p < e) {
    if (*p != ' ') return false;
    ++p;
    start = p;
    size = 0;
    while (p < e && (d = hex.v[uint8_t(*p)]) >= 0) size = size << 4 | uint64_t(d), ++p;
    if (p == start || p - start > 16 || size == 0) return false;
    if (p < e && !(*p == '\r' && p + 1 == e)) return false;
  }
  a.addr = addr;
  a.bytes = size;
  return true;
}

}  // namespace

void read_din(ByteSource& in, EventSink& sink, TraceCounts& counts) {
  static const struct Table {
    int8_t v[256];
    Table() {
      for (int i = 0; i < 256; ++i) v[i] = int8_t(hex_digit(char(i)));
    }
  } hex;
  Access a;
  auto deliver = [&] {
    ++counts.records;
    if (a.kind == AccessKind::Write) ++counts.writes;
    else if (a.kind == AccessKind::Read) ++counts.reads;
    else ++counts.fetches;
    sink.access(a);
  };
  uint64_t line_no = 0;
  size_t want = 1 << 16;
  for (;;) {
    size_t avail = in.fill(want);
    if (avail == 0) break;
    const char* d = in.data();
    const char* end = d + avail;
    const char* p = d;
    // One pass over the complete lines: every line up to `lim` ends in a
    // newline, so the digit loops below stop at it without a bounds check
    // (a newline is not a hex digit).
    const char* lim = end;  // just past the last newline (the last line is usually near the end)
    while (lim > d && lim[-1] != '\n') --lim;
    if (lim > d) {
      while (p < lim) {
        ++line_no;
        // The common shape "r 1a2b3c 4" (single-letter type, bare hex, single
        // spaces), exactly as fast_line accepts it; anything else goes through
        // LineParser, which also produces the error messages.
        const char* q = p;
        AccessKind kind;
        switch (q[0]) {
          case 'r': case '0': kind = AccessKind::Read; break;
          case 'w': case '1': kind = AccessKind::Write; break;
          case 'i': case '2': kind = AccessKind::Fetch; break;
          default: goto slow;
        }
        if (q[1] != ' ') goto slow;
        {
          q += 2;
          const char* s0 = q;
          uint64_t addr = 0, size = 1;
          int dg;
          while ((dg = hex.v[uint8_t(*q)]) >= 0) addr = addr << 4 | uint64_t(dg), ++q;
          if (q == s0 || q - s0 > 16) goto slow;
          if (*q == ' ') {
            ++q;
            s0 = q;
            size = 0;
            while ((dg = hex.v[uint8_t(*q)]) >= 0) size = size << 4 | uint64_t(dg), ++q;
            if (q == s0 || q - s0 > 16 || size == 0) goto slow;
            if (*q == '\r') ++q;
          }
          if (*q != '\n') goto slow;
          a.kind = kind;
          a.addr = addr;
          a.bytes = size;
          deliver();
          p = q + 1;
          continue;
        }
      slow: {
        const char* nl = static_cast<const char*>(std::memchr(p, '\n', size_t(lim - p)));
        if (fast_line(p, nl, a)) {
          deliver();
        } else {
          LineParser lp(p, nl, in.path(), line_no);
          if (lp.parse(a, counts)) deliver();
        }
        p = nl + 1;
      }
      }
    }
    const size_t used = size_t(p - d);
    in.consume(used);
    if (used == 0) {
      // No newline in the buffer: either the last line lacks one, or a line is
      // longer than the buffer.
      if (in.fill(avail + 1) > avail) { want = avail * 2; continue; }
      ++line_no;
      LineParser lp(d, end, in.path(), line_no);
      if (lp.parse(a, counts)) deliver();
      in.consume(avail);
      break;
    }
    want = 1 << 16;
  }
}

void DinWriter::access(const Access& a) {
  if (a.space != kGlobalSpace) {
    ++counts_.dropped_non_global;
    return;
  }
  static const char kinds[] = {'r', 'w', 'i', 'w'};  // a fill is a write to din
  std::fprintf(out_, "%c %llx %llx\n", kinds[int(a.kind)], (unsigned long long)a.addr, (unsigned long long)a.bytes);
  ++counts_.records;
}

}  // namespace ptosim
