// The dispatcher from C (C ABI 0.4): plugin backends without a fixed pool of keys (64 at once,
// their keys recycled), fallthrough for one (op, key), wrapper keys that count calls and
// redispatch (per thread, globally, registered from several threads), and the dispatch table
// naming each kernel's source.
#include <atomic>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/c_api/testing/abi_test_util.h"

namespace backplane::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The op's dispatch table as api->op_dispatch_table gives it.
std::string dispatch_table(const char* op) {
  bp_value text{};
  check(api(), api()->op_dispatch_table(Op(api(), op).get(), &text));
  EXPECT_EQ(text.tag, BP_VALUE_STRING);
  std::string out = text.u.s;
  api()->value_release(&text);
  return out;
}

// The dispatch key name of the registered backend `name` ("Plugin3"), as backend_list says.
std::string key_of(const std::string& name) {
  struct Search {
    std::string name, key;
  } search{name, ""};
  check(api(), api()->backend_list(
                   [](void* user_data, const bp_backend_info* info) {
                     auto* s = static_cast<Search*>(user_data);
                     if (s->name == info->name) s->key = info->dispatch_key;
                   },
                   &search));
  return search.key;
}

// A kernel that counts its calls and runs the op on the CPU (cpu_fallback).
bp_error* count_then_cpu(void* user_data, const bp_op* op, const bp_value* args, size_t nargs,
                         bp_value* results, size_t nresults) {
  ++*static_cast<std::atomic<int>*>(user_data);
  return api()->cpu_fallback(nullptr, op, args, nargs, results, nresults);
}

// A wrapper kernel that counts its calls and passes them on unchanged.
bp_error* count_then_redispatch(void* user_data, const bp_op*, const bp_value* args, size_t nargs,
                                bp_value* results, size_t nresults) {
  ++*static_cast<std::atomic<int>*>(user_data);
  size_t n = 0;
  return api()->kernel_redispatch(args, args, nargs, results, nresults, &n);
}

Registration kernel(bp_backend* backend, const char* op, bp_kernel_fn fn, void* user_data) {
  bp_registration* r = nullptr;
  check(api(), api()->kernel_register(backend, op, fn, user_data, &r));
  return Registration(api(), r);
}

Registration fallthrough(const char* op, const std::string& key) {
  bp_registration* r = nullptr;
  check(api(), api()->fallthrough_register(op, key.c_str(), &r));
  return Registration(api(), r);
}

// A wrapper key, unregistered on destruction.
class WrapperKey {
 public:
  explicit WrapperKey(const char* name) { check(api(), api()->wrapper_key_register(name, &key_)); }
  ~WrapperKey() {
    if (key_ != nullptr) api()->error_destroy(api()->wrapper_key_unregister(key_));
  }
  bp_wrapper_key* get() const { return key_; }
  Registration add(const char* op, bp_kernel_fn fn, void* user_data) const {
    bp_registration* r = nullptr;
    check(api(), api()->wrapper_kernel_register(key_, op, fn, user_data, &r));
    return Registration(api(), r);
  }
  void enable(int32_t scope, bool on) const {
    check(api(), api()->wrapper_key_set_enabled(key_, scope, on));
  }

 private:
  bp_wrapper_key* key_ = nullptr;
};

TEST(PluginKeys, SixtyFourBackendsServeTheirOwnDevicesThenSixtyFourMoreReuseTheKeys) {
  constexpr int kCount = 64;
  const Op add(api(), "add.Tensor");
  std::vector<std::string> first_round_keys;
  for (int round = 0; round < 2; ++round) {
    std::vector<std::unique_ptr<HostBackend>> backends;
    std::vector<std::atomic<int>> calls(kCount);
    std::vector<Registration> kernels;
    for (int i = 0; i < kCount; ++i) {  // all 64 registered at once
      backends.push_back(std::make_unique<HostBackend>(("many" + std::to_string(i)).c_str()));
      kernels.push_back(kernel(backends[i]->get(), "add.out", &count_then_cpu, &calls[i]));
    }
    std::vector<std::string> keys;
    for (int i = 0; i < kCount; ++i) keys.push_back(key_of("many" + std::to_string(i)));
    EXPECT_EQ(std::set<std::string>(keys.begin(), keys.end()).size(), size_t{kCount});
    for (const std::string& key : keys) EXPECT_THAT(key, ::testing::StartsWith("Plugin"));
    if (round == 0) {
      first_round_keys = keys;
    } else {
      EXPECT_EQ(keys, first_round_keys);  // unloading freed them; the next 64 got them back
    }
    for (int i = 0; i < kCount; ++i) {
      const Tensor cpu_x = filled(BP_DTYPE_FLOAT32, {3}, i);
      const Tensor x = copy_to(cpu_x, backends[i]->device());
      const Tensor y = add.call({arg(x), arg(x)}).tensor(0);
      EXPECT_EQ(y.device().device_type, backends[i]->device().device_type);
      EXPECT_EQ(bytes_of(y), bytes_of(add.call({arg(cpu_x), arg(cpu_x)}).tensor(0)));
    }
    for (int i = 0; i < kCount; ++i) EXPECT_EQ(calls[i].load(), 1) << "backend many" << i;
    kernels.clear();
    backends.clear();  // unregisters each
    for (int i = 0; i < kCount; ++i) EXPECT_FALSE(backend_exists("many" + std::to_string(i)));
  }
}

TEST(Fallthrough, CommonForOneOpSendsThatOpStraightToTheBackend) {
  HostBackend dev("ft_common_dev");
  std::atomic<int> neg_out_calls{0}, fallback_calls{0}, add_out_calls{0};
  const Registration neg_out = kernel(dev.get(), "neg.out", &count_then_cpu, &neg_out_calls);
  const Registration add_out = kernel(dev.get(), "add.out", &count_then_cpu, &add_out_calls);
  bp_registration* f = nullptr;
  check(api(), api()->fallback_register(dev.get(), &count_then_cpu, &fallback_calls, &f));
  const Registration fallback(api(), f);
  const Tensor x = copy_to(filled(BP_DTYPE_FLOAT32, {3}), dev.device());
  const Op neg(api(), "neg");
  const Op add(api(), "add.Tensor");
  const std::vector<uint8_t> expected =
      bytes_of(neg.call({arg(filled(BP_DTYPE_FLOAT32, {3}))}).tensor(0));

  EXPECT_EQ(bytes_of(neg.call({arg(x)}).tensor(0)), expected);
  EXPECT_EQ(neg_out_calls.load(), 1);  // Common's generated neg called the backend's neg.out
  EXPECT_EQ(fallback_calls.load(), 0);
  {
    const Registration skip = fallthrough("neg", "Common");
    EXPECT_THAT(dispatch_table("neg"), HasSubstr("\nCommon: fallthrough [fallthrough (C ABI)]\n"));
    EXPECT_EQ(bytes_of(neg.call({arg(x)}).tensor(0)), expected);
    EXPECT_EQ(neg_out_calls.load(), 1);  // skipped Common: the backend's fallback got neg
    EXPECT_EQ(fallback_calls.load(), 1);
    add.call({arg(x), arg(x)});
    EXPECT_EQ(add_out_calls.load(), 1);  // other ops still go through Common
  }
  EXPECT_EQ(bytes_of(neg.call({arg(x)}).tensor(0)), expected);
  EXPECT_EQ(neg_out_calls.load(), 2);  // undone: through Common again
  EXPECT_EQ(fallback_calls.load(), 1);
}

TEST(Fallthrough, ForABackendKeyTheOpHasNoKernelOnThatBackend) {
  HostBackend dev("ft_backend_dev");
  bp_registration* f = nullptr;
  check(api(), api()->fallback_register(dev.get(), api()->cpu_fallback, nullptr, &f));
  const Registration fallback(api(), f);
  const Tensor x = copy_to(filled(BP_DTYPE_FLOAT32, {3}), dev.device());
  const Op neg(api(), "neg");
  neg.call({arg(x)});
  const std::string key = key_of("ft_backend_dev");
  const Registration skip = fallthrough("neg.out", key);
  EXPECT_EQ(error_of([&] { neg.call({arg(x)}); }),
            "[neg] Could not run 'bp::neg.out' with arguments from the '" + key +
                "' backend ('ft_backend_dev'). 'bp::neg.out' is only available for these "
                "backends: [CPU, Meta, " +
                key + ", Common].");
  EXPECT_THAT(dispatch_table("neg.out"),
              HasSubstr(key + " ('ft_backend_dev'): fallthrough [fallthrough (C ABI)]"));
}

TEST(Fallthrough, BadKeysAndOpsGiveClearErrors) {
  bp_registration* r = nullptr;
  const ErrorHandle unknown(api(), api()->fallthrough_register("neg", "Autograd", &r));
  EXPECT_EQ(unknown.code(), BP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(unknown.message(),
            "bp_api.fallthrough_register: unknown dispatch key 'Autograd' (a key name such as "
            "'Common' or 'Plugin0', or a wrapper key's name)");
  const ErrorHandle alias(api(), api()->fallthrough_register("neg", "CompositeExplicit", &r));
  EXPECT_EQ(alias.message(),
            "bp_api.fallthrough_register: cannot register under the CompositeExplicit key (calls "
            "never carry it)");
  const ErrorHandle no_op(api(), api()->fallthrough_register("no_such_op", "Common", &r));
  EXPECT_EQ(no_op.message(), "operator 'bp::no_such_op' is not defined");
  const ErrorHandle null_key(api(), api()->fallthrough_register("neg", nullptr, &r));
  EXPECT_EQ(null_key.message(), "bp_api.fallthrough_register: `key` is NULL");
}

TEST(WrapperKeys, CountCallsOnTheThreadThatEnabledThemAndLeaveResultsUnchanged) {
  const WrapperKey counter("wk_thread_counter");
  std::atomic<int> calls{0};
  const Registration all_ops = counter.add(nullptr, &count_then_redispatch, &calls);
  const Op mul(api(), "mul.Tensor");
  const Tensor a = filled(BP_DTYPE_FLOAT32, {4}, 1), b = filled(BP_DTYPE_FLOAT32, {4}, 2);
  const std::vector<uint8_t> expected = bytes_of(mul.call({arg(a), arg(b)}).tensor(0));
  EXPECT_EQ(calls.load(), 0);  // off until enabled
  counter.enable(BP_WRAPPER_SCOPE_THREAD, true);
  EXPECT_EQ(bytes_of(mul.call({arg(a), arg(b)}).tensor(0)), expected);
  EXPECT_EQ(calls.load(), 1);
  std::thread([&] { mul.call({arg(a), arg(b)}); }).join();  // another thread: not enabled there
  EXPECT_EQ(calls.load(), 1);
  counter.enable(BP_WRAPPER_SCOPE_THREAD, false);
  counter.enable(BP_WRAPPER_SCOPE_GLOBAL, true);
  std::thread([&] { mul.call({arg(a), arg(b)}); }).join();
  EXPECT_EQ(calls.load(), 2);
  counter.enable(BP_WRAPPER_SCOPE_GLOBAL, false);
  mul.call({arg(a), arg(b)});
  EXPECT_EQ(calls.load(), 2);
  const ErrorHandle bad_scope(api(), api()->wrapper_key_set_enabled(counter.get(), 3, true));
  EXPECT_EQ(bad_scope.message(),
            "bp_api.wrapper_key_set_enabled: unknown scope 3 (BP_WRAPPER_SCOPE_THREAD = 1, "
            "BP_WRAPPER_SCOPE_GLOBAL = 2)");
}

// An autocast-like wrapper for add.Tensor: casts float64 arguments to float32 before passing the
// call on.
bp_error* cast_to_float32(void* user_data, const bp_op*, const bp_value* args, size_t nargs,
                          bp_value* results, size_t nresults) {
  ++*static_cast<std::atomic<int>*>(user_data);
  const bp_op* to = nullptr;
  if (bp_error* e = api()->op_find("to.dtype", &to)) return e;
  std::vector<bp_value> cast(args, args + nargs);
  std::vector<bp_value> owned;
  for (size_t i = 0; i < 2; ++i) {
    const bp_value to_args[2] = {args[i], dtype_arg(BP_DTYPE_FLOAT32)};
    bp_value r;
    size_t n = 0;
    if (bp_error* e = api()->op_call(to, to_args, 2, &r, 1, &n)) return e;
    owned.push_back(r);
    cast[i] = r;
  }
  size_t n = 0;
  bp_error* e = api()->kernel_redispatch(args, cast.data(), nargs, results, nresults, &n);
  for (bp_value& v : owned) api()->value_release(&v);
  return e;
}

TEST(WrapperKeys, AnAutocastLikeWrapperCastsArgumentsBeforeRedispatching) {
  const WrapperKey autocast("wk_autocast");
  std::atomic<int> calls{0};
  const Registration add_only = autocast.add("add.Tensor", &cast_to_float32, &calls);
  autocast.enable(BP_WRAPPER_SCOPE_THREAD, true);
  const Tensor a = Tensor::from_host<double>(api(), {1.5, 2.5}, {2});
  const Tensor b = Tensor::from_host<double>(api(), {0.25, 4}, {2});
  const Tensor sum = Op(api(), "add.Tensor").call({arg(a), arg(b)}).tensor(0);
  EXPECT_EQ(calls.load(), 1);  // the wrapper's own to.dtype calls have no kernel under the key
  EXPECT_EQ(sum.info().dtype, BP_DTYPE_FLOAT32);
  EXPECT_EQ(sum.to_host<float>(), (std::vector<float>{1.75f, 6.5f}));
  autocast.enable(BP_WRAPPER_SCOPE_THREAD, false);
  EXPECT_EQ(Op(api(), "add.Tensor").call({arg(a), arg(b)}).tensor(0).info().dtype,
            BP_DTYPE_FLOAT64);
}

bp_error* redispatch_from_backend(void*, const bp_op*, const bp_value* args, size_t nargs,
                                  bp_value* results, size_t nresults) {
  size_t n = 0;
  return api()->kernel_redispatch(args, args, nargs, results, nresults, &n);
}

TEST(WrapperKeys, ABackendKernelCannotRedispatchAndStaleHandlesGiveErrors) {
  HostBackend dev("wk_backend_dev");
  const Registration neg_out = kernel(dev.get(), "neg.out", &redispatch_from_backend, nullptr);
  const Tensor x = copy_to(filled(BP_DTYPE_FLOAT32, {2}), dev.device());
  EXPECT_EQ(error_of([&] { Op(api(), "neg").call({arg(x)}); }),
            "[neg] [wk_backend_dev] neg.out: bp_api.kernel_redispatch: the kernel of neg.out runs "
            "under " +
                key_of("wk_backend_dev") +
                ", a backend key: nothing runs below a backend (call api->op_call instead)");
  bp_wrapper_key* gone = nullptr;
  {
    const WrapperKey w("wk_stale");
    gone = w.get();
  }
  bp_registration* r = nullptr;
  const ErrorHandle stale(
      api(), api()->wrapper_kernel_register(gone, nullptr, &count_then_redispatch, nullptr, &r));
  EXPECT_EQ(stale.message(),
            "bp_api.wrapper_kernel_register: unknown wrapper key handle (it was unregistered, or "
            "never registered)");
  const ErrorHandle taken(api(), [] {
    bp_wrapper_key* k = nullptr;
    const WrapperKey first("wk_taken");
    return api()->wrapper_key_register("wk_taken", &k);
  }());
  EXPECT_THAT(taken.message(), HasSubstr("wrapper key 'wk_taken' is already registered"));
}

TEST(DispatchTable, NamesWhatServesEachKeyAndWhereItCameFrom) {
  HostBackend dev("table_dev");
  std::atomic<int> calls{0};
  const Registration add_out = kernel(dev.get(), "add.out", &count_then_cpu, &calls);
  bp_registration* f = nullptr;
  check(api(), api()->fallback_register(dev.get(), api()->cpu_fallback, nullptr, &f));
  const Registration fallback(api(), f);
  const WrapperKey profiler("table_profiler");
  const Registration wrap = profiler.add(nullptr, &count_then_redispatch, &calls);
  const std::string key = key_of("table_dev");

  const std::string add = dispatch_table("add.out");
  EXPECT_THAT(add,
              ::testing::StartsWith("bp::add.out(Tensor self, Tensor other, *, Scalar alpha=1, "
                                    "Tensor(a!) out) -> Tensor(a!)\nTracing: "));
  EXPECT_THAT(add, HasSubstr("('table_profiler'): backend fallback [table_profiler fallback (C "
                             "ABI)]\nCommon: kernel ["));
  EXPECT_THAT(add, HasSubstr("\n" + key +
                             " ('table_dev'): kernel [table_dev kernel (C ABI)] (after Common's "
                             "generated variant)\n"));
  EXPECT_THAT(add, HasSubstr("\nMeta: kernel ["));
  EXPECT_THAT(add, HasSubstr("\nCPU: kernel ["));
  // An op the backend has no kernel for: its fallback, named.
  EXPECT_THAT(dispatch_table("abs.out"),
              HasSubstr("\n" + key +
                        " ('table_dev'): backend fallback [table_dev fallback (C "
                        "ABI)] (after Common's generated variant)\n"));
  // A view op: the CompositeExplicit kernel serves every backend.
  EXPECT_THAT(dispatch_table("view"),
              HasSubstr("\n" + key + " ('table_dev'): CompositeExplicit kernel ["));
  bp_value out{};
  const ErrorHandle null_op(api(), api()->op_dispatch_table(nullptr, &out));
  EXPECT_EQ(null_op.message(), "bp_api.op_dispatch_table: `op` is NULL");
}

// Wrapper keys and fallthroughs registered and undone on several threads while other threads
// call ops (run under ThreadSanitizer in CI). Each registering thread switches its key on for
// itself only, so no kernel of a key runs on another thread while the key is unregistered.
TEST(WrapperKeys, RegistrationFromSeveralThreadsWhileCallsRun) {
  const Op add(api(), "add.Tensor");
  const Tensor a = filled(BP_DTYPE_FLOAT32, {8}, 1);
  const std::vector<uint8_t> expected = bytes_of(add.call({arg(a), arg(a)}).tensor(0));
  constexpr int kRounds = 40;
  std::atomic<bool> stop{false};
  std::atomic<int> calls{0};
  std::atomic<int> wrong{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 2; ++t) {
    callers.emplace_back([&] {
      while (!stop.load()) {
        if (bytes_of(add.call({arg(a), arg(a)}).tensor(0)) != expected) ++wrong;
      }
    });
  }
  std::vector<std::thread> registrars;
  for (int t = 0; t < 2; ++t) {
    registrars.emplace_back([&, t] {
      const std::string name = "wk_threads_" + std::to_string(t);
      for (int i = 0; i < kRounds; ++i) {
        const WrapperKey w(name.c_str());
        const Registration r = w.add(nullptr, &count_then_redispatch, &calls);
        const Registration skip = fallthrough("mul.Tensor", name);
        w.enable(BP_WRAPPER_SCOPE_THREAD, true);
        if (bytes_of(add.call({arg(a), arg(a)}).tensor(0)) != expected) ++wrong;
        w.enable(BP_WRAPPER_SCOPE_THREAD, false);
      }
    });
  }
  for (std::thread& t : registrars) t.join();
  stop = true;
  for (std::thread& t : callers) t.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(calls.load(), 2 * kRounds);  // each registering thread's own calls, once each
}

}  // namespace
}  // namespace backplane::testing
