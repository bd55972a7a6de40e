#include "conformance/runner/isolate.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

#include "conformance/runner/in_flight.h"
#include "nlohmann/json.hpp"

namespace bp::conformance {
namespace {

constexpr int kMaxChildren = 64;  // per entry: crashes after that end the entry

using json = nlohmann::json;

json to_json(const CaseRecord& r) {
  return json{{"op", r.op},
              {"dtype", index_of(r.dtype)},
              {"check", r.check},
              {"verdict", static_cast<int>(r.verdict)},
              {"failures", r.failures},
              {"sample", r.sample},
              {"repro", r.repro},
              {"to_device", r.transfers.to_device},
              {"to_host", r.transfers.to_host},
              {"expects_error", r.expects_error},
              {"id", r.id},
              {"error", r.error},
              {"staging", {r.staging.to_device, r.staging.to_host}},
              {"fallback_calls", r.fallback_calls},
              {"handles",
               {r.handles.created, r.handles.released, r.handles.returned, r.handles.leaked,
                r.handles.over_released}}};
}

CaseRecord from_json(const json& j) {
  CaseRecord r;
  r.op = j.at("op").get<std::string>();
  r.dtype = static_cast<ScalarType>(j.at("dtype").get<int>());
  r.check = j.at("check").get<std::string>();
  r.verdict = static_cast<Verdict>(j.at("verdict").get<int>());
  r.failures = j.at("failures").get<std::vector<std::string>>();
  r.sample = j.at("sample").get<std::string>();
  r.repro = j.at("repro").get<std::string>();
  r.transfers = Transfers{j.at("to_device").get<int64_t>(), j.at("to_host").get<int64_t>()};
  r.expects_error = j.at("expects_error").get<bool>();
  r.id = j.at("id").get<std::string>();
  r.error = j.at("error").get<bool>();
  const std::vector<int64_t> staging = j.at("staging").get<std::vector<int64_t>>();
  if (staging.size() == 2) r.staging = Transfers{staging[0], staging[1]};
  r.fallback_calls = j.at("fallback_calls").get<int64_t>();
  const std::vector<int64_t> h = j.at("handles").get<std::vector<int64_t>>();
  if (h.size() == 5) r.handles = HandleCounts{h[0], h[1], h[2], h[3], h[4]};
  return r;
}

void write_line(int fd, const json& j) {
  const std::string line = j.dump() + "\n";
  size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd, line.data() + done, line.size() - done);
    if (n <= 0) _exit(3);  // the parent is gone
    done += static_cast<size_t>(n);
  }
}

json label_json(size_t index, const CaseRecord& label) {
  return json{{"begin", index},       {"id", label.id},
              {"op", label.op},       {"dtype", index_of(label.dtype)},
              {"check", label.check}, {"sample", label.sample}};
}

// The child: runs `body` from case `start`, skipping the cells in `crashed`.
[[noreturn]] void child(int fd, const Isolation& how,
                        const std::function<void(const ChildHooks&)>& body, size_t start,
                        const std::set<std::pair<std::string, int>>& crashed) {
  set_in_flight_child();
  ChildHooks hooks;
  hooks.skip = [&](size_t index, const CaseRecord& label) {
    return index < start ||
           (how.skip_cell_after_crash && crashed.count({label.op, index_of(label.dtype)}) != 0);
  };
  hooks.begin = [&](size_t index, const CaseRecord& label) {
    write_line(fd, label_json(index, label));
  };
  hooks.emit = [&](const CaseRecord& r, const std::string& output) {
    json line{{"record", to_json(r)}};
    if (!output.empty()) line["output"] = output;
    write_line(fd, line);
  };
  // The child never returns to its caller: an error that would end the run in process ends the
  // isolated run the same way, in the parent.
  try {
    body(hooks);
  } catch (const std::exception& e) {
    write_line(fd, json{{"fatal", e.what()}});
    _exit(4);
  } catch (...) {
    write_line(fd, json{{"fatal", "unknown exception"}});
    _exit(4);
  }
  write_line(fd, json{{"done", true}});
  ::close(fd);
  _exit(0);
}

std::string describe_status(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return "crashed: killed by signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
  }
  if (WIFEXITED(status)) {
    // A kernel that calls exit(): the child never said "done".
    return "crashed: the process exited with status " + std::to_string(WEXITSTATUS(status)) +
           " before finishing";
  }
  return "crashed";
}

}  // namespace

void run_isolated(const Isolation& how, const std::function<void(const ChildHooks&)>& body,
                  const IsolatedSink& sink) {
  size_t start = 0;
  std::set<std::pair<std::string, int>> crashed;
  for (int attempt = 0; attempt < kMaxChildren; ++attempt) {
    int fds[2];
    if (::pipe(fds) != 0) throw std::runtime_error("pipe() failed");
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error("fork() failed");
    if (pid == 0) {
      ::close(fds[0]);
      child(fds[1], how, body, start, crashed);
    }
    ::close(fds[1]);
    // Read the child's lines until it closes the pipe or runs out of time.
    std::string buffer;
    std::optional<json> running;  // the case that began and has no record yet
    bool done = false, timed_out = false;
    std::optional<std::string> fatal;  // an exception that ended the child's body
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(how.timeout_seconds);
    while (true) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                            deadline - std::chrono::steady_clock::now())
                            .count();
      if (left <= 0) {
        timed_out = true;
        ::kill(pid, SIGKILL);
        break;
      }
      pollfd p{fds[0], POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(std::min<int64_t>(left, 1000))) <= 0) continue;
      char chunk[65536];
      const ssize_t n = ::read(fds[0], chunk, sizeof chunk);
      if (n <= 0) break;
      buffer.append(chunk, static_cast<size_t>(n));
      size_t eol;
      while ((eol = buffer.find('\n')) != std::string::npos) {
        const json line = json::parse(buffer.substr(0, eol));
        buffer.erase(0, eol + 1);
        if (line.contains("begin")) {
          running = line;
          if (how.timeout_per_case) {
            deadline = std::chrono::steady_clock::now() + std::chrono::seconds(how.timeout_seconds);
          }
        } else if (line.contains("record")) {
          sink(from_json(line.at("record")), line.value("output", std::string()));
          running.reset();
        } else if (line.contains("done")) {
          done = true;
        } else if (line.contains("fatal")) {
          fatal = line.at("fatal").get<std::string>();
        }
      }
    }
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (fatal) throw std::runtime_error(*fatal);
    if (done && WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
    // The child died, exited early or hung in the middle of `running`.
    const std::string why =
        timed_out ? "timed out after " + std::to_string(how.timeout_seconds) + " s: killed"
                  : describe_status(status);
    if (!running) {
      CaseRecord r =
          CaseRecord::failure(how.outside.op, how.outside.dtype, "crash",
                              why + (done ? " after its last case" : " outside any case"));
      r.sample = how.outside.sample;
      sink(r, "");
      return;
    }
    CaseRecord r;
    r.id = running->at("id").get<std::string>();
    r.error = true;
    r.op = running->at("op").get<std::string>();
    r.dtype = static_cast<ScalarType>(running->at("dtype").get<int>());
    r.check = running->at("check").get<std::string>() + " (crash)";
    r.verdict = Verdict::kFail;
    r.failures = {why};
    r.sample = running->at("sample").get<std::string>();
    sink(r, "");
    crashed.insert({r.op, index_of(r.dtype)});
    start = running->at("begin").get<size_t>() + 1;
  }
  sink(CaseRecord::failure(
           how.outside.op, how.outside.dtype, "crash",
           "crashed " + std::to_string(kMaxChildren) + " times; the rest was not run"),
       "");
}

void run_entry_isolated(const OpEntry& entry, const Backend& backend, const RunOptions& options,
                        const std::function<void(const CaseRecord&)>& sink) {
  Isolation how;
  how.timeout_seconds = options.entry_timeout_seconds;
  how.outside.op = entry.variants[0].op;
  how.outside.dtype = ScalarType::kFloat32;
  auto label = [](const Case& c) {
    CaseRecord r;
    r.op = c.op;
    r.dtype = c.dtype;
    r.check = c.check;
    r.sample = c.description;
    r.id = c.id;
    return r;
  };
  run_isolated(
      how,
      [&](const ChildHooks& child_hooks) {
        EntryHooks hooks;
        hooks.skip = [&](size_t index, const Case& c) { return child_hooks.skip(index, label(c)); };
        hooks.begin = [&](size_t index, const Case& c) { child_hooks.begin(index, label(c)); };
        hooks.emit = [&](const CaseRecord& r) { child_hooks.emit(r, ""); };
        run_entry(entry, backend, options, hooks);
      },
      [&](const CaseRecord& r, const std::string&) { sink(r); });
}

}  // namespace bp::conformance
