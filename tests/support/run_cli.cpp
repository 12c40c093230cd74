// Process runner for CLI tests.
#include "tests/support/run_cli.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace codesim::testing {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

CliResult run_codesim(const std::string& args) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("codesim_cli_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string out = (dir / "out").string();
  const std::string err = (dir / "err").string();
  const std::string command = "cd '" CODESIM_SOURCE_DIR "' && '" CODESIM_BINARY "' " + args +
                              " >'" + out + "' 2>'" + err + "'";
  const int status = std::system(command.c_str());
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  fs::remove_all(dir);
  return r;
}

std::string read_source_file(const std::string& relative_path) {
  return slurp(std::string(CODESIM_SOURCE_DIR) + "/" + relative_path);
}

}  // namespace codesim::testing
