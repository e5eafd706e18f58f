#include "sim/frontend/errors.h"

namespace ptosim::frontend {

void fail(Pos pos, std::string message) { throw ProgramError{pos, std::move(message)}; }

Source::Source(std::string path, std::string text) : path_(std::move(path)), text_(std::move(text)) {
  std::string cur;
  for (char c : text_) {
    if (c == '\n') {
      lines_.push_back(cur);
      cur.clear();
    } else if (c != '\r') {
      cur += c;
    }
  }
  if (!cur.empty()) lines_.push_back(cur);
}

std::string Source::line(int n) const {
  if (n < 1 || n > int(lines_.size())) return "";
  return lines_[n - 1];
}

InputError Source::error(Pos pos, const std::string& message) const {
  SourcePos sp{path_, pos.line, pos.col};
  std::string detail = message;
  std::string text = line(pos.line);
  if (pos.line > 0 && !text.empty()) {
    // Tabs are kept in the caret line so that the caret lines up under them.
    std::string caret;
    for (int i = 1; i < pos.col && i <= int(text.size()); ++i) caret += text[i - 1] == '\t' ? '\t' : ' ';
    detail += "\n" + text + "\n" + caret + "^";
  }
  return InputError(sp, "", detail);
}

}  // namespace ptosim::frontend
