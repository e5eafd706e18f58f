#pragma once
// An output file that appears only when complete: written under a temporary
// name next to the target and renamed by commit(). Destroyed without commit,
// it removes the temporary, so a failed run never leaves a partial file that
// looks finished. "-" writes to stdout directly; so does a path that is a
// device or a pipe (/dev/null), which a rename would replace with a file. A
// symbolic link is followed: its target is replaced, the link stays.
#include <cstdio>
#include <initializer_list>
#include <string>

namespace ptosim {

class AtomicFile {
 public:
  explicit AtomicFile(const std::string& path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  FILE* stream() { return f_; }
  void write(const std::string& text);
  void commit();  // throws InputError if the data could not be written

 private:
  std::string path_, tmp_;
  FILE* f_ = nullptr;
  bool committed_ = false;
  int write_errno_ = 0;  // the first failed write's errno
};

// Writes `text` to `path` ("-" or empty = stdout) without leaving a partial file.
void write_output(const std::string& path, const std::string& text);
// Throws InputError if `output` is one of the `inputs` (by file identity, so
// links and other spellings count): `-o prog.pto` would replace the program.
void refuse_overwriting_inputs(const std::string& output, std::initializer_list<std::string> inputs);

}  // namespace ptosim
