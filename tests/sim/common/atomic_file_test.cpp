// Output files appear whole or not at all, and writing one never replaces
// what the path names when that is a device, a pipe or a link.
#include <gtest/gtest.h>

#include "tests/support/temp_dir.h"
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "sim/common/atomic_file.h"
#include "sim/common/error.h"

namespace ptosim {
namespace {

std::string dir() {
  return ptosim::test::temp_dir();
}

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

bool is_link(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

TEST(AtomicFile, AppearsOnlyWhenCommitted) {
  const std::string p = dir() + "out.json";
  {
    AtomicFile f(p);
    f.write("half");
    EXPECT_NE(::access(p.c_str(), F_OK), 0);
  }  // destroyed without commit
  EXPECT_NE(::access(p.c_str(), F_OK), 0);
  AtomicFile f(p);
  f.write("whole");
  f.commit();
  EXPECT_EQ(slurp(p), "whole");
}

TEST(AtomicFile, ReplacesALinksTargetNotTheLink) {
  const std::string target = dir() + "target.txt", link = dir() + "link.txt";
  std::ofstream(target) << "old";
  ASSERT_EQ(::symlink("target.txt", link.c_str()), 0);
  AtomicFile f(link);
  f.write("new");
  f.commit();
  EXPECT_TRUE(is_link(link));
  EXPECT_EQ(slurp(target), "new");
  // A dangling link gets its target created.
  const std::string dangling = dir() + "dangling.txt";
  ASSERT_EQ(::symlink("created.txt", dangling.c_str()), 0);
  AtomicFile g(dangling);
  g.write("made");
  g.commit();
  EXPECT_TRUE(is_link(dangling));
  EXPECT_EQ(slurp(dir() + "created.txt"), "made");
}

TEST(AtomicFile, WritesIntoAPipeInPlace) {
  const std::string fifo = dir() + "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  std::string got;
  pid_t reader = ::fork();
  if (reader == 0) {  // the other end
    std::ofstream(dir() + "fifo.out") << slurp(fifo);
    ::_exit(0);
  }
  {
    AtomicFile f(fifo);
    f.write("through");
    f.commit();
  }
  int status = 0;
  ::waitpid(reader, &status, 0);
  struct stat st;
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_EQ(slurp(dir() + "fifo.out"), "through");
}

TEST(AtomicFile, RefusesADirectory) {
  try {
    AtomicFile f(dir().substr(0, dir().size() - 1));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write output file: it is a directory"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ptosim
