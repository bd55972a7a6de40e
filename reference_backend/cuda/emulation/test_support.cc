#include "reference_backend/cuda/emulation/test_support.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <sstream>

#include "backplane/iter.h"
#include "gtest/gtest.h"
#include "sdk/core/element_cast.h"
#include "sdk/core/error.h"
#include "sdk/core/storage.h"
#include "sdk/core/tensor_impl.h"
#include "sdk/core/views.h"
#include "sdk/dispatch/dispatcher.h"
#include "sdk/iter/strided_convert.h"
#include "sdk/iter/tensor_iterator_config.h"
#include "sdk/ops/common_plan.h"

namespace bp::cuda {
namespace {

void free_aligned(void* p) { std::free(p); }

// Calls fn(element offset) for every element of `sizes` / `strides`, in row-major order.
template <typename Fn>
void for_each_offset(IntArrayRef sizes, IntArrayRef strides, Fn fn) {
  int64_t numel = 1;
  for (int64_t s : sizes) numel *= s;
  std::vector<int64_t> index(sizes.size(), 0);
  for (int64_t n = 0; n < numel; ++n) {
    int64_t offset = 0;
    for (size_t d = 0; d < sizes.size(); ++d) offset += index[d] * strides[d];
    fn(offset);
    for (size_t d = sizes.size(); d-- > 0;) {
      if (++index[d] < sizes[d]) break;
      index[d] = 0;
    }
  }
}

complex<double> read_element(const char* p, ScalarType dtype) {
  return visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T value;
    std::memcpy(&value, p, sizeof value);
    return element_cast<complex<double>>(value);
  });
}

// The relative and absolute tolerance of comparisons in `dtype`.
std::pair<double, double> tolerance(ScalarType dtype) {
  switch (dtype) {
    case ScalarType::kFloat16:
      return {2e-3, 1e-3};
    case ScalarType::kBFloat16:
      return {1.6e-2, 1e-2};
    case ScalarType::kFloat32:
    case ScalarType::kComplex64:
      return {2e-5, 1e-6};
    case ScalarType::kFloat64:
    case ScalarType::kComplex128:
      return {1e-12, 1e-14};
    default:
      return {0, 0};
  }
}

bool close(double a, double e, std::pair<double, double> tol) {
  if (std::isnan(a) || std::isnan(e)) return std::isnan(a) && std::isnan(e);
  if (std::isinf(a) || std::isinf(e)) return a == e;
  return std::abs(a - e) <= tol.second + tol.first * std::abs(e);
}

// A contiguous CPU copy of any tensor whose memory the host can read.
Tensor host_copy(const Tensor& t) {
  Tensor out = cpu_tensor(std::vector<int64_t>(t.sizes().begin(), t.sizes().end()), t.dtype());
  char* dst = static_cast<char*>(out.data_ptr());
  const char* src = static_cast<const char*>(t.data_ptr());
  const size_t size = t.itemsize();
  for_each_offset(t.sizes(), t.strides(), [&](int64_t offset) {
    std::memcpy(dst, src + offset * static_cast<int64_t>(size), size);
    dst += size;
  });
  return out;
}

}  // namespace

ScalarType scalar_type_of(Dtype dtype) { return static_cast<ScalarType>(code(dtype)); }
Dtype dtype_of(ScalarType type) { return dtype_of_code(index_of(type)); }

DataPtr EmulatedDevice::AlignedAllocator::allocate(size_t nbytes) {
  void* p = std::aligned_alloc(256, (nbytes + 255) / 256 * 256 + 256);
  return DataPtr(p, p, &free_aligned, device);
}

EmulatedDevice::EmulatedDevice() : fake_("emulatedcuda") { allocator_.device = fake_.device(); }

Tensor EmulatedDevice::empty(std::vector<int64_t> sizes, ScalarType dtype,
                             std::vector<int64_t> strides, int64_t offset) const {
  if (strides.empty()) {
    strides.resize(sizes.size());
    int64_t n = 1;
    for (size_t i = sizes.size(); i-- > 0;) {
      strides[i] = n;
      n *= sizes[i];
    }
  }
  int64_t extent = 1;
  for (size_t i = 0; i < sizes.size(); ++i) extent += (sizes[i] - 1) * strides[i];
  Storage storage =
      Storage::allocate(static_cast<size_t>(extent + offset) * element_size(dtype), &allocator_);
  return Tensor(IntrusivePtr<TensorImpl>::make(std::move(storage), dtype, IntArrayRef(sizes),
                                               IntArrayRef(strides), offset));
}

Tensor EmulatedDevice::copy_of(const Tensor& cpu, int64_t offset) const {
  const Tensor values = host_copy(cpu);
  Tensor t =
      empty(std::vector<int64_t>(cpu.sizes().begin(), cpu.sizes().end()), cpu.dtype(), {}, offset);
  if (values.nbytes() != 0) std::memcpy(t.data_ptr(), values.data_ptr(), values.nbytes());
  return t;
}

Tensor random_tensor(std::vector<int64_t> sizes, ScalarType dtype, uint64_t seed) {
  Tensor t = cpu_tensor(std::move(sizes), dtype);
  uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
  auto next = [&] {
    state += 0x9E3779B97F4A7C15ull;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* data = t.data_ptr<T>();
    for (int64_t i = 0; i < t.numel(); ++i) {
      // Quarters in [-3, 3], and a few special values among floating ones.
      auto real = [&](int64_t k) {
        const double v = static_cast<double>(static_cast<int64_t>(next() % 25) - 12) / 4.0;
        if (k % 61 == 7) return std::nan("");
        if (k % 61 == 19) return HUGE_VAL;
        if (k % 61 == 31) return -0.0;
        return v;
      };
      if constexpr (std::is_same_v<T, bool>) {
        data[i] = (next() & 1) != 0;
      } else if constexpr (std::is_same_v<T, uint8_t>) {
        data[i] = static_cast<uint8_t>(next() % 18 + 1);
      } else if constexpr (std::is_integral_v<T>) {
        // Never zero, so that integer division is defined everywhere.
        const int64_t k = static_cast<int64_t>(next() % 18) - 9;
        data[i] = static_cast<T>(k >= 0 ? k + 1 : k);
      } else if constexpr (std::is_same_v<T, complex<float>> ||
                           std::is_same_v<T, complex<double>>) {
        using V = typename T::value_type;
        data[i] = T(static_cast<V>(real(i)), static_cast<V>(real(i + 13)));
      } else {
        data[i] = static_cast<T>(static_cast<float>(real(i)));
      }
    }
  });
  return t;
}

Tensor converted(const Tensor& t, ScalarType dtype) {
  const Tensor values = host_copy(t);
  Tensor out = cpu_tensor(std::vector<int64_t>(t.sizes().begin(), t.sizes().end()), dtype);
  // The CPU loops' own conversion (element_cast's rules), compiled once in the SDK rather than
  // once per dtype pair here.
  convert_elements(dtype, static_cast<char*>(out.data_ptr()), static_cast<int64_t>(out.itemsize()),
                   t.dtype(), static_cast<const char*>(values.data_ptr()),
                   static_cast<int64_t>(values.itemsize()), t.numel());
  return out;
}

TensorIterator build_plan(uint32_t flags, const std::vector<Tensor>& outputs,
                          const std::vector<Tensor>& inputs) {
  TensorIteratorConfig config;
  config.set_check_mem_overlap(flags & BP_ITER_CHECK_MEM_OVERLAP)
      .check_all_same_dtype(flags & BP_ITER_CHECK_ALL_SAME_DTYPE)
      .check_all_same_device(flags & BP_ITER_CHECK_ALL_SAME_DEVICE)
      .allow_cpu_scalars(flags & BP_ITER_ALLOW_CPU_SCALARS)
      .resize_outputs(flags & BP_ITER_RESIZE_OUTPUTS)
      .is_reduction(flags & BP_ITER_IS_REDUCTION);
  if (flags & BP_ITER_PROMOTE_INPUTS_TO_COMMON_DTYPE) {
    config.promote_inputs_to_common_dtype(true);
    if (flags & BP_ITER_PROMOTE_INTEGER_INPUTS_TO_FLOAT) {
      config.promote_integer_inputs_to_float(true);
    }
  }
  if (flags & BP_ITER_CAST_COMMON_DTYPE_TO_OUTPUTS) config.cast_common_dtype_to_outputs(true);
  if (flags & BP_ITER_ENFORCE_SAFE_CASTING_TO_OUTPUT) config.enforce_safe_casting_to_output(true);
  for (const Tensor& out : outputs) config.add_output(out);
  for (const Tensor& in : inputs) config.add_input(in);
  return config.build();
}

namespace {

// The stand-in out= kernel of handed_plan: reads the plan the Common key published, returns `out`.
struct Capture {
  std::optional<HandedPlan> handed;
};

void capture_plan(void* data, const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  const TensorIteratorBase* plan = take_common_plan(op);
  BP_INTERNAL_ASSERT(plan != nullptr, "no plan was handed to ", op.name());
  BP_INTERNAL_ASSERT(plan->common_dtype().has_value(), op.name(), "'s plan has no common dtype");
  static_cast<Capture*>(data)->handed = HandedPlan{plan_of(*plan), dtype_of(*plan->common_dtype())};
  const size_t nargs = op.schema().arguments.size();
  Value out = std::move(stack->back());  // out= ops return their out, the last argument
  stack->resize(stack->size() - nargs);
  stack->push_back(std::move(out));
}

}  // namespace

HandedPlan handed_plan(const EmulatedDevice& device, const std::string& op_name, Stack args) {
  Capture capture;
  const RegistrationHandle kernel = Dispatcher::singleton().register_impl(
      "bp::" + op_name, device.key(), KernelFunction::make_from_boxed(&capture_plan, &capture),
      "handed_plan capture");
  Dispatcher::singleton().find_op_or_throw(op_name).call_boxed(&args);
  BP_INTERNAL_ASSERT(capture.handed.has_value(), "the stand-in kernel of ", op_name, " never ran");
  return *capture.handed;
}

ReductionCall reduction_call(const EmulatedDevice& device, const ReduceKernel& k,
                             const Tensor& input, const std::vector<int64_t>& dims) {
  const std::vector<int64_t> sizes(input.sizes().begin(), input.sizes().end());
  std::vector<int64_t> kept = sizes;
  for (int64_t d : dims) kept[static_cast<size_t>(d)] = 1;
  std::vector<Tensor> outputs, views;
  for (int o = 0; o < k.num_outputs(); ++o) {
    outputs.push_back(device.empty(kept, k.op->result(o) == ReduceResult::kIndex
                                             ? ScalarType::kInt64
                                             : scalar_type_of(k.out)));
    std::vector<int64_t> strides(outputs.back().strides().begin(), outputs.back().strides().end());
    for (int64_t d : dims) strides[static_cast<size_t>(d)] = 0;
    views.push_back(native::as_strided(outputs.back(), sizes, strides));
  }
  TensorIterator iter = build_plan(
      BP_ITER_IS_REDUCTION | BP_ITER_PROMOTE_INPUTS_TO_COMMON_DTYPE | BP_ITER_CHECK_ALL_SAME_DEVICE,
      views, {input});
  return {std::move(outputs), std::move(iter)};
}

IterPlan plan_of(const TensorIteratorBase& iter) {
  IterPlan plan;
  plan.shape.assign(iter.shape().begin(), iter.shape().end());
  plan.noutputs = iter.noutputs();
  for (int k = 0; k < iter.ntensors(); ++k) {
    PlanOperand op;
    op.strides.assign(iter.strides(k).begin(), iter.strides(k).end());
    op.data = static_cast<char*>(iter.data_ptr(k));
    op.dtype = dtype_of(iter.dtype(k));
    op.is_cpu_scalar = iter.is_cpu_scalar(k);
    plan.operands.push_back(std::move(op));
  }
  return plan;
}

bp_value abi_value(const Scalar& s) {
  bp_value v{};
  if (s.is_boolean()) {
    v.tag = BP_VALUE_BOOL;
    v.u.b = s.to<bool>();
  } else if (s.is_integral(false)) {
    v.tag = BP_VALUE_INT;
    v.u.i = s.to<int64_t>();
  } else if (s.is_floating_point()) {
    v.tag = BP_VALUE_DOUBLE;
    v.u.d = s.to<double>();
  } else {
    const complex<double> z = s.to<complex<double>>();
    v.tag = BP_VALUE_COMPLEX;
    v.u.c.re = z.real();
    v.u.c.im = z.imag();
  }
  return v;
}

Scalar sample_scalar(ScalarType dtype) {
  if (dtype == ScalarType::kBool) return Scalar(true);
  if (is_integral(dtype, /*include_bool=*/false)) return Scalar(2);
  if (is_complex(dtype)) return Scalar(complex<double>(1.5, 0.5));
  return Scalar(1.5);
}

Stack call_op(const std::string& name, Stack args) {
  Dispatcher::singleton().find_op_or_throw(name).call_boxed(&args);
  return args;
}

bool run_emulated(const std::string& entry, uint32_t blocks, unsigned threads, const void* params) {
  const emulation::EmulatedKernel kernel = emulation::find_emulated_kernel(entry);
  if (!kernel) {
    ADD_FAILURE() << "kernel " << entry
                  << " was not built for emulation (emulated_kernels.cc must list it)";
    return false;
  }
  emulation::emulate_launch(kernel, {blocks}, {threads}, params);
  return true;
}

void expect_same_values(const Tensor& actual, const Tensor& expected, const std::string& what) {
  ASSERT_EQ(actual.sizes(), expected.sizes()) << what;
  const Tensor a = host_copy(actual), e = host_copy(expected);
  // The looser tolerance of the two dtypes (a result stored in a narrower dtype is rounded).
  const auto ta = tolerance(actual.dtype()), te = tolerance(expected.dtype());
  const std::pair<double, double> tol = {std::max(ta.first, te.first),
                                         std::max(ta.second, te.second)};
  int reported = 0;
  for (int64_t i = 0; i < a.numel() && reported < 5; ++i) {
    const complex<double> x = read_element(
        static_cast<const char*>(a.data_ptr()) + i * static_cast<int64_t>(a.itemsize()), a.dtype());
    const complex<double> y = read_element(
        static_cast<const char*>(e.data_ptr()) + i * static_cast<int64_t>(e.itemsize()), e.dtype());
    // Part by part: a NaN part matches only a NaN part (exp(inf + inf i) is inf + NaN i on both
    // backends, not NaN + NaN i).
    if (!close(x.real(), y.real(), tol) || !close(x.imag(), y.imag(), tol)) {
      ADD_FAILURE() << what << ": element " << i << " is " << x << ", expected " << y;
      ++reported;
    }
  }
}

}  // namespace bp::cuda
