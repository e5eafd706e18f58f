#pragma once
// One private temporary folder per test process, removed at exit: ctest runs
// every gtest case as its own process, many at once (-j8), so a fixed name
// under /tmp would be written by several of them at the same time.
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace ptosim::test {

inline const std::string& temp_dir() {
  struct Dir {
    std::string path;
    Dir() {
      std::string templ = (std::filesystem::temp_directory_path() / "ptosim-test-XXXXXX").string();
      if (!::mkdtemp(templ.data())) throw std::runtime_error("mkdtemp failed");
      path = templ + "/";
    }
    ~Dir() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  };
  static const Dir dir;
  return dir.path;
}

// A path inside temp_dir(): `name` need only be unique within the process.
inline std::string temp_path(const std::string& name) { return temp_dir() + name; }

}  // namespace ptosim::test
