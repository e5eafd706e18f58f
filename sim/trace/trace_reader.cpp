#include <cstdio>
#include <cstring>

#include "sim/common/atomic_file.h"
#include "sim/trace/din_format.h"
#include "sim/trace/native_format.h"

namespace ptosim {

std::string TraceRules::why_not(const Access& a) const {
  if (a.core >= cores)
    return "access by core " + std::to_string(a.core) + " but the config has " + std::to_string(cores) + " core(s)";
  if (a.space >= spaces.size()) return "access to space id " + std::to_string(a.space) + ", which the config does not map";
  return "write to the read-only space '" + spaces[a.space] + "'";
}

TraceCounts replay_trace(const std::string& path, EventSink& sink, const TraceRules& rules) {
  ByteSource in(path);
  TraceCounts counts;
  const size_t n = in.fill(sizeof kNativeMagic);
  if (n >= sizeof kNativeMagic && std::memcmp(in.data(), kNativeMagic, sizeof kNativeMagic) == 0)
    read_native(in, sink, counts, rules);
  else
    read_din(in, sink, counts, rules);
  counts.source_hash = in.file_hash();
  return counts;
}

TraceFormat format_for_path(const std::string& path) {
  auto ends = [&](const char* ext) {
    size_t n = std::strlen(ext);
    return path.size() >= n && path.compare(path.size() - n, n, ext) == 0;
  };
  if (ends(".din") || ends(".txt") || path == "-") return TraceFormat::Din;
  return TraceFormat::Native;
}

namespace {

// Owns the output file: a writer on top of an AtomicFile.
template <class W>
class FileWriter : public W {
 public:
  explicit FileWriter(std::unique_ptr<AtomicFile> f) : W(f->stream()), file_(std::move(f)) {}
  void close() override {
    file_->commit();
    this->counts_ = W::counts();
  }

 private:
  std::unique_ptr<AtomicFile> file_;
};

}  // namespace

std::unique_ptr<TraceWriter> TraceWriter::open(const std::string& path, TraceFormat format) {
  auto file = std::make_unique<AtomicFile>(path);
  if (format == TraceFormat::Din) return std::make_unique<FileWriter<DinWriter>>(std::move(file));
  return std::make_unique<FileWriter<NativeWriter>>(std::move(file));
}

}  // namespace ptosim
