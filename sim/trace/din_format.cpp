#include "sim/trace/din_format.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "sim/trace/din_fast_line.h"
#include "sim/trace/lane_cursor.h"

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
  // cores: the config's (an `@core` field at or past it is an error).
  LineParser(const char* p, const char* e, const std::string& path, uint64_t line, uint32_t cores = kMaxCores)
      : begin_(p), p_(p), e_(e), path_(path), line_(line), cores_(cores) {}

  [[noreturn]] void fail(const char* at, const std::string& msg) const {
    throw InputError({path_, int(line_), int(at - begin_) + 1}, "", msg);
  }

  void skip_blanks() {
    while (p_ < e_ && is_blank(*p_)) ++p_;
  }

  // `@N`: the core that issues the access (decimal), pto-sim's extension of
  // din for several cores; Dinero IV ignores it with the rest of the line.
  CoreId core() {
    const char* start = p_++;
    uint64_t v = 0;
    int n = 0;
    for (; p_ < e_ && *p_ >= '0' && *p_ <= '9'; ++p_, ++n)
      v = std::min<uint64_t>(v * 10 + uint64_t(*p_ - '0'), kMaxCores);  // past the last core: an error below
    if (n == 0 || (p_ < e_ && !is_blank(*p_) && *p_ != '#'))
      fail(start, "expected a core number after '@' (such as @0), got '" + shown(token(start)) + "'");
    if (v >= cores_)
      fail(start, "access by core " + (v >= kMaxCores ? token(start).substr(1) : std::to_string(v)) +
                      " but the config has " + std::to_string(cores_) + " core(s)");
    return CoreId(v);
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
      fail(start, std::string("expected a hexadecimal ") + what + ", got '" + shown(token(start)) + "'");
    return v;
  }

  // A token as a message shows it: control bytes escaped, at most 40 characters.
  static std::string shown(const std::string& t) {
    std::string out;
    for (unsigned char ch : t.substr(0, 40)) {
      if (ch >= 0x20 && ch < 0x7f) { out += char(ch); continue; }
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", ch);
      out += buf;
    }
    return t.size() > 40 ? out + "..." : out;
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
    // Dinero IV's record types, by letter (either case, as its -informat D
    // reads them) or by Dinero III's number.
    static const char kLetters[] = "rwimcv";
    static const AccessKind kKinds[] = {AccessKind::Read, AccessKind::Write,     AccessKind::Fetch,
                                        AccessKind::Misc, AccessKind::Copyback, AccessKind::Invalidate};
    const char* known = nullptr;
    if (type.size() == 1) {
      const char t = type[0] >= 'A' && type[0] <= 'Z' ? char(type[0] - 'A' + 'a') : type[0];
      if (t >= '0' && t <= '5') known = kLetters + (t - '0');
      else if (t != 0) known = std::strchr(kLetters, t);
    }
    if (known) {
      a.kind = kKinds[known - kLetters];
    // One character, as Dinero IV's types are: each distinct type gets a
    // counter, and a trace of long made-up types must not grow that map.
    } else if (type.size() == 1 && type.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789") == std::string::npos) {
      ++counts.skipped[type];
      return false;
    } else {
      fail(type_at, "bad access type '" + shown(type) + "' (expected r, w, i, m, c or v)");
    }
    skip_blanks();
    if (p_ == e_ || *p_ == '#') fail(p_, "missing address");
    const char* addr_at = p_;
    a.addr = hex("address");
    skip_blanks();
    a.bytes = 1;
    a.core = 0;
    if (p_ < e_ && *p_ != '#' && *p_ != '@') {
      const char* size_at = p_;
      a.bytes = hex("size");
      // Size 0 on a copyback or invalidate record means the whole cache.
      if (a.bytes == 0 && !is_control(a.kind)) fail(size_at, "size must be positive");
      if (a.bytes > kMaxAccessBytes) fail(size_at, "size larger than one access may be (1 GiB)");
      // The rest of the line is ignored, as Dinero IV ignores it (p2d writes
      // `i 130 4	i1`: a tag per record), except pto-sim's core field.
      skip_blanks();
    }
    if (p_ < e_ && *p_ == '@') a.core = core();
    if (!access_in_range(a.addr, a.bytes)) fail(addr_at, "the access runs past the end of the 64-bit address space");
    return true;
  }

 private:
  const char* begin_;
  const char* p_;
  const char* e_;
  const std::string& path_;
  uint64_t line_;
  uint32_t cores_;
};

}  // namespace

bool parse_din_line(const char* p, const char* e, const std::string& path, uint64_t line, Access& a,
                    TraceCounts& counts) {
  return LineParser(p, e, path, line).parse(a, counts);
}

namespace {

// read_din's output to a sink without a lane; into one with a lane (the
// event pipe's chunk, a BatchSink's buffer) it writes with a LaneCursor.
struct SinkOut {
  explicit SinkOut(EventSink& s) : sink(s) {}
  EventSink& sink;
  Access a;
  void put(uint64_t addr, uint64_t bytes, AccessKind kind, CoreId core = 0) {
    a.addr = addr;
    a.bytes = bytes;
    a.kind = kind;
    a.core = core;
    sink.access(a);
  }
};

// Out (SinkOut or LaneCursor) is made here, a local whose write
// position can stay in registers.
// No din line is anywhere near this long; a file without newlines (binary
// data) should fail at its first line, not be buffered whole.
constexpr size_t kMaxLine = size_t(1) << 20;

// A write where the config's global space is read-only, at `line`. Out of
// line, so that the loop's counters need no home in memory for it.
[[noreturn]] __attribute__((noinline)) void misfit(const std::string& path, uint64_t line, const TraceRules& rules,
                                                   const Access& write) {
  throw InputError({path, int(line), 1}, "", rules.why_not(write));
}

template <class Out, class Target>
void read_din_into(ByteSource& in, Target& target, TraceCounts& counts, const TraceRules& rules) {
  Out out(target);
  // din is all global accesses by core 0: the one way it can misfit a config
  // is a write where global is read-only.
  Access write;
  write.kind = AccessKind::Write;
  const unsigned misfit_kind = rules.fits(write) ? 3 : unsigned(AccessKind::Write);  // 3: no kind misfits
  // The fast path's lines of each kind, in registers (a counter in memory,
  // incremented line after line, is a chain of store-to-load forwards).
  uint64_t fast_reads = 0, fast_writes = 0, fast_fetches = 0;
  uint64_t kinds[7] = {0, 0, 0, 0, 0, 0, 0};  // the general path's, by AccessKind (no fills)
  uint64_t other_lines = 0;                   // blank, comment and skipped lines
  auto records = [&] {
    uint64_t n = fast_reads + fast_writes + fast_fetches;
    for (uint64_t k : kinds) n += k;
    return n;
  };
  // Line numbers are needed only for messages: derived from the counts, so
  // that the fast path does not count lines.
  auto line_no = [&] { return records() + other_lines + 1; };
  Access a;
  // The general parser on [p, e): whether the line holds an access (in `a`).
  auto general = [&](const char* p, const char* e) {
    if (LineParser(p, e, in.path(), line_no(), rules.cores).parse(a, counts)) {
      if (unsigned(a.kind) == misfit_kind) misfit(in.path(), line_no(), rules, write);
      ++kinds[int(a.kind)];
      return true;
    }
    ++other_lines;
    return false;
  };
  din::FastLineParser fast;
  size_t want = 1 << 16;
  for (;;) {
    size_t avail = in.fill(want);
    if (avail == 0) break;
    const char* d = in.data();
    const char* end = d + avail;
    const char* p = d;
    // Every line before `lim` ends in a newline, which the line parsers rely
    // on; the padding after the available bytes covers their reads past the
    // last one, and newlines() reading up to 63 bytes past `lim`.
    const char* lim = end;  // just past the last newline (usually near the end)
    while (lim > d && lim[-1] != '\n') --lim;
    const char* block = p;  // the newlines of [block, block + 64) not yet taken are in `nls`
    uint64_t nls = p < lim ? din::newlines(block) : 0;
    while (p < lim) {
      while (nls == 0) {
        block += 64;
        nls = din::newlines(block);
      }
      const char* nl = block + __builtin_ctzll(nls);  // the end of the line at p (lim: there is one)
      nls &= nls - 1;
      uint64_t addr, bytes;
      unsigned kind;
      // The fast parser accepts no line with a newline inside: what it
      // accepts ends at nl.
      if (fast.parse(p, addr, bytes, kind)) {
        if (kind == misfit_kind) misfit(in.path(), line_no(), rules, write);
        fast_reads += kind == 0;
        fast_writes += kind == 1;
        fast_fetches += kind == 2;
        out.put(addr, bytes, AccessKind(kind));
      } else if (general(p, nl)) {
        out.put(a.addr, a.bytes, a.kind, a.core);
      }
      p = nl + 1;
    }
    const size_t used = size_t(p - d);
    in.consume(used);
    if (used == 0) {
      // No newline in the buffer: either the last line lacks one, or a line is
      // longer than the buffer.
      if (avail >= kMaxLine) throw InputError({in.path(), int(line_no()), 0}, "", "line longer than 1 MiB");
      if (in.fill(avail + 1) > avail) { want = avail * 2; continue; }
      if (general(d, end)) out.put(a.addr, a.bytes, a.kind, a.core);
      in.consume(avail);
      break;
    }
    want = 1 << 16;
  }
  counts.reads += fast_reads + kinds[0];
  counts.writes += fast_writes + kinds[1];
  counts.fetches += fast_fetches + kinds[2];
  counts.misc += kinds[int(AccessKind::Misc)];
  counts.copybacks += kinds[int(AccessKind::Copyback)];
  counts.invalidates += kinds[int(AccessKind::Invalidate)];
  counts.records += records();
}

}  // namespace

void read_din(ByteSource& in, EventSink& sink, TraceCounts& counts, const TraceRules& rules) {
  if (sink.lane())
    read_din_into<LaneCursor>(in, sink, counts, rules);
  else
    read_din_into<SinkOut>(in, sink, counts, rules);
}

void DinWriter::access(const Access& a) {
  if (a.space != kGlobalSpace) {
    ++counts_.dropped_non_global;
    return;
  }
  static const char kinds[] = {'r', 'w', 'i', 'w', 'm', 'c', 'v'};  // a fill is a write to din
  if (a.core)  // pto-sim's core field (read_din); core 0's records stay plain Dinero IV
    std::fprintf(out_, "%c %llx %llx @%u\n", kinds[int(a.kind)], (unsigned long long)a.addr,
                 (unsigned long long)a.bytes, unsigned(a.core));
  else
    std::fprintf(out_, "%c %llx %llx\n", kinds[int(a.kind)], (unsigned long long)a.addr, (unsigned long long)a.bytes);
  ++counts_.records;
}

}  // namespace ptosim
