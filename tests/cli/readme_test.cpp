// The examples of the README and the guide (docs/guide/*.md) run as written from the repository
// root: every repository file an example command names exists, and none reaches outside the
// repository.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/run_cli.hpp"

namespace codesim::testing {
namespace {

// The command lines of the indented code blocks of the README and the guide's pages.
std::vector<std::string> example_lines() {
  std::string text = read_source_file("README.md");
  for (const auto& page :
       std::filesystem::directory_iterator(std::string(CODESIM_SOURCE_DIR) + "/docs/guide")) {
    text += read_source_file("docs/guide/" + page.path().filename().string());
  }
  std::istringstream readme(text);
  std::vector<std::string> lines;
  for (std::string line; std::getline(readme, line);) {
    if (line.rfind("    ", 0) != 0)
      continue;
    const std::string command = line.substr(line.find_first_not_of(' '));
    for (const char* start : {"codesim ", "./tools/", "tools/", "mpirun ", "build/"}) {
      if (command.rfind(start, 0) == 0)
        lines.push_back(command);
    }
  }
  return lines;
}

// A word that names a file of the repository: a relative path under one of its top folders.
bool names_repository_file(const std::string& word) {
  for (const char* top : {"models/", "scenarios/", "tools/", "tests/", "sim/", "topologies/"}) {
    if (word.rfind(top, 0) == 0 && word.find('/') != std::string::npos)
      return true;
  }
  return false;
}

TEST(Readme, ExampleCommandsNameFilesThatExist) {
  const std::vector<std::string> lines = example_lines();
  ASSERT_GE(lines.size(), 20u);  // the usage section has dozens; a parse that finds few is broken
  int named = 0;
  for (const std::string& line : lines) {
    std::istringstream words(line);
    for (std::string word; words >> word;) {
      EXPECT_EQ(word.rfind("../", 0), std::string::npos) << line;
      if (word.front() == '[')
        word.erase(0, 1);
      if (!names_repository_file(word))
        continue;
      ++named;
      EXPECT_TRUE(std::filesystem::exists(std::string(CODESIM_SOURCE_DIR) + "/" + word))
          << word << " in: " << line;
    }
  }
  EXPECT_GE(named, 10);
}

}  // namespace
}  // namespace codesim::testing
