// Runs every pointwise op's jitted kernels, compiled as host C++ (emulator.h), on the plans the
// plugin sees (the ones the host's Common key hands its kernels: the ops' meta functions'
// TensorIterators), chosen as the plugin chooses them, and compares with the CPU backend:
// vectorised loads and their tail, offsets of strided and broadcast operands, dynamic casts, CPU
// scalars passed by value, a compute dtype a Scalar decided, copies between every pair of dtypes
// and fills.
#include <cmath>
#include <iterator>
#include <string>
#include <type_traits>
#include <vector>

#include "gtest/gtest.h"
#include "reference_backend/cuda/computation.h"
#include "reference_backend/cuda/elementwise_plan.h"
#include "reference_backend/cuda/emulation/emulated_kernels.h"
#include "reference_backend/cuda/emulation/test_support.h"
#include "reference_backend/cuda/host_values.h"
#include "reference_backend/cuda/kernel_catalog.h"
#include "reference_backend/cuda/pointwise_ops.h"
#include "sdk/core/views.h"

namespace bp::cuda {
namespace {

// Sizes that coalesce to one dimension of 1035 elements: two full blocks and a tail.
const std::vector<int64_t> kSizes = {5, 207};

struct OpCase {
  const PointwiseOp* op;
  Dtype dtype;  // the common dtype S
  Dtype out;    // the natural output dtype
  std::string name() const { return std::string(op->name) + " " + std::string(info(dtype).name); }
};

// Every (op, supported dtype).
std::vector<OpCase> op_cases() {
  std::vector<OpCase> cases;
  for (const PointwiseOp& op : pointwise_ops()) {
    for (int d = 0; d < kNumDtypes; ++d) {
      const Dtype dtype = dtype_of_code(d);
      const std::optional<Dtype> out = natural_output(op, dtype);
      if (op.supports(dtype) && out) cases.push_back({&op, dtype, *out});
    }
  }
  return cases;
}

// A sample of the functor's argument j: sample_scalar(S) for a Scalar (sample_math_argument).
Value sample_math_argument(const OpCase& c, int j) {
  return sample_math_argument(*c.op, j, sample_scalar(scalar_type_of(c.dtype)));
}

// The boxed arguments of the op's out= call: these inputs, a sample of each functor argument
// and `out`.
Stack out_call_args(const OpCase& c, const std::vector<Tensor>& inputs, const Tensor& out) {
  Stack args(static_cast<size_t>(c.op->num_arguments));
  // Arguments other than inputs and functor arguments: what the alternative's conditions need.
  for (int a = 0; a < c.op->num_arguments; ++a) args[a] = condition_value(*c.op, a);
  for (int i = 0; i < c.op->num_inputs; ++i) args[c.op->inputs[i]] = Value(inputs[i]);
  for (int j = 0; j < c.op->num_args; ++j) args[c.op->args[j]] = sample_math_argument(c, j);
  args[c.op->out] = Value(out);
  return args;
}

// The op's CPU result for these CPU inputs, in a CPU out of dtype `out` and kSizes.
Tensor cpu_result(const OpCase& c, const std::vector<Tensor>& inputs) {
  Tensor out = cpu_tensor(kSizes, scalar_type_of(c.out));
  call_op(c.op->name, out_call_args(c, inputs, out));
  return out;
}

std::vector<jit::Value> arg_values(const OpCase& c) {
  std::vector<jit::Value> values;
  for (int j = 0; j < c.op->num_args; ++j) {
    const Value sample = sample_math_argument(c, j);
    bp_value boxed{};  // as the C ABI passes it: None, a str, or a number
    if (sample.tag() == Value::Tag::kString) {
      boxed.tag = BP_VALUE_STRING;
      boxed.u.s = sample.to<std::string_view>().data();  // NUL-terminated: a std::string's
    } else if (!sample.is_none()) {
      boxed = abi_value(sample.to<Scalar>());
    }
    values.push_back(math_argument(*c.op, j, boxed, c.dtype));
  }
  return values;
}

// The launch the plugin's kernel plans over a handed plan: S is the plan's common dtype, static
// kernels store the output's dtype.
ElementwiseLaunch plugin_launch(const OpCase& c, const HandedPlan& h) {
  EXPECT_EQ(h.common, c.dtype) << "the meta function computes in another dtype";
  return plan_elementwise(computation_of(*c.op), h.common, h.plan.operands[0].dtype, h.plan,
                          arg_values(c));
}

// Input i of a call of common dtype S: random values in its dtype (bool for an input read as
// bool; integers are never zero, so divisors are valid).
Tensor random_input(const OpCase& c, int i, std::vector<int64_t> sizes, uint64_t seed) {
  return random_tensor(std::move(sizes), scalar_type_of(input_dtype(*c.op, i, c.dtype)), seed);
}

std::vector<Tensor> random_inputs(const OpCase& c, std::vector<int64_t> sizes) {
  std::vector<Tensor> inputs;
  for (int i = 0; i < c.op->num_inputs; ++i) inputs.push_back(random_input(c, i, sizes, 11 + i));
  return inputs;
}

// The variant the plugin takes where it would take `variant` over operands of dtype S: the
// dynamic kernel when an input read as bool has another dtype and is not a CPU scalar (passed
// by value, converted on the host).
Variant expected_variant(const OpCase& c, Variant variant, uint32_t scalar_mask) {
  const bool bool_in_memory = (c.op->bool_inputs & ~scalar_mask) != 0;
  return runs_static(*c.op, c.dtype) || !bool_in_memory ? variant : Variant::kDynamic;
}

class ElementwiseEmulation : public ::testing::Test {
 protected:
  // Calls the op's out= variant on these device operands through the host's Common key, plans
  // its kernel over the handed plan as the plugin does, checks the kernel chosen, runs it.
  void run_op(const OpCase& c, const Tensor& out, const std::vector<Tensor>& inputs,
              Variant variant, int vec, uint32_t scalar_mask) {
    const HandedPlan h = handed_plan(device_, c.op->name, out_call_args(c, inputs, out));
    const ElementwiseLaunch launch = plugin_launch(c, h);
    variant = expected_variant(c, variant, scalar_mask);
    ASSERT_EQ(launch.kernel.variant, variant) << launch.kernel.entry_name();
    if (variant == Variant::kVectorized) {
      ASSERT_EQ(launch.kernel.vec, vec);
    }
    ASSERT_EQ(launch.kernel.scalar_mask, scalar_mask);
    run_emulated(launch.kernel.entry_name(), launch.blocks, jit::kThreads, launch.params());
  }

  // Whether the op's meta function accepts these operands (ternary ops take no CPU scalars).
  bool meta_accepts(const OpCase& c, const std::vector<Tensor>& inputs, const Tensor& out) {
    try {
      handed_plan(device_, c.op->name, out_call_args(c, inputs, out));
      return true;
    } catch (const bp::Error&) {
      return false;
    }
  }

  EmulatedDevice device_;
};

TEST_F(ElementwiseEmulation, EveryOpMatchesTheCpuBackendOnContiguousOperandsWithVectorLoads) {
  ASSERT_FALSE(op_cases().empty());
  for (const OpCase& c : op_cases()) {
    SCOPED_TRACE(c.name());
    const std::vector<Tensor> inputs = random_inputs(c, kSizes);
    std::vector<Tensor> on_device;
    for (const Tensor& in : inputs) on_device.push_back(device_.copy_of(in));
    const Tensor out = device_.empty(kSizes, scalar_type_of(c.out));
    run_op(c, out, on_device, Variant::kVectorized, 4, 0);
    expect_same_values(out, cpu_result(c, inputs), c.name());
  }
}

TEST_F(ElementwiseEmulation, EveryOpMatchesTheCpuBackendOnTransposedAndBroadcastOperands) {
  for (const OpCase& c : op_cases()) {
    SCOPED_TRACE(c.name());
    // Input 0 is a transposed view; the others broadcast a row.
    std::vector<Tensor> inputs, on_device;
    for (int i = 0; i < c.op->num_inputs; ++i) {
      if (i == 0) {
        const Tensor t = random_input(c, 0, {207, 5}, 3);
        inputs.push_back(native::transpose(t, 0, 1));
        on_device.push_back(native::transpose(device_.copy_of(t), 0, 1));
      } else {
        const Tensor row = random_input(c, i, {1, 207}, 5 + i);
        inputs.push_back(row);
        on_device.push_back(device_.copy_of(row));
      }
    }
    const Tensor out = device_.empty(kSizes, scalar_type_of(c.out));
    run_op(c, out, on_device, Variant::kStrided, 1, 0);
    expect_same_values(out, cpu_result(c, inputs), c.name());
  }
}

// Every pair of parts from {0, -0, 1.5, -1.5, inf, -inf, NaN}, cycled over kSizes: both parts
// special too, which random_tensor never makes.
Tensor complex_special_values(ScalarType dtype) {
  const double parts[] = {0.0, -0.0, 1.5, -1.5, HUGE_VAL, -HUGE_VAL, std::nan("")};
  Tensor t = cpu_tensor(kSizes, dtype);
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, complex<float>> || std::is_same_v<T, complex<double>>) {
      using V = typename T::value_type;
      T* data = t.data_ptr<T>();
      for (int64_t i = 0; i < t.numel(); ++i) {
        data[i] = T(static_cast<V>(parts[i % 49 / 7]), static_cast<V>(parts[i % 7]));
      }
    }
  });
  return t;
}

// Complex special values through every unary op, compared part by part: exp(inf + inf i) is
// inf + NaN i on the CPU (C99's cexp), so the device must not give NaN + NaN i.
TEST_F(ElementwiseEmulation, UnaryOpsOfComplexSpecialValuesMatchTheCpuBackendPartByPart) {
  int cases = 0;
  for (const OpCase& c : op_cases()) {
    if (c.op->num_inputs != 1 || !is_complex(scalar_type_of(c.dtype))) continue;
    SCOPED_TRACE(c.name());
    const std::vector<Tensor> inputs = {complex_special_values(scalar_type_of(c.dtype))};
    const std::vector<Tensor> on_device = {device_.copy_of(inputs[0])};
    const Tensor out = device_.empty(kSizes, scalar_type_of(c.out));
    run_op(c, out, on_device, Variant::kVectorized, 4, 0);
    expect_same_values(out, cpu_result(c, inputs), c.name());
    ++cases;
  }
  EXPECT_GT(cases, 0);
}

// A dtype that holds every value random_tensor makes for `dtype` exactly, and another than it.
Dtype wider(Dtype dtype) {
  switch (dtype) {
    case Dtype::kBool:
    case Dtype::kUInt8:
    case Dtype::kInt8:
      return Dtype::kInt16;
    case Dtype::kInt16:
      return Dtype::kInt32;
    case Dtype::kInt32:
    case Dtype::kFloat16:
    case Dtype::kBFloat16:
      return Dtype::kFloat64;
    case Dtype::kInt64:
    case Dtype::kFloat32:
      return Dtype::kFloat64;
    case Dtype::kFloat64:
    case Dtype::kComplex64:
      return Dtype::kComplex128;
    case Dtype::kComplex128:
      break;
  }
  return Dtype::kComplex64;
}

TEST_F(ElementwiseEmulation, EveryOpMatchesTheCpuBackendWithOperandsOfOtherDtypesCastOnLoad) {
  for (const OpCase& c : op_cases()) {
    SCOPED_TRACE(c.name());
    // The plan is the meta function's over operands of dtype S; then input 0 and the output are
    // swapped for copies in wider dtypes, as a plan over mixed dtypes gives the plugin.
    const std::vector<Tensor> inputs = random_inputs(c, kSizes);
    std::vector<Tensor> on_device;
    for (const Tensor& in : inputs) on_device.push_back(device_.copy_of(in));
    const Tensor out = device_.empty(kSizes, scalar_type_of(c.out));
    HandedPlan handed = handed_plan(device_, c.op->name, out_call_args(c, on_device, out));
    IterPlan& plan = handed.plan;
    const Dtype in_dtype = wider(c.dtype), out_dtype = wider(c.out);
    const Tensor wide_in = device_.copy_of(converted(inputs[0], scalar_type_of(in_dtype)));
    const Tensor wide_out = device_.empty(kSizes, scalar_type_of(out_dtype));
    plan.operands[0] = {{static_cast<int64_t>(info(out_dtype).itemsize)},
                        static_cast<char*>(wide_out.data_ptr()),
                        out_dtype,
                        false};
    plan.operands[1] = {{static_cast<int64_t>(info(in_dtype).itemsize)},
                        static_cast<char*>(wide_in.data_ptr()),
                        in_dtype,
                        false};
    const ElementwiseLaunch launch = plugin_launch(c, handed);
    ASSERT_EQ(launch.kernel.variant, Variant::kDynamic);
    run_emulated(launch.kernel.entry_name(), launch.blocks, jit::kThreads, launch.params());
    // The kernel stores the result converted to the output's dtype: where that narrows (wider()'s
    // pick for complex128 is complex64), compare with the CPU's result converted likewise
    // (nan_to_num's largest double is inf in complex64).
    const Tensor expected = cpu_result(c, inputs);
    const bool narrows = info(out_dtype).itemsize < info(c.out).itemsize;
    expect_same_values(
        wide_out, narrows ? converted(expected, scalar_type_of(out_dtype)) : expected, c.name());
  }
}

TEST_F(ElementwiseEmulation, OpsWithSeveralInputsTakeCpuScalarsInEveryPosition) {
  int cases = 0;
  for (const OpCase& c : op_cases()) {
    if (c.op->num_inputs < 2) continue;
    for (int s = 0; s < c.op->num_inputs; ++s) {
      SCOPED_TRACE(c.name() + ", CPU scalar input " + std::to_string(s));
      std::vector<Tensor> inputs = random_inputs(c, kSizes), on_device;
      // A zero-dim CPU tensor holding a value other than 0 (or true).
      inputs[s] = converted(random_tensor({}, ScalarType::kInt64, 2),
                            scalar_type_of(input_dtype(*c.op, s, c.dtype)));
      for (int i = 0; i < c.op->num_inputs; ++i) {
        on_device.push_back(i == s ? inputs[i] : device_.copy_of(inputs[i]));
      }
      const Tensor out = device_.empty(kSizes, scalar_type_of(c.out));
      if (!meta_accepts(c, on_device, out)) continue;  // the kernel never sees such calls
      run_op(c, out, on_device, Variant::kVectorized, 4, 1u << s);
      expect_same_values(out, cpu_result(c, inputs), c.name());
      ++cases;
    }
  }
  EXPECT_GT(cases, 0);
}

TEST_F(ElementwiseEmulation,
       PowOfIntegersWithAFloatExponentComputesInTheDtypeItsMetaFunctionChose) {
  // pow(int32, 2.5) is float32: the handed plan says so with its common dtype, over the int32
  // tensor itself (no converted copy on the device), and the dynamic kernel casts while loading.
  const PointwiseOp& op = *find_pointwise_op("pow.Tensor_Scalar_out");
  const Tensor x = random_tensor(kSizes, ScalarType::kInt32, 7);
  const Tensor dx = device_.copy_of(x), out = device_.empty(kSizes, ScalarType::kFloat32);
  const HandedPlan h = handed_plan(device_, op.name, {Value(dx), Value(Scalar(2.5)), Value(out)});
  EXPECT_EQ(h.common, Dtype::kFloat32);
  EXPECT_EQ(h.plan.operands[1].dtype, Dtype::kInt32);
  const jit::Value exponent = scalar_as(abi_value(Scalar(2.5)), compute_dtype(h.common));
  const ElementwiseLaunch launch = plan_elementwise(
      computation_of(op), h.common, h.plan.operands[0].dtype, h.plan, {&exponent, 1});
  ASSERT_EQ(launch.kernel.variant, Variant::kDynamic);
  run_emulated(launch.kernel.entry_name(), launch.blocks, jit::kThreads, launch.params());
  Tensor expected = cpu_tensor(kSizes, ScalarType::kFloat32);
  call_op(op.name, {Value(x), Value(Scalar(2.5)), Value(expected)});
  expect_same_values(out, expected, "pow(int32, 2.5)");
}

// The poles, infinities and the regions each branch of polygamma and mvlgamma takes (the
// reflection next to a pole, the split zeta below -100), then random values.
Tensor gamma_family_values(ScalarType dtype) {
  const double specials[] = {0.0,          -0.0,     -1.0,      -2.0,        -2.5,      -1.0001,
                             0.5,          3.75,     30.5,      -150.3,      -7.504394, 1e10,
                             -1e10 + 0.25, HUGE_VAL, -HUGE_VAL, std::nan("")};
  Tensor wide = converted(random_tensor(kSizes, ScalarType::kFloat64, 13), ScalarType::kFloat64);
  double* data = wide.data_ptr<double>();
  for (size_t i = 0; i < std::size(specials); ++i) data[i] = specials[i];
  return converted(wide, dtype);
}

// polygamma of each order its math tells apart (digamma, trigamma, zeta) and mvlgamma of several
// dimensions: the tests over every op sample one value of an int argument (2).
TEST_F(ElementwiseEmulation, PolygammaAndMvlgammaOfEveryOrderMatchTheCpuBackend) {
  const struct {
    const char* op;
    int64_t order;
  } calls[] = {{"polygamma.out", 0},
               {"polygamma.out", 1},
               {"polygamma.out", 3},
               {"mvlgamma.out", 1},
               {"mvlgamma.out", 5}};
  for (const ScalarType dtype :
       {ScalarType::kFloat32, ScalarType::kFloat64, ScalarType::kBFloat16}) {
    for (const auto& call : calls) {
      const std::string what = std::string(call.op) + " " + std::to_string(call.order) + " " +
                               std::string(scalar_type_name(dtype));
      SCOPED_TRACE(what);
      const PointwiseOp& op = *find_pointwise_op(call.op);
      const Tensor x = gamma_family_values(dtype);
      const Tensor dx = device_.copy_of(x), out = device_.empty(kSizes, dtype);
      const auto args = [&](const Tensor& self, const Tensor& into) {
        Stack stack(static_cast<size_t>(op.num_arguments));
        stack[op.inputs[0]] = Value(self);
        stack[op.args[0]] = Value(call.order);
        stack[op.out] = Value(into);
        return stack;
      };
      const HandedPlan h = handed_plan(device_, op.name, args(dx, out));
      const jit::Value order = math_argument(op, 0, abi_value(Scalar(call.order)), h.common);
      const ElementwiseLaunch launch = plan_elementwise(
          computation_of(op), h.common, h.plan.operands[0].dtype, h.plan, {&order, 1});
      run_emulated(launch.kernel.entry_name(), launch.blocks, jit::kThreads, launch.params());
      Tensor expected = cpu_tensor(kSizes, dtype);
      call_op(op.name, args(x, expected));
      expect_same_values(out, expected, what);
    }
  }
}

TEST_F(ElementwiseEmulation, MisalignedOperandsUseNarrowerVectors) {
  for (const OpCase& c : op_cases()) {
    if (c.dtype != Dtype::kFloat32 && c.dtype != Dtype::kFloat16 && c.dtype != Dtype::kComplex128) {
      continue;
    }
    // One element in: a complex128 or float32 pointer is then aligned to one element; two
    // float16 elements in, to two elements (vector width 2).
    const int64_t offset = c.dtype == Dtype::kFloat16 ? 2 : 1;
    const int vec = c.dtype == Dtype::kFloat16 ? 2 : 1;
    SCOPED_TRACE(c.name());
    const std::vector<Tensor> inputs = random_inputs(c, kSizes);
    std::vector<Tensor> on_device;
    for (const Tensor& in : inputs) on_device.push_back(device_.copy_of(in, offset));
    const Tensor out = device_.empty(kSizes, scalar_type_of(c.out));
    run_op(c, out, on_device, Variant::kVectorized, vec, 0);
    expect_same_values(out, cpu_result(c, inputs), c.name());
  }
}

TEST_F(ElementwiseEmulation, CopiesConvertBetweenEveryPairOfDtypesInAnyLayout) {
  for (int s = 0; s < kNumDtypes; ++s) {
    for (int d = 0; d < kNumDtypes; ++d) {
      const Dtype src = dtype_of_code(s), dst = dtype_of_code(d);
      SCOPED_TRACE(std::string(info(src).name) + " -> " + std::string(info(dst).name));
      const Tensor values = random_tensor({207, 5}, scalar_type_of(src), 17);
      Tensor expected = cpu_tensor({207, 5}, scalar_type_of(dst));
      call_op("copy_", {Value(expected), Value(values), Value(false)});
      for (bool transposed : {false, true}) {
        const Tensor in =
            transposed ? native::transpose(device_.copy_of(values), 0, 1) : device_.copy_of(values);
        const Tensor out =
            device_.empty(transposed ? std::vector<int64_t>{5, 207} : std::vector<int64_t>{207, 5},
                          scalar_type_of(dst));
        TensorIterator iter = build_plan(0, {out}, {in});
        const ElementwiseLaunch launch =
            plan_elementwise(copy_computation(), src, dst, plan_of(iter), {});
        ASSERT_EQ(launch.kernel.variant, transposed ? Variant::kStrided : Variant::kVectorized);
        run_emulated(launch.kernel.entry_name(), launch.blocks, jit::kThreads, launch.params());
        expect_same_values(transposed ? native::transpose(out, 0, 1) : out, expected, "copy");
      }
    }
  }
}

TEST_F(ElementwiseEmulation, FillsWriteTheValueInEveryDtypeAndLayout) {
  for (int d = 0; d < kNumDtypes; ++d) {
    const Dtype dtype = dtype_of_code(d);
    SCOPED_TRACE(info(dtype).name);
    const Scalar value = sample_scalar(scalar_type_of(dtype));
    Tensor expected = cpu_tensor({207, 5}, scalar_type_of(dtype));
    call_op("fill_.Scalar", {Value(expected), Value(value)});
    for (bool transposed : {false, true}) {
      const Tensor base = device_.empty({207, 5}, scalar_type_of(dtype));
      const Tensor out = transposed ? native::transpose(base, 0, 1) : base;
      TensorIterator iter = build_plan(0, {out}, {});
      const jit::Value v = scalar_as(abi_value(value), dtype);
      const ElementwiseLaunch launch =
          plan_elementwise(fill_computation(), dtype, dtype, plan_of(iter), {&v, 1});
      run_emulated(launch.kernel.entry_name(), launch.blocks, jit::kThreads, launch.params());
      expect_same_values(base, expected, "fill");
    }
  }
}

}  // namespace
}  // namespace bp::cuda
