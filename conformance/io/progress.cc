#include "conformance/io/progress.h"

#include <string>

namespace bp::conformance {

void ProgressPrinter::update(const Progress& p) {
  if (terminal_) {
    constexpr size_t kWidth = 30;
    const size_t filled = p.total == 0 ? kWidth : p.done * kWidth / p.total;
    out_ << "\r\033[K[" << std::string(filled, '=') << (filled < kWidth ? ">" : "")
         << std::string(kWidth - std::min(kWidth, filled + 1), ' ') << "] " << p.done << "/"
         << p.total << "  " << p.entry;
    if (p.failed > 0) out_ << "  (" << p.failed << " failing cases)";
    out_.flush();
    drawn_ = true;
  } else if (p.done > 0 || p.total == 0) {
    out_ << "[" << p.done << "/" << p.total << "] " << p.entry
         << (p.failed > 0 ? "  (" + std::to_string(p.failed) + " failing cases so far)" : "")
         << "\n";
  }
}

void ProgressPrinter::finish() {
  if (terminal_ && drawn_) out_ << "\n";
  drawn_ = false;
}

}  // namespace bp::conformance
