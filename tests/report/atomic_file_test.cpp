// The output writer: the file appears whole or not at all, with no temporary left behind, and a
// failure names the path and the system's reason.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/report/atomic_file.hpp"

namespace codesim::report {
namespace {

namespace fs = std::filesystem;

std::string contents_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

fs::path fresh_directory(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("codesim_atomic_" + name);
  fs::remove_all(dir);
  return dir;
}

TEST(AtomicFile, WritesTheWholeContentAndLeavesNoTemporary) {
  const fs::path dir = fresh_directory("whole");
  const fs::path file = dir / "sub" / "report.json";  // the missing parents are created
  write_file_atomically(file.string(), "first");
  write_file_atomically(file.string(), "second, longer");  // replaces, never appends
  EXPECT_EQ(contents_of(file), "second, longer");
  EXPECT_FALSE(fs::exists(file.string() + ".tmp"));
  fs::remove_all(dir);
}

TEST(AtomicFile, ADirectoryIsRefusedByName) {
  const fs::path dir = fresh_directory("dir");
  fs::create_directories(dir);
  try {
    write_file_atomically(dir.string(), "x");
    FAIL() << "a directory was written";
  } catch (const OutputError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot write '" + dir.string() + "': it is a directory");
  }
  fs::remove_all(dir);
}

TEST(AtomicFile, ADeviceIsWrittenInPlaceAndAFullOneFails) {
  write_file_atomically("/dev/null", "discarded");  // fsync's EINVAL on a device is no failure
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  try {
    write_file_atomically("/dev/full", "x");
    FAIL() << "/dev/full took a byte";
  } catch (const OutputError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot write '/dev/full': No space left on device");
  }
}

}  // namespace
}  // namespace codesim::report
