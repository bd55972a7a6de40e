// Warnings: non-fatal messages about deprecated or surprising uses (PyTorch's TORCH_WARN).
//
//   warn("An output with one or more elements was resized ...");
//
//   {
//     WarningCapture capture;          // this thread's warnings go to `capture`
//     add_out(out, a, b);
//     capture.messages();              // {"An output with one or more elements ..."}
//   }
//
// By default a warning is written to stderr as "Backplane warning: <message>". A process-wide
// handler can be installed instead (e.g. by language bindings or the C ABI's logging hook).
//
// Thread safety: warn() may be called from any thread; set_warning_handler is safe to call
// concurrently with warn(). A WarningCapture affects only the thread that created it.
#ifndef BACKPLANE_SDK_CORE_WARNING_H_
#define BACKPLANE_SDK_CORE_WARNING_H_

#include <string>
#include <vector>

namespace bp {

using WarningHandler = void (*)(const std::string& message, void* user_data);

// Reports a warning to this thread's capture if there is one, else to the process handler.
void warn(const std::string& message);

// Installs `handler` (null: back to stderr). `user_data` is borrowed and passed back.
void set_warning_handler(WarningHandler handler, void* user_data);

// Collects this thread's warnings while alive (nested captures: the innermost collects).
class WarningCapture {
 public:
  WarningCapture();
  ~WarningCapture();
  WarningCapture(const WarningCapture&) = delete;
  WarningCapture& operator=(const WarningCapture&) = delete;

  const std::vector<std::string>& messages() const { return messages_; }

 private:
  friend void warn(const std::string& message);
  std::vector<std::string> messages_;
  WarningCapture* previous_;
};

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_WARNING_H_
