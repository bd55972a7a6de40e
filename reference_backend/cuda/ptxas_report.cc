#include "reference_backend/cuda/ptxas_report.h"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>

namespace bp::cuda::testing {
namespace {

FunctionResources& row(std::vector<FunctionResources>& rows, const std::string& name) {
  for (FunctionResources& r : rows) {
    if (r.name == name) return r;
  }
  rows.push_back({});
  rows.back().name = name;
  return rows.back();
}

// The number just before " <what>" in `line` ("12 registers"), or 0. Plain string search: GCC 12
// warns of uninitialised members inside std::regex under the sanitizer builds' -O1 -Werror.
int number_before(const std::string& line, const std::string& what) {
  const size_t at = line.find(" " + what);
  if (at == std::string::npos) return 0;
  size_t begin = at;
  while (begin > 0 && std::isdigit(static_cast<unsigned char>(line[begin - 1]))) --begin;
  return begin == at ? 0 : std::stoi(line.substr(begin, at - begin));
}

// The text after `prefix` up to the first character of `stops` (or the end), if `line` contains
// `prefix`.
std::optional<std::string> text_after(const std::string& line, const std::string& prefix,
                                      const char* stops) {
  const size_t at = line.find(prefix);
  if (at == std::string::npos) return std::nullopt;
  const size_t begin = at + prefix.size();
  const size_t end = line.find_first_of(stops, begin);
  return line.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

}  // namespace

std::vector<FunctionResources> parse_ptxas_verbose(const std::string& log) {
  std::vector<FunctionResources> rows;
  std::string entry, properties;
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    std::optional<std::string> name;
    if ((name = text_after(line, "Compiling entry function '", "'")) && !name->empty()) {
      entry = *name;
      row(rows, entry).entry = true;
    } else if ((name = text_after(line, "Function properties for ", " \n")) && !name->empty()) {
      properties = *name;
      row(rows, properties);
    } else if (line.find("bytes stack frame") != std::string::npos && !properties.empty()) {
      FunctionResources& r = row(rows, properties);
      r.stack_bytes = number_before(line, "bytes stack frame");
      r.spill_stores = number_before(line, "bytes spill stores");
      r.spill_loads = number_before(line, "bytes spill loads");
    } else if (line.find("Used ") != std::string::npos && !entry.empty()) {
      FunctionResources& r = row(rows, entry);
      r.registers = number_before(line, "registers");
      r.barriers = number_before(line, "barriers");
      r.shared_bytes = number_before(line, "bytes smem");
    }
  }
  return rows;
}

std::string ptxas_path() {
  const char* home = std::getenv("CUDA_HOME");
  return std::string(home != nullptr && *home != '\0' ? home : "/usr/local/cuda") + "/bin/ptxas";
}

PtxasRun run_ptxas(const std::string& ptx, int arch) {
  PtxasRun run;
  const char* tmp = std::getenv("TEST_TMPDIR");
  std::string path = std::string(tmp != nullptr ? tmp : "/tmp") + "/ptxas_XXXXXX";
  const int fd = mkstemp(path.data());
  if (fd < 0) {
    run.log = "cannot create a temporary file in " + path;
    return run;
  }
  close(fd);
  std::ofstream(path, std::ios::binary) << ptx;
  const std::string tool = ptxas_path();
  if (access(tool.c_str(), X_OK) != 0) {
    run.log = "no ptxas at " + tool + " (set CUDA_HOME to the CUDA toolkit)";
    std::remove(path.c_str());
    return run;
  }
  const std::string command =
      tool + " -arch=sm_" + std::to_string(arch) + " -v -o /dev/null " + path + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    run.log = "cannot run " + command;
    std::remove(path.c_str());
    return run;
  }
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) run.log.append(buffer.data(), n);
  const int status = pclose(pipe);
  std::remove(path.c_str());
  run.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  run.functions = parse_ptxas_verbose(run.log);
  return run;
}

std::string ptx_function(const std::string& ptx, const std::string& name) {
  const size_t begin = ptx.find(".entry " + name + "(");
  if (begin == std::string::npos) return "";
  size_t end = ptx.size();
  for (const char* next : {".entry ", ".func "}) {
    const size_t at = ptx.find(next, begin + 1);
    if (at != std::string::npos && at < end) end = at;
  }
  return ptx.substr(begin, end - begin);
}

}  // namespace bp::cuda::testing
