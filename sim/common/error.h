#pragma once
// One error type for every bad input (config, program, trace, CLI flag).
// The CLI prints what() and exits with status 2; nothing else is needed to
// report a user mistake, so no component prints or exits on its own.
#include <stdexcept>
#include <string>

namespace ptosim {

struct SourcePos {
  std::string file;  // "-" for stdin, "<default>" for the built-in config
  int line = 0;      // 1-based; 0 when unknown
  int col = 0;       // 1-based; 0 when not meaningful
};

class InputError : public std::runtime_error {
 public:
  // key may be empty. Message format: "file:line[:col]: [key: ]message".
  InputError(const SourcePos& pos, const std::string& key, const std::string& message)
      : std::runtime_error(format(pos, key, message)), pos_(pos), key_(key), detail_(message) {}
  explicit InputError(const std::string& message) : std::runtime_error(message) {}

  const SourcePos& pos() const { return pos_; }
  const std::string& key() const { return key_; }
  const std::string& detail() const { return detail_; }

  static std::string format(const SourcePos& pos, const std::string& key, const std::string& message) {
    std::string s = pos.file;
    if (pos.line > 0) s += ":" + std::to_string(pos.line);
    if (pos.line > 0 && pos.col > 0) s += ":" + std::to_string(pos.col);
    s += ": ";
    if (!key.empty()) s += key + ": ";
    return s + message;
  }

 private:
  SourcePos pos_;
  std::string key_;
  std::string detail_;
};

}  // namespace ptosim
