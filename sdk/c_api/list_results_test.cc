// Plugin kernels returning lists (`Tensor[]`, `Tensor?[]`) through api->value_set_tensor_list:
// the values reach op_call's caller, value_release frees them, a list pointing into the plugin's
// memory is refused without a leak or a crash, a kernel that fails after filling a list leaks
// nothing, and debug mode checks list results against the meta function.
//
// Plugin kernels of list ops need ops to register for, so the test defines its own with the
// dispatcher's C++ Library (Backplane's own list ops through op_call: list_ops_test.cc); it links
// the host in-process (:abi_test_util_in_process) so that the C ABI and the Library share one
// dispatcher. Leaks: HostBackend counts its live allocations (and the tests run under ASan/LSan in
// CI).
#include <cstring>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/c_api/testing/abi_test_util.h"
#include "sdk/core/empty.h"
#include "sdk/dispatch/library.h"

namespace backplane::testing {
namespace {

constexpr const char* kSplit = "test_list::split_halves";
constexpr const char* kOptional = "test_list::optional_halves";

// The Meta kernel of split_halves: the sizes of the two halves.
std::vector<bp::Tensor> split_halves_meta(bp::DispatchKeySet, const bp::Tensor& self) {
  const int64_t n = self.sizes()[0];
  return {bp::native::empty({n / 2}, self.dtype(), self.device()),
          bp::native::empty({n - n / 2}, self.dtype(), self.device())};
}

// Defines the test ops once (the Library lives until the process exits).
void define_test_ops() {
  static const bp::Library lib = [] {
    bp::Library l("test_list");
    l.def("split_halves(Tensor self) -> Tensor[]")
        .def("optional_halves(Tensor self) -> Tensor?[]")
        .impl("split_halves", bp::DispatchKey::kMeta,
              bp::KernelFunction::make_from_unboxed<&split_halves_meta>());
    return l;
  }();
}

// How the test kernel fills its list result.
enum class Fill {
  kHostList,       // value_set_tensor_list with the two halves
  kEmpty,          // value_set_tensor_list(NULL, 0)
  kNullEntry,      // {first, NULL, second}
  kPluginArray,    // a TENSOR_LIST pointing into the kernel's own memory
  kListThenError,  // a list, then an error
  kWrongSizes,     // a 2 / 4 split of 6 elements
  kThreeTensors,   // one tensor too many
  kPassOn,         // the list result of op_call(split_halves), passed on as it is
};

struct KernelState {
  Fill fill;
  bp_tensor* plugin_array[2] = {nullptr, nullptr};  // kPluginArray: the list points here
};

// A tensor on `device` holding values[begin, end).
Tensor slice(const std::vector<float>& values, size_t begin, size_t end, bp_device device) {
  return Tensor::from_host<float>(api(),
                                  std::vector<float>(values.begin() + begin, values.begin() + end),
                                  {static_cast<int64_t>(end - begin)}, device);
}

// value_set_tensor_list with `tensors`, which give up their references only on success.
bp_error* set_list(bp_value* out, std::vector<Tensor> tensors) {
  std::vector<bp_tensor*> handles;
  for (const Tensor& t : tensors) handles.push_back(t.get());
  bp_error* error = api()->value_set_tensor_list(out, handles.data(), handles.size());
  if (error == nullptr) {
    for (Tensor& t : tensors) t.release();
  }
  return error;
}

// The C kernel of both test ops (the halves of a 1-d float32 tensor, on its device).
bp_error* list_kernel(void* user_data, const bp_op*, const bp_value* args, size_t nargs,
                      bp_value* results, size_t nresults) {
  auto& state = *static_cast<KernelState*>(user_data);
  if (nargs != 1 || nresults != 1) return api()->error_create(BP_ERROR_INTERNAL, "arity");
  try {
    const Tensor self = Tensor::borrow(api(), args[0].u.tensor);
    const std::vector<float> x = self.to_host<float>();
    const bp_device device = self.device();
    const size_t n = x.size(), h = n / 2;
    switch (state.fill) {
      case Fill::kHostList:
        return set_list(&results[0], {slice(x, 0, h, device), slice(x, h, n, device)});
      case Fill::kEmpty:
        return api()->value_set_tensor_list(&results[0], nullptr, 0);
      case Fill::kNullEntry:
        return set_list(&results[0], {slice(x, 0, h, device), Tensor(), slice(x, h, n, device)});
      case Fill::kPluginArray:
        state.plugin_array[0] = slice(x, 0, h, device).release();
        state.plugin_array[1] = slice(x, h, n, device).release();
        results[0].tag = BP_VALUE_TENSOR_LIST;
        results[0].u.tensors.data = state.plugin_array;
        results[0].u.tensors.size = 2;
        return nullptr;
      case Fill::kListThenError:
        if (bp_error* e = set_list(&results[0], {slice(x, 0, h, device), slice(x, h, n, device)})) {
          return e;
        }
        return api()->error_create(BP_ERROR_UNAVAILABLE, "device lost");
      case Fill::kWrongSizes:
        return set_list(&results[0], {slice(x, 0, h - 1, device), slice(x, h - 1, n, device)});
      case Fill::kThreeTensors:
        return set_list(&results[0],
                        {slice(x, 0, h, device), slice(x, h, n, device), slice(x, h, n, device)});
      case Fill::kPassOn: {
        const bp_op* split = nullptr;
        size_t count = 0;
        if (bp_error* e = api()->op_find(kSplit, &split)) return e;
        return api()->op_call(split, args, nargs, results, nresults, &count);
      }
    }
    return api()->error_create(BP_ERROR_INTERNAL, "unknown fill");
  } catch (const Error& e) {
    return api()->error_create(e.code(), e.what());
  }
}

class ListResults : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { define_test_ops(); }
  void TearDown() override { api()->set_debug_checks(false); }

  Registration register_fill(const char* op, KernelState& state) {
    bp_registration* r = nullptr;
    check(api(), api()->kernel_register(dev.get(), op, &list_kernel, &state, &r));
    return Registration(api(), r);
  }

  HostBackend dev{"list_dev"};
  Tensor x = Tensor::from_host<float>(api(), {1, 2, 3, 4, 5, 6}, {6}, dev.device());
  const int64_t baseline = dev.live_allocations();  // x's storage included
  Op split{api(), kSplit};
  Op optional{api(), kOptional};
};

TEST_F(ListResults, ReachTheCallerAndValueReleaseFreesThem) {
  KernelState state{Fill::kHostList};
  const Registration r = register_fill(kSplit, state);
  {
    const Results results = split.call({arg(x)});
    ASSERT_EQ(results.size(), 1u);
    ASSERT_EQ(results[0].tag, BP_VALUE_TENSOR_LIST);
    ASSERT_EQ(results[0].u.tensors.size, 2u);
    const std::vector<Tensor> halves = results.tensor_list(0);
    EXPECT_EQ(halves[0].sizes(), (std::vector<int64_t>{3}));
    EXPECT_EQ(halves[1].sizes(), (std::vector<int64_t>{3}));
    EXPECT_EQ(halves[0].device().device_type, dev.device().device_type);
    EXPECT_EQ(halves[0].to_host<float>(), (std::vector<float>{1, 2, 3}));
    EXPECT_EQ(halves[1].to_host<float>(), (std::vector<float>{4, 5, 6}));
    EXPECT_EQ(dev.live_allocations(), baseline + 2);
  }  // ~Results: value_release
  EXPECT_EQ(dev.live_allocations(), baseline);
}

TEST_F(ListResults, AnEmptyListIsAListOfNone) {
  KernelState state{Fill::kEmpty};
  const Registration r = register_fill(kSplit, state);
  const Results results = split.call({arg(x)});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].tag, BP_VALUE_TENSOR_LIST);
  EXPECT_EQ(results[0].u.tensors.size, 0u);
  EXPECT_TRUE(results.tensor_list(0).empty());
}

TEST_F(ListResults, NullEntriesAreNoneInAnOptionalListAndAnErrorInATensorList) {
  KernelState state{Fill::kNullEntry};
  const Registration r_optional = register_fill(kOptional, state);
  {
    const Results results = optional.call({arg(x)});
    ASSERT_EQ(results.size(), 1u);
    ASSERT_EQ(results[0].u.tensors.size, 3u);
    EXPECT_NE(results[0].u.tensors.data[0], nullptr);
    EXPECT_EQ(results[0].u.tensors.data[1], nullptr);
    const std::vector<Tensor> list = results.tensor_list(0);
    EXPECT_FALSE(list[1].defined());
    EXPECT_EQ(list[2].to_host<float>(), (std::vector<float>{4, 5, 6}));
  }
  const Registration r_split = register_fill(kSplit, state);
  Results results(api(), 1);
  const ErrorHandle error = split.try_call({arg(x)}, results);
  ASSERT_TRUE(error);
  EXPECT_EQ(error.code(), BP_ERROR_TYPE);
  EXPECT_EQ(error.message(),
            "[split_halves] [list_dev] split_halves: result 0 must be Tensor[], but element 1 is "
            "a NULL tensor");
  EXPECT_EQ(results.size(), 0u);
  EXPECT_EQ(dev.live_allocations(), baseline);
}

TEST_F(ListResults, AListInThePluginsMemoryIsRefusedWithoutLeakOrCrash) {
  KernelState state{Fill::kPluginArray};
  const Registration r = register_fill(kSplit, state);
  Results results(api(), 1);
  const ErrorHandle error = split.try_call({arg(x)}, results);
  ASSERT_TRUE(error);
  EXPECT_EQ(error.code(), BP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(error.message(),
            "[split_halves] [list_dev] split_halves: result 0 must be filled with "
            "api->value_set_tensor_list (its list is not host memory)");
  // The host dropped the references in the list (the tensors are gone) and left the array alone
  // (freeing it would be an invalid free under ASan, a crash without).
  EXPECT_EQ(dev.live_allocations(), baseline);
  EXPECT_NE(state.plugin_array[0], nullptr);
}

TEST_F(ListResults, AKernelErrorAfterFillingAListReleasesIt) {
  KernelState state{Fill::kListThenError};
  const Registration r = register_fill(kSplit, state);
  Results results(api(), 1);
  const ErrorHandle error = split.try_call({arg(x)}, results);
  ASSERT_TRUE(error);
  EXPECT_EQ(error.code(), BP_ERROR_UNAVAILABLE);
  EXPECT_EQ(error.message(), "[split_halves] [list_dev] split_halves: device lost");
  EXPECT_EQ(dev.live_allocations(), baseline);
}

TEST_F(ListResults, AListFromOpCallCanBePassedOnAsItIs) {
  KernelState split_state{Fill::kHostList};
  KernelState pass_on{Fill::kPassOn};
  const Registration r_split = register_fill(kSplit, split_state);
  const Registration r_optional = register_fill(kOptional, pass_on);
  {
    const Results results = optional.call({arg(x)});
    const std::vector<Tensor> list = results.tensor_list(0);
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[0].to_host<float>(), (std::vector<float>{1, 2, 3}));
    EXPECT_EQ(list[1].to_host<float>(), (std::vector<float>{4, 5, 6}));
  }
  EXPECT_EQ(dev.live_allocations(), baseline);
}

// ---- value_set_tensor_list itself --------------------------------------------------------

TEST_F(ListResults, ValueSetTensorListTakesTheReferencesAndValueReleaseDropsThem) {
  Tensor a = slice({1, 2, 3, 4}, 0, 2, dev.device());
  Tensor b = slice({1, 2, 3, 4}, 2, 4, dev.device());
  bp_tensor* const handles[] = {a.get(), nullptr, b.get()};
  bp_value v{};
  check(api(), api()->value_set_tensor_list(&v, handles, 3));
  a.release();  // the list holds them now
  b.release();
  ASSERT_EQ(v.tag, BP_VALUE_TENSOR_LIST);
  ASSERT_EQ(v.u.tensors.size, 3u);
  EXPECT_NE(v.u.tensors.data, handles);  // a host copy of the array
  EXPECT_EQ(v.u.tensors.data[0], handles[0]);
  EXPECT_EQ(v.u.tensors.data[1], nullptr);
  EXPECT_EQ(v.u.tensors.data[2], handles[2]);
  EXPECT_EQ(dev.live_allocations(), baseline + 2);
  api()->value_release(&v);
  EXPECT_EQ(v.tag, BP_VALUE_NONE);
  EXPECT_EQ(dev.live_allocations(), baseline);
}

TEST_F(ListResults, ValueSetTensorListOfSizeZero) {
  bp_tensor* const one[] = {x.get()};  // not read: size 0
  for (bp_tensor* const* tensors : {static_cast<bp_tensor* const*>(nullptr), one}) {
    bp_value v{};
    check(api(), api()->value_set_tensor_list(&v, tensors, 0));
    EXPECT_EQ(v.tag, BP_VALUE_TENSOR_LIST);
    EXPECT_EQ(v.u.tensors.size, 0u);
    EXPECT_NE(v.u.tensors.data, nullptr);  // an array of its own, freed by value_release
    api()->value_release(&v);
    EXPECT_EQ(v.tag, BP_VALUE_NONE);
  }
}

TEST_F(ListResults, ValueSetTensorListErrorsTakeNothingAndLeaveTheValue) {
  bp_tensor* const handles[] = {x.get()};
  const ErrorHandle no_out(api(), api()->value_set_tensor_list(nullptr, handles, 1));
  EXPECT_EQ(no_out.code(), BP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(no_out.message(), "bp_api.value_set_tensor_list: `out` is NULL");
  bp_value v{};
  v.tag = BP_VALUE_INT;
  v.u.i = 42;
  const ErrorHandle no_tensors(api(), api()->value_set_tensor_list(&v, nullptr, 2));
  EXPECT_EQ(no_tensors.code(), BP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(no_tensors.message(), "bp_api.value_set_tensor_list: `tensors` is NULL but size is 2");
  EXPECT_EQ(v.tag, BP_VALUE_INT);
  EXPECT_EQ(v.u.i, 42);
  // x still holds its reference (released by ~Tensor; a taken one would be a double release).
  EXPECT_EQ(x.to_host<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST_F(ListResults, ValueReleaseLeavesAnArrayTheHostDidNotAllocate) {
  Tensor a = slice({1, 2}, 0, 2, dev.device());
  bp_tensor* mine[] = {a.release()};  // a new reference, in the caller's own array
  bp_value v{};
  v.tag = BP_VALUE_TENSOR_LIST;
  v.u.tensors.data = mine;
  v.u.tensors.size = 1;
  api()->value_release(&v);  // drops the reference; freeing `mine` would fail under ASan
  EXPECT_EQ(v.tag, BP_VALUE_NONE);
  EXPECT_EQ(dev.live_allocations(), baseline);
}

// ---- Typed kernels -----------------------------------------------------------------------

std::vector<Tensor> typed_split(const bp_api*, Tensor self) {
  const std::vector<float> x = self.to_host<float>();
  return {slice(x, 0, 1, self.device()), slice(x, 1, x.size(), self.device())};
}

TEST_F(ListResults, ATypedKernelReturnsAVectorOfTensors) {
  const Registration r = register_kernel<&typed_split>(api(), dev.get(), kSplit);
  {
    const std::vector<Tensor> list = split.call({arg(x)}).tensor_list(0);
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[0].to_host<float>(), (std::vector<float>{1}));
    EXPECT_EQ(list[1].to_host<float>(), (std::vector<float>{2, 3, 4, 5, 6}));
  }
  EXPECT_EQ(dev.live_allocations(), baseline);
}

TEST_F(ListResults, APluginsTypedKernelReturnsAList) {
  LoadedPlugin plugin("libcc_test_plugin.so");  // registers split_halves: the op is defined here
  const bp_device ccplug = backend_device("ccplug");
  const Tensor y = Tensor::from_host<float>(api(), {1, 2, 3, 4, 5}, {5}, ccplug);
  const std::vector<Tensor> list = split.call({arg(y)}).tensor_list(0);
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].device().device_type, ccplug.device_type);
  EXPECT_EQ(list[0].to_host<float>(), (std::vector<float>{1, 2}));
  EXPECT_EQ(list[1].to_host<float>(), (std::vector<float>{3, 4, 5}));
}

// ---- Debug checks ------------------------------------------------------------------------

TEST_F(ListResults, DebugChecksPassACorrectList) {
  KernelState state{Fill::kHostList};
  const Registration r = register_fill(kSplit, state);
  api()->set_debug_checks(true);
  EXPECT_EQ(split.call({arg(x)}).tensor_list(0).size(), 2u);
}

TEST_F(ListResults, DebugChecksReportAListTensorOfTheWrongSizes) {
  KernelState state{Fill::kWrongSizes};
  const Registration r = register_fill(kSplit, state);
  EXPECT_EQ(split.call({arg(x)}).tensor_list(0)[0].sizes(), (std::vector<int64_t>{2}));
  api()->set_debug_checks(true);
  EXPECT_EQ(error_of([&] { split.call({arg(x)}); }),
            "[split_halves] [list_dev] split_halves: debug check: result 0[0] has sizes [2] but "
            "the op's meta function gives [3]");
  EXPECT_EQ(dev.live_allocations(), baseline);
}

TEST_F(ListResults, DebugChecksReportAListOfTheWrongLength) {
  KernelState state{Fill::kThreeTensors};
  const Registration r = register_fill(kSplit, state);
  api()->set_debug_checks(true);
  EXPECT_EQ(error_of([&] { split.call({arg(x)}); }),
            "[split_halves] [list_dev] split_halves: debug check: result 0 has 3 tensors but the "
            "op's meta function gives 2");
  EXPECT_EQ(dev.live_allocations(), baseline);
}

TEST_F(ListResults, DebugChecksSkipAnOpWithoutAMetaKernel) {
  KernelState state{Fill::kNullEntry};
  const Registration r = register_fill(kOptional, state);
  api()->set_debug_checks(true);
  EXPECT_EQ(optional.call({arg(x)}).tensor_list(0).size(), 3u);
}

}  // namespace
}  // namespace backplane::testing
