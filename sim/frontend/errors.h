#pragma once
// Positions and the internal error type of the frontend. Errors are raised
// with a line/column only; run_program turns them into InputError with the
// file name, the source line and a caret, because only it holds the source.
#include <string>
#include <vector>

#include "sim/common/error.h"

namespace ptosim::frontend {

struct Pos {
  int line = 0;
  int col = 0;
};

struct ProgramError {
  Pos pos;
  std::string message;
};

[[noreturn]] void fail(Pos pos, std::string message);

// The program text, kept for error messages.
class Source {
 public:
  Source(std::string path, std::string text);
  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }
  std::string line(int n) const;  // 1-based; "" when out of range
  // "file:line:col: message\n<source line>\n<caret>"
  InputError error(Pos pos, const std::string& message) const;
  InputError error(const ProgramError& e) const { return error(e.pos, e.message); }

 private:
  std::string path_;
  std::string text_;
  std::vector<std::string> lines_;
};

}  // namespace ptosim::frontend
