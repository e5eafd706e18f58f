#include <cstdio>
#include <cstring>

#include "sim/common/atomic_file.h"
#include "sim/trace/din_format.h"
#include "sim/trace/native_format.h"

namespace ptosim {

TraceCounts replay_trace(const std::string& path, EventSink& sink) {
  ByteSource in(path);
  TraceCounts counts;
  const size_t n = in.fill(sizeof kNativeMagic);
  if (n >= sizeof kNativeMagic && std::memcmp(in.data(), kNativeMagic, sizeof kNativeMagic) == 0)
    read_native(in, sink, counts);
  else
    read_din(in, sink, counts);
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
