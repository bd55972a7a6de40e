#include "conformance/perf/perf_samples.h"

#include <cstring>

#include "conformance/runner/planner.h"
#include "sdk/core/empty.h"

namespace bp::conformance {
namespace {

std::vector<int64_t> sizes_of(const Tensor& t) { return {t.sizes().begin(), t.sizes().end()}; }

// The template's shape: that of its tensor arguments when they all share one contiguous shape
// with more than one element (0-dim ones aside); nullopt otherwise.
std::optional<std::vector<int64_t>> template_shape(const Sample& sample) {
  std::optional<std::vector<int64_t>> shape;
  for (const SampleArg& a : sample.args) {
    if (std::holds_alternative<TensorListArg>(a.value)) return std::nullopt;
    const auto* t = std::get_if<TensorArg>(&a.value);
    if (t == nullptr || t->host.dim() == 0) continue;
    if (!t->host.is_contiguous() || t->host.numel() < 2) return std::nullopt;
    if (shape && *shape != sizes_of(t->host)) return std::nullopt;
    shape = sizes_of(t->host);
  }
  return shape;
}

// A contiguous CPU tensor of `sizes` whose bytes repeat `like`'s (contiguous) bytes.
Tensor tiled(const Tensor& like, const std::vector<int64_t>& sizes) {
  Tensor t = native::empty(IntArrayRef(sizes), like.dtype(), Device(DeviceType::kCPU));
  const size_t chunk = like.nbytes();
  const size_t total = t.nbytes();
  auto* dst = static_cast<char*>(t.data_ptr());
  const auto* src = static_cast<const char*>(like.data_ptr());
  for (size_t done = 0; done < total; done += chunk) {
    std::memcpy(dst + done, src, std::min(chunk, total - done));
  }
  return t;
}

std::string dtype_name(ScalarType t) { return std::string(scalar_type_name(t)); }

}  // namespace

std::optional<Sample> with_shape(const Sample& sample, const std::vector<int64_t>& from,
                                 const std::vector<int64_t>& sizes) {
  Sample out = sample;
  bool replaced = false;
  for (SampleArg& a : out.args) {
    auto* t = std::get_if<TensorArg>(&a.value);
    if (t == nullptr || t->host.dim() == 0) continue;
    if (sizes_of(t->host) != from || !t->host.is_contiguous()) return std::nullopt;
    t->host = tiled(t->host, sizes);
    replaced = true;
  }
  if (!replaced) return std::nullopt;
  return out;
}

PerfPlan perf_cases(const OpEntry& entry, ScalarType dtype,
                    const std::vector<CatalogueShape>& shapes, const Tolerances& tolerances) {
  PerfPlan perf;
  std::vector<Sample> samples;
  std::vector<std::string> shape_names;
  try {
    samples = entry.samples(dtype, sample_seed(entry.name, dtype));
  } catch (const std::exception& e) {
    perf.entry_error = std::string("the conformance entry failed: ") + e.what();
    return perf;
  }
  for (size_t i = 0; i < samples.size(); ++i) shape_names.push_back("sample " + std::to_string(i));
  const size_t own = samples.size();
  for (size_t i = 0; i < own && !shapes.empty(); ++i) {
    const std::optional<std::vector<int64_t>> from = template_shape(samples[i]);
    if (!from) continue;
    for (const CatalogueShape& s : shapes) {
      std::optional<Sample> substituted = with_shape(samples[i], *from, s.sizes);
      if (!substituted) continue;
      substituted->note = s.name;
      samples.push_back(std::move(*substituted));
      shape_names.push_back(s.name);
    }
    break;  // the first template only
  }
  Plan plan = plan_samples(entry, dtype, samples, tolerances);
  perf.entry_error = plan.entry_error;
  std::vector<bool> taken(samples.size(), false);
  for (Case& c : plan.cases) {
    const auto index = static_cast<size_t>(c.sample_index);
    if (index >= samples.size() || taken[index] || c.expect.error) continue;
    // The planner lists a sample's cases functional first, then in-place and out=.
    if (c.check != "functional" && c.check != "inplace" && c.check != "out") continue;
    taken[index] = true;
    PerfCase p;
    p.shape = shape_names[index];
    c.id = "perf/" + c.op + "/" + dtype_name(dtype) + "/" + p.shape;
    p.c = std::move(c);
    perf.cases.push_back(std::move(p));
  }
  return perf;
}

}  // namespace bp::conformance
