// The din reader: the fast line parsers accept exactly the common shape and
// agree with the general parser on it; files replay to the same events,
// counts and error messages directly and through the event pipe, mapped
// (a regular file) and streamed; the bytes read hash as hash_file hashes them.
#include <gtest/gtest.h>

#include "tests/support/temp_dir.h"

#include <fstream>
#include <random>
#include <regex>

#include "sim/common/content_hash.h"
#include "sim/common/error.h"
#include "sim/trace/din_fast_line.h"
#include "sim/trace/din_format.h"
#include "sim/trace/event_pipe.h"

using namespace ptosim;

namespace {

struct Parsed {
  bool ok = false;
  uint64_t addr = 0, bytes = 0;
  unsigned kind = 0;
};

Parsed general(const std::string& line) {
  Parsed r;
  Access a;
  TraceCounts counts;
  try {
    r.ok = parse_din_line(line.data(), line.data() + line.size(), "t.din", 1, a, counts);
  } catch (const InputError&) {
    return r;
  }
  r.addr = a.addr;
  r.bytes = a.bytes;
  r.kind = unsigned(a.kind);
  return r;
}

// What the fast parsers must accept: the common shape with a nonzero size.
bool common_shape(const std::string& line) {
  static const std::regex shape("[rwi012] [0-9a-fA-F]{1,15}( [0-9a-fA-F]{1,15})?\r?");
  if (!std::regex_match(line, shape)) return false;
  const size_t space = line.find(' ', 2);
  return space == std::string::npos || general(line).bytes != 0;
}

enum class Which { Fast, Swar, Sse2 };

// Runs one fast parser on `line` + '\n', followed by `after` (what a parser
// reading too far would see) and padding. Checks that an accepted line
// agrees with the general parser and ends at its newline; returns whether
// it was accepted.
bool fast_agrees(Which which, const std::string& line, const std::string& after) {
  std::string buf = line + "\n" + after + std::string(64, '\n');
  uint64_t addr = 0, bytes = 0;
  unsigned kind = 0;
  const char* next = nullptr;
  din::FastLineParser fast;
  switch (which) {
    case Which::Fast: next = fast.parse(buf.data(), addr, bytes, kind); break;
    case Which::Swar: next = din::swar_line(buf.data(), addr, bytes, kind); break;
    case Which::Sse2:
#if defined(__SSE2__)
      next = din::Sse2LineParser().parse(buf.data(), addr, bytes, kind);
#endif
      break;
  }
  if (!next) return false;
  const Parsed g = general(line);
  EXPECT_TRUE(g.ok) << '"' << line << "\" accepted by the fast path only";
  EXPECT_EQ(addr, g.addr) << line;
  EXPECT_EQ(bytes, g.bytes) << line;
  EXPECT_EQ(kind, g.kind) << line;
  EXPECT_EQ(next, buf.data() + line.size() + 1) << line;
  return true;
}

void check_line(const std::string& line) {
  for (const char* after : {"", "0", "1 2\n", "ffffffffffffffffffff", " 4\n", "\r\n"}) {
    const bool expected = common_shape(line);
    EXPECT_EQ(fast_agrees(Which::Fast, line, after), expected) << '"' << line << '"';
    EXPECT_EQ(fast_agrees(Which::Swar, line, after), expected) << '"' << line << '"';
    fast_agrees(Which::Sse2, line, after);  // may leave long lines to swar_line
  }
}

std::string write_file(const std::string& text) {
  static int n = 0;
  const std::string path = ptosim::test::temp_path("din_format_test_" + std::to_string(n++) + ".din");
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

struct Recorder : EventSink {
  std::vector<Access> events;
  void access(const Access& a) override { events.push_back(a); }
  void compute(const Compute&) override { ADD_FAILURE() << "din has no compute records"; }
};

struct Replay {
  std::vector<Access> events;
  TraceCounts counts;
  std::string error;  // the InputError's message, if any
};

Replay replay_direct(const std::string& path) {
  Replay r;
  Recorder rec;
  try {
    r.counts = replay_trace(path, rec);
  } catch (const InputError& e) {
    r.error = e.what();
  }
  r.events = rec.events;
  return r;
}

Replay replay_piped(const std::string& path) {
  Replay r;
  Recorder rec;
  try {
    EventPipe pipe([&](EventSink& s) { r.counts = replay_trace(path, s); });
    pipe.drain(rec);
  } catch (const InputError& e) {
    r.error = e.what();
  }
  r.events = rec.events;
  return r;
}

std::string show(const std::vector<Access>& events) {
  std::string s;
  for (const Access& a : events)
    s += std::to_string(int(a.kind)) + ":" + std::to_string(a.addr) + ":" + std::to_string(a.bytes) + " ";
  return s;
}

// Both ways of replaying `text` give the same events and counts, and the
// error `message` (after "path:"), or none if it is empty.
Replay replay(const std::string& text, const std::string& message = "") {
  const std::string path = write_file(text);
  Replay direct = replay_direct(path), piped = replay_piped(path);
  EXPECT_EQ(direct.error, message.empty() ? "" : path + ":" + message) << text;
  EXPECT_EQ(piped.error, direct.error) << text;
  EXPECT_EQ(show(piped.events), show(direct.events)) << text;
  if (message.empty()) {
    EXPECT_EQ(piped.counts.records, direct.counts.records);
    EXPECT_EQ(piped.counts.skipped, direct.counts.skipped);
  }
  for (const Access& a : direct.events)
    EXPECT_TRUE(a.space == 0 && a.tensor == 0 && a.region == 0 && a.elem_bytes == 0 && a.stride == 0);
  return direct;
}

}  // namespace

TEST(DinFastLine, AcceptsTheCommonShapes) {
  for (const char* line : {"r 10000000 4", "w 7ffd12345678 40", "i 0", "2 abcdef", "0 ABCdef 1", "1 1 f\r",
                           "r 123456789abcdef", "r 123456789abcdef 40000000", "w 7ffd12345678 4\r"}) {
    EXPECT_TRUE(common_shape(line)) << line;
    check_line(line);
  }
#if defined(__SSE2__)
  // The lines of the benchmark and of typical 64-bit traces fit its window.
  for (const char* line : {"r 10000000 4", "w 7ffd12345678 40", "i 0", "1 1 f\r", "r 123456789abcdef"})
    EXPECT_TRUE(fast_agrees(Which::Sse2, line, "")) << line;
#endif
}

TEST(DinFastLine, LeavesEverythingElseToTheGeneralParser) {
  for (const char* line :
       {"", "r", "r ", "r  10 4", "r\t10 4", "r 10\t4", "r 10  4", "r 10 4 ", "r 10 4 5", "r 0x10 4", "r 10 0x4",
        "r 0X10", "r 10 0", "r 10 00", "r 1000000000000000", "r 10000000000000000 4", "r 10 1000000000000000",
        "R 10 4", "x 10 4", "m 10 4", "rr 10 4", " r 10 4", "r 10 4#c", "r 10#c", "# r 10 4", "r 1g 4", "r 10 g",
        "r 1: 4", "r 10 @", "r 10 `", "r 1/ 4", "r 10 4\r\r", "r 10\r4", "r 10 \r", "r \x80", "r 1\x81 4",
        "r 10 4\x01", "r \xff\xff", "3 10 4", "r 10 4 \r", "r 10 40000001", "r 10 123456789abcdef"}) {
    EXPECT_FALSE(common_shape(line)) << line;
    check_line(line);
  }
}

TEST(DinFastLine, AgreesOnRandomLines) {
  std::mt19937 rng(12345);
  auto pick = [&](std::initializer_list<const char*> xs) { return std::string(xs.begin()[rng() % xs.size()]); };
  auto digits = [&](int max) {
    static const std::string hex = "0123456789abcdefABCDEF", junk = "g:@`/G \x80\xff\x01";
    std::string s;
    const int n = int(rng() % (max + 1));
    for (int i = 0; i < n; ++i) s += rng() % 30 ? hex[rng() % hex.size()] : junk[rng() % junk.size()];
    return s;
  };
  int common = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string line = pick({"r", "w", "i", "0", "1", "2", "r", "w", "R", "m", "3", ""});
    line += pick({" ", " ", " ", " ", " ", " ", "  ", "\t", ""});
    line += pick({"", "", "", "", "", "", "", "", "0x", "0X"}) + digits(18);
    if (rng() % 3)
      line += pick({" ", " ", " ", " ", " ", " ", "\t", "  "}) + pick({"", "", "", "", "", "0x"}) + digits(17);
    line += pick({"", "", "", "", "", "", "\r", "\r", " ", "#c", " \r", "\r\r"});
    check_line(line);
    common += common_shape(line);
  }
  EXPECT_GT(common, 1000);  // both outcomes are well represented (about 1800 of the 20000 are common)
  EXPECT_LT(common, 19000);
}

TEST(DinReader, ReplaysLinesOfEveryShape) {
  const Replay r = replay(
      "r 10000000 4\n"
      "w 7FFD1234 8\r\n"
      "i 400000\n"
      "0 0x10 0X20\n"
      "1\t20\t4  \n"
      "  2 30 1 # fetch\n"
      "# comment\n"
      "\n"
      "m 40 4\n"
      "c 0\n"
      "r abcdef0123456789 10\n"
      "w 5");  // no newline at the end
  EXPECT_EQ(show(r.events),
            "0:268435456:4 1:2147291700:8 2:4194304:1 0:16:32 1:32:4 2:48:1 4:64:4 5:0:1 "
            "0:12379813738877118345:16 "
            "1:5:1 ");
  EXPECT_EQ(r.counts.records, 10u);
  EXPECT_EQ(r.counts.reads, 3u);
  EXPECT_EQ(r.counts.writes, 3u);
  EXPECT_EQ(r.counts.fetches, 2u);
  EXPECT_EQ(r.counts.misc, 1u);
  EXPECT_EQ(r.counts.copybacks, 1u);
  EXPECT_TRUE(r.counts.skipped.empty());
}

// Every record type Dinero IV simulates, by letter (either case) and by
// Dinero III's number; the rest of a line after the size is ignored, as
// Dinero IV ignores it (p2d tags every record: `i 130 4\ti1`); a copyback
// or invalidate of size 0 is of the whole cache. Other types are skipped.
TEST(DinReader, DineroRecordTypesAndTextAfterTheSize) {
  const Replay r = replay(
      "i 130 4\ti1\n"
      "r 10 4 5\n"
      "W 20 8 d7 more words\n"
      "M 30 4\n"
      "m 31 2\tsyscall 2\n"
      "c 40 4\n"
      "C 0 0\n"
      "v 50 1\n"
      "V 0 0\n"
      "3 60 4\n"
      "4 70 4\n"
      "5 80 4\n"
      "x 90 4\n");
  EXPECT_EQ(show(r.events), "2:304:4 0:16:4 1:32:8 4:48:4 4:49:2 5:64:4 5:0:0 6:80:1 6:0:0 4:96:4 5:112:4 6:128:4 ");
  EXPECT_EQ(r.counts.misc, 3u);
  EXPECT_EQ(r.counts.copybacks, 3u);
  EXPECT_EQ(r.counts.invalidates, 3u);
  EXPECT_EQ(r.counts.records, 12u);
  EXPECT_EQ(r.counts.skipped, (std::map<std::string, uint64_t>{{"x", 1}}));
}

TEST(DinReader, MalformedLinesKeepTheirMessages) {
  replay("r\n", "1:2: missing address");
  replay("r 10 4x\n", "1:6: expected a hexadecimal size, got '4x'");
  replay("r 10 0\n", "1:6: size must be positive");
  replay("r 10 4\n? 10\n", "2:1: bad access type '?' (expected r, w, i, m, c or v)");
  replay("r 11112222333344445 4\n", "1:3: address has more than 64 bits");
  replay("r 0 4\nr zz 4\n", "2:3: expected a hexadecimal address, got 'zz'");
  replay("r 10 1g\n", "1:6: expected a hexadecimal size, got '1g'");
  replay("# c\n\nm 10\nr 10 4\r\nw 20 8\nr 0x 4\n", "6:3: expected a hexadecimal address, got '0x'");
  replay("r 10 4\nw 20", "");
  replay("r 10 4\nw 20 0", "2:6: size must be positive");  // the last line, without newline
  // A cache splits an access per line: sizes near 2^64 would never end.
  replay("r 0 ffffffffffffffff\n", "1:5: size larger than one access may be (1 GiB)");
  replay("r 0 40000001\n", "1:5: size larger than one access may be (1 GiB)");  // also past the fast path
  replay("w 10 4\nr 0 1234567890\n", "2:5: size larger than one access may be (1 GiB)");
  replay("r ffffffffffffffff 2\n", "1:3: the access runs past the end of the 64-bit address space");
  replay("r ffffffffffffff00 100\n");
  EXPECT_EQ(replay("r 0 40000000\nr fffffffffffffffc 4\n").counts.records, 2u);  // the largest, the last bytes
}

// A write where the config's global space is a read-only memory fails at
// its line, on the fast path and the general one, direct and piped.
TEST(DinReader, WritesToAReadOnlyGlobalSpaceFailAtTheirLine) {
  TraceRules rules;
  rules.spaces = {"global"};
  rules.writable = {false};
  for (const std::string& text : {std::string("r 10 4\n# c\nw 20 4\n"), std::string("r 10 4\n# c\nw 0x20 4\n")}) {
    const std::string path = write_file(text);
    Recorder rec;
    try {
      replay_trace(path, rec, rules);
      ADD_FAILURE() << text;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), path + ":3:1: write to the read-only space 'global'");
    }
    EXPECT_EQ(rec.events.size(), 1u);
    try {
      EventPipe pipe([&](EventSink& s) { replay_trace(path, s, rules); });
      Recorder sink;
      pipe.drain(sink);
      ADD_FAILURE() << text;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), path + ":3:1: write to the read-only space 'global'");
    }
  }
  Recorder rec;
  EXPECT_EQ(replay_trace(write_file("r 10 4\ni 20\n"), rec, rules).records, 2u);  // reads and fetches fit
}

// A file without newlines (binary data) fails at its first long line instead
// of being buffered whole.
TEST(DinReader, LinesOfAMebibyteOrMoreAreRefused) {
  replay("r 10 4\n" + std::string(size_t(1) << 21, '\0'), "2: line longer than 1 MiB");
  replay("r 10 4\n" + std::string(size_t(1) << 21, ' ') + "\n", "2: line longer than 1 MiB");
  EXPECT_EQ(replay("r 10 4" + std::string(size_t(1) << 19, ' ') + "\nw 20 4\n").counts.records, 2u);
}

TEST(DinReader, CountsLinesAcrossBufferRefills) {
  // Well over the reader's 64 KiB blocks, with slow lines mixed in.
  std::string text;
  int line = 0;
  for (int i = 0; i < 20000; ++i) {
    if (i % 1000 == 7) text += "# slow\n";
    else if (i % 777 == 5) text += "r\t" + std::to_string(i) + "\n";
    else text += "w 1" + std::to_string(i) + " 4\n";
    ++line;
  }
  const Replay ok = replay(text);
  EXPECT_EQ(ok.counts.records, 20000u - 20u);
  replay(text + "r 10 4\nw 10 0\n", std::to_string(line + 2) + ":6: size must be positive");
  // The events before the bad line arrive, also through the pipe.
  const Replay bad =
      replay(text + "r 10 4\n?\n", std::to_string(line + 2) + ":1: bad access type '?' (expected r, w, i, m, c or v)");
  EXPECT_EQ(bad.events.size(), 20000u - 20u + 1);
}

namespace {

// The events as one number (a long trace's events would not fit a vector
// comfortably twice).
struct Digest : EventSink {
  uint64_t n = 0;
  Fnv1a64 h;
  void access(const Access& a) override {
    ++n;
    const uint64_t w[3] = {a.addr, a.bytes, uint64_t(a.kind)};
    h.add(w, sizeof w);
  }
  void compute(const Compute&) override { ADD_FAILURE() << "din has no compute records"; }
};

// `path` read as a stream (ByteSource on an open FILE: buffered, never mapped).
TraceCounts read_streamed(const std::string& path, EventSink& sink) {
  FILE* f = std::fopen(path.c_str(), "rb");
  EXPECT_TRUE(f);
  TraceCounts counts;
  {
    ByteSource in(f, path);
    read_din(in, sink, counts);
    EXPECT_EQ(in.file_hash(), "");  // a stream has no hash of its own
  }
  std::fclose(f);
  return counts;
}

}  // namespace

// A trace longer than the reader's 4 MiB mapped window, of every line shape
// (long lines, CRLF, tabs, text after the size, hex in either case, records
// the general parser takes), so that lines straddle its 256 KiB steps and
// the window's end: mapped and streamed give the same events and counts, and
// the hash taken while reading is hash_file's.
TEST(DinReader, MappedWindowsGiveTheStreamsEvents) {
  std::mt19937_64 rng(7);
  std::string text;
  const char* shapes[] = {"r %llx 4\n", "w %llX 8\r\n", "i %llx\n", "r 0x%llx 4\n", "m %llx 2\ttag\n",
                          "1\t%llx\t4\n", "r %llx 4 text after the size\n", "# comment %llx\n", "2 %llx 40\n"};
  char line[64];
  while (text.size() < (size_t(9) << 20)) {
    const unsigned k = unsigned(rng() % 40);
    if (k < 9) {
      std::snprintf(line, sizeof line, shapes[k], (unsigned long long)(rng() >> (rng() % 64)));
      text += line;
    } else if (k == 9) {
      text += "w 10 4 " + std::string(size_t(rng() % 3000), 'z') + "\n";  // long, text after the size
    } else {
      std::snprintf(line, sizeof line, "r %llx 4\n", (unsigned long long)(rng() & 0xffffffffff));
      text += line;
    }
  }
  for (const std::string& t : {text, text + "w 5"}) {  // with and without a newline at the end
    const std::string path = write_file(t);
    Digest mapped, streamed;
    const TraceCounts m = replay_trace(path, mapped);
    const TraceCounts s = read_streamed(path, streamed);
    EXPECT_GT(mapped.n, 100000u);
    EXPECT_EQ(mapped.n, streamed.n);
    EXPECT_EQ(mapped.h.hex(), streamed.h.hex());
    EXPECT_EQ(m.records, s.records);
    EXPECT_EQ(m.reads, s.reads);
    EXPECT_EQ(m.writes, s.writes);
    EXPECT_EQ(m.fetches, s.fetches);
    EXPECT_EQ(m.misc, s.misc);
    EXPECT_EQ(m.source_hash, hash_file(path));
    EXPECT_FALSE(m.source_hash.empty());
  }
}

// Every byte of a file at the sizes around the reader's boundaries (its
// padding, pages, steps and window), taken in irregular amounts: the bytes
// in order, and their hash as hash_file gives it.
TEST(ByteSourceTest, MappedBytesAndHashAtEverySize) {
  std::mt19937 rng(3);
  for (size_t size : {size_t(0), size_t(1), size_t(63), size_t(64), size_t(65), size_t(4095), size_t(4096),
                      size_t(4097), size_t(256) << 10, (size_t(256) << 10) + 65, (size_t(4) << 20) + 1,
                      (size_t(8) << 20) - 1, (size_t(8) << 20) + 4096 + 7}) {
    std::string bytes(size, '\0');
    for (char& c : bytes) c = char(rng());
    const std::string path = write_file(bytes);
    ByteSource in(path);
    std::string got;
    for (;;) {
      const size_t want = 1 + rng() % 70000;
      const size_t avail = in.fill(want);
      if (avail == 0) break;
      ASSERT_TRUE(avail >= want || in.fill(avail + 1) == avail) << size;
      const size_t take = std::min(avail, size_t(1 + rng() % (2 * want)));
      got.append(in.data(), take);
      in.consume(take);
    }
    EXPECT_TRUE(got == bytes) << size;
    EXPECT_EQ(in.file_hash(), hash_file(path)) << size;
  }
  // Read only in part: no hash (the run falls back to hash_file).
  const std::string path = write_file(std::string(100000, 'x'));
  ByteSource in(path);
  in.fill(10);
  EXPECT_EQ(in.file_hash(), "");
}
