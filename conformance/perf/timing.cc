#include "conformance/perf/timing.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "sdk/core/allocator.h"

namespace bp::conformance {
namespace {

// The q-quantile of sorted values, interpolated between neighbours.
double quantile(const std::vector<double>& sorted, double q) {
  const double at = q * static_cast<double>(sorted.size() - 1);
  const size_t below = static_cast<size_t>(std::floor(at));
  const size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (sorted[above] - sorted[below]) * (at - static_cast<double>(below));
}

}  // namespace

Timing summarize(std::vector<double> seconds) {
  if (seconds.empty()) throw std::invalid_argument("summarize: no measurements");
  std::sort(seconds.begin(), seconds.end());
  Timing t;
  t.repeats = static_cast<int>(seconds.size());
  t.median_us = quantile(seconds, 0.5) * 1e6;
  t.min_us = seconds.front() * 1e6;
  t.max_us = seconds.back() * 1e6;
  const double iqr = (quantile(seconds, 0.75) - quantile(seconds, 0.25)) * 1e6;
  t.spread = t.median_us > 0 ? iqr / t.median_us : 0;
  return t;
}

Timing time_calls(const std::function<void()>& call, const std::function<void()>& sync,
                  const TimingOptions& options) {
  for (int i = 0; i < options.warmup; ++i) call();
  sync();
  std::vector<double> seconds;
  seconds.reserve(static_cast<size_t>(std::max(options.repeats, 1)));
  for (int i = 0; i < std::max(options.repeats, 1); ++i) {
    const auto start = std::chrono::steady_clock::now();
    call();
    sync();
    seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return summarize(std::move(seconds));
}

MemoryRoof measure_memory_roof(const Backend& backend, size_t nbytes,
                               const TimingOptions& options) {
  const Device device = backend.device();
  Allocator* allocator = get_allocator(device.type);
  const DataPtr src = allocator->allocate(nbytes);
  const DataPtr dst = allocator->allocate(nbytes);
  MemoryRoof roof;
  roof.nbytes = nbytes;
  // The source's bytes are whatever the allocator gave: a copy's speed does not depend on them.
  roof.timing = time_calls([&] { copy_bytes(dst.get(), device, src.get(), device, nbytes); },
                           [&] { backend.synchronize(); }, options);
  roof.gbps = roof.timing.median_us > 0
                  ? 2.0 * static_cast<double>(nbytes) / (roof.timing.median_us * 1e3)
                  : 0;
  return roof;
}

double geometric_mean(const std::vector<double>& values) {
  if (values.empty()) return 1;
  double log_sum = 0;
  for (double v : values) log_sum += std::log(v);
  return std::exp(log_sum / static_cast<double>(values.size()));
}

}  // namespace bp::conformance
