// Streams through the C ABI (api->stream_*), against the C test plugin's logging stream hooks,
// a backend without streams, the CPU, and the C++ wrapper's Stream and StreamGuard.
#include <dlfcn.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/c_api/testing/abi_test_util.h"

namespace backplane::testing {
namespace {

using ::testing::HasSubstr;

constexpr char kPlugin[] = "libc_test_plugin.so";

// The id the test plugin gave a stream it created (its native handle starts with it); 0 for the
// default stream.
int64_t id_of(bp_stream* stream) {
  void* native = nullptr;
  check(api(), api()->stream_native(stream, nullptr, &native));
  return native == nullptr ? 0 : *static_cast<const int64_t*>(native);
}

bp_stream* create(bp_device device) {
  bp_stream* s = nullptr;
  check(api(), api()->stream_create(device, &s));
  return s;
}

bp_stream* current(bp_device device) {
  bp_stream* s = nullptr;
  check(api(), api()->stream_current(device, &s));
  return s;
}

// The message of a failed call ("(no error)" for success), and its code in *code.
std::string message_of(bp_error* error, int32_t* code = nullptr) {
  const ErrorHandle e(api(), error);
  if (code != nullptr) *code = e.code();
  return e ? e.message() : "(no error)";
}

class Streams : public ::testing::Test {
 protected:
  void SetUp() override {
    plugin_ = std::make_unique<LoadedPlugin>(kPlugin);
    library_ = ::dlopen(plugin_path(kPlugin).c_str(), RTLD_NOW | RTLD_NOLOAD);
    ASSERT_NE(library_, nullptr);
    reset(0);
    device_ = backend_device("cplug");
  }
  void TearDown() override {
    plugin_.reset();
    if (library_ != nullptr) ::dlclose(library_);
  }

  // The plugin's log of stream hook calls since the last reset, one call a line.
  std::string log() const {
    auto fn = reinterpret_cast<const char* (*)()>(::dlsym(library_, "bp_test_plugin_stream_log"));
    return fn();
  }
  // Clears the log; mode 1: query reports busy, 2: synchronize fails.
  void reset(int mode) {
    auto fn = reinterpret_cast<void (*)(int)>(::dlsym(library_, "bp_test_plugin_stream_reset"));
    fn(mode);
  }
  int64_t live_streams() const { return plugin_->counter("bp_test_plugin_live_streams"); }

  bp_device device(int32_t index) const { return bp_device{device_.device_type, index}; }

  std::unique_ptr<LoadedPlugin> plugin_;
  void* library_ = nullptr;
  bp_device device_{};
};

TEST_F(Streams, CreateAndDestroyReachTheHooksAndDestroySynchronizesFirst) {
  bp_stream* a = create(device(0));
  bp_stream* b = create(device(1));
  EXPECT_EQ(live_streams(), 2);
  const int64_t ia = id_of(a), ib = id_of(b);
  EXPECT_GT(ia, 0);
  EXPECT_GT(ib, 0);
  EXPECT_NE(ia, ib);
  bp_device d{};
  void* native = nullptr;
  check(api(), api()->stream_native(b, &d, &native));
  EXPECT_EQ(d.device_type, device_.device_type);
  EXPECT_EQ(d.device_id, 1);
  EXPECT_NE(native, nullptr);

  check(api(), api()->stream_destroy(a));
  check(api(), api()->stream_destroy(b));
  EXPECT_EQ(live_streams(), 0);
  const std::string i = std::to_string(ia), j = std::to_string(ib);
  EXPECT_EQ(log(), "create d0 " + i + "\ncreate d1 " + j + "\nsynchronize d0 " + i +
                       "\ndestroy d0 " + i + "\nsynchronize d1 " + j + "\ndestroy d1 " + j + "\n");
  // NULL is fine; a destroyed handle is an error, not a crash.
  EXPECT_EQ(message_of(api()->stream_destroy(nullptr)), "(no error)");
  EXPECT_THAT(message_of(api()->stream_destroy(a)), HasSubstr("unknown stream handle"));
  EXPECT_THAT(message_of(api()->stream_synchronize(a)),
              HasSubstr("bp_api.stream_synchronize: unknown stream handle"));
}

TEST_F(Streams, DestroyingAStreamWhoseSynchronizeFailsStillDestroysItAndReportsTheError) {
  bp_stream* s = create(device(0));
  const int64_t id = id_of(s);
  reset(2);
  int32_t code = 0;
  EXPECT_EQ(message_of(api()->stream_destroy(s), &code),
            "[cplug] stream synchronize: stream " + std::to_string(id) + " is broken");
  EXPECT_EQ(code, BP_ERROR_UNAVAILABLE);
  EXPECT_EQ(live_streams(), 0);
  EXPECT_EQ(log(),
            "synchronize d0 " + std::to_string(id) + "\ndestroy d0 " + std::to_string(id) + "\n");
}

TEST_F(Streams, DefaultStreamsAreHostHandlesOnePerDeviceNeverDestroyed) {
  bp_stream* d0 = current(device(0));
  bp_stream* d1 = current(device(1));
  ASSERT_NE(d0, nullptr);
  EXPECT_NE(d0, d1);
  EXPECT_EQ(current(device(0)), d0);
  EXPECT_EQ(id_of(d0), 0);                  // no native handle
  check(api(), api()->stream_destroy(d0));  // a no-op
  EXPECT_EQ(current(device(0)), d0);
  check(api(), api()->stream_synchronize(d0));
  EXPECT_EQ(log(), "synchronize d0 0\n");  // the hook, with NULL for the default stream
}

TEST_F(Streams, TheCurrentStreamIsPerThreadAndSetCurrentReturnsThePrevious) {
  bp_stream* default0 = current(device(0));
  bp_stream* s = create(device(0));
  bp_stream* previous = nullptr;
  check(api(), api()->stream_set_current(s, &previous));
  EXPECT_EQ(previous, default0);
  EXPECT_EQ(current(device(0)), s);
  EXPECT_EQ(id_of(current(device(1))), 0);  // only s's device

  bp_stream* seen_elsewhere = nullptr;
  std::thread other([&] { seen_elsewhere = current(device(0)); });
  other.join();
  EXPECT_EQ(seen_elsewhere, default0);

  check(api(), api()->stream_set_current(default0, &previous));
  EXPECT_EQ(previous, s);
  EXPECT_EQ(current(device(0)), default0);
  check(api(), api()->stream_set_current(s, nullptr));  // previous not wanted
  check(api(), api()->stream_destroy(s));
  EXPECT_EQ(current(device(0)), default0);  // a destroyed current stream is current no more
}

TEST_F(Streams, APluginKernelSeesTheCurrentStream) {
  const Op add(api(), "add.Tensor");
  const Tensor a = copy_to(filled(BP_DTYPE_FLOAT32, {4}), device(0));
  const Tensor b = copy_to(filled(BP_DTYPE_FLOAT32, {4}, 1), device(0));
  add.call({arg(a), arg(b)});
  EXPECT_EQ(plugin_->counter("bp_test_plugin_kernel_stream"), 0);  // the default stream

  Stream s(api(), device(0));
  {
    StreamGuard guard(s);
    add.call({arg(a), arg(b)});
    EXPECT_EQ(plugin_->counter("bp_test_plugin_kernel_stream"), id_of(s.get()));
  }
  add.call({arg(a), arg(b)});
  EXPECT_EQ(plugin_->counter("bp_test_plugin_kernel_stream"), 0);

  // A stream current for device 1 does not reach work on device 0.
  Stream s1(api(), device(1));
  StreamGuard guard1(s1);
  add.call({arg(a), arg(b)});
  EXPECT_EQ(plugin_->counter("bp_test_plugin_kernel_stream"), 0);
}

TEST_F(Streams, QueryGivesWhatTheHookSays) {
  bp_stream* a = create(device(0));
  const std::string i = std::to_string(id_of(a));
  bool idle = false;
  reset(0);
  check(api(), api()->stream_query(a, &idle));
  EXPECT_TRUE(idle);
  reset(1);
  check(api(), api()->stream_query(a, &idle));
  EXPECT_FALSE(idle);
  check(api(), api()->stream_query(current(device(0)), &idle));
  EXPECT_FALSE(idle);
  EXPECT_EQ(log(), "query d0 " + i + "\nquery d0 0\n");
  check(api(), api()->stream_destroy(a));
}

TEST_F(Streams, WaitLogsWaiterAndWaitee) {
  bp_stream* a = create(device(0));
  bp_stream* b = create(device(0));
  const std::string i = std::to_string(id_of(a)), j = std::to_string(id_of(b));
  reset(0);
  check(api(), api()->stream_wait(a, b));
  check(api(), api()->stream_wait(current(device(0)), a));
  check(api(), api()->stream_wait(a, a));
  check(api(), api()->stream_synchronize(b));
  bool idle = false;
  check(api(), api()->stream_query(a, &idle));
  EXPECT_EQ(log(), "wait d0 " + i + "<-" + j + "\nwait d0 0<-" + i + "\nsynchronize d0 " + j +
                       "\nquery d0 " + i + "\n");
  check(api(), api()->stream_destroy(a));
  check(api(), api()->stream_destroy(b));
}

TEST_F(Streams, ErrorsNameTheCauseAndFailNothingElse) {
  int32_t code = 0;
  bp_stream* s0 = create(device(0));
  bp_stream* s1 = create(device(1));
  bp_stream* out = nullptr;
  bool idle = false;

  EXPECT_THAT(message_of(api()->stream_wait(s0, s1), &code),
              HasSubstr("bp_api.stream_wait: the streams are on different devices"));
  EXPECT_EQ(code, BP_ERROR_INVALID_ARGUMENT);
  EXPECT_THAT(message_of(api()->stream_wait(s0, current(kCpu))), HasSubstr("different devices"));

  EXPECT_EQ(message_of(api()->stream_create(device(0), nullptr), &code),
            "bp_api.stream_create: `out` is NULL");
  EXPECT_EQ(code, BP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(message_of(api()->stream_current(device(0), nullptr)),
            "bp_api.stream_current: `out` is NULL");
  EXPECT_EQ(message_of(api()->stream_set_current(nullptr, &out)),
            "bp_api.stream_set_current: `stream` is NULL");
  EXPECT_EQ(message_of(api()->stream_synchronize(nullptr)),
            "bp_api.stream_synchronize: `stream` is NULL");
  EXPECT_EQ(message_of(api()->stream_wait(nullptr, s0)), "bp_api.stream_wait: `stream` is NULL");
  EXPECT_EQ(message_of(api()->stream_wait(s0, nullptr)), "bp_api.stream_wait: `stream` is NULL");
  EXPECT_EQ(message_of(api()->stream_query(s0, nullptr)), "bp_api.stream_query: `idle` is NULL");
  EXPECT_EQ(message_of(api()->stream_query(nullptr, &idle)),
            "bp_api.stream_query: `stream` is NULL");
  EXPECT_EQ(message_of(api()->stream_native(nullptr, nullptr, nullptr)),
            "bp_api.stream_native: `stream` is NULL");
  EXPECT_THAT(message_of(api()->stream_create(device(7), &out)),
              HasSubstr("device index 7 is out of range for backend 'cplug'"));
  EXPECT_THAT(message_of(api()->stream_current(device(7), &out)), HasSubstr("out of range"));

  reset(2);
  EXPECT_EQ(message_of(api()->stream_synchronize(s0), &code),
            "[cplug] stream synchronize: stream " + std::to_string(id_of(s0)) + " is broken");
  EXPECT_EQ(code, BP_ERROR_UNAVAILABLE);
  reset(0);
  check(api(), api()->stream_destroy(s0));
  check(api(), api()->stream_destroy(s1));
  EXPECT_EQ(live_streams(), 0);
}

TEST(StreamsWithoutHooks, CreateIsNotImplementedAndTheDefaultStreamStillWorks) {
  HostBackend backend("nostreams");
  bp_stream* s = nullptr;
  int32_t code = 0;
  EXPECT_EQ(message_of(api()->stream_create(backend.device(), &s), &code),
            "backend 'nostreams' has no streams (its bp_backend_desc.streams is NULL)");
  EXPECT_EQ(code, BP_ERROR_NOT_IMPLEMENTED);
  EXPECT_EQ(s, nullptr);

  bp_stream* def = current(backend.device());
  check(api(), api()->stream_synchronize(def));
  check(api(), api()->stream_wait(def, def));
  bool idle = false;
  check(api(), api()->stream_query(def, &idle));
  EXPECT_TRUE(idle);
  check(api(), api()->stream_set_current(def, nullptr));
  EXPECT_EQ(current(backend.device()), def);
}

// ---- bp_stream_fns at backend_register -----------------------------------------------------

bp_error* one_stream(void*, bp_device, void** out) {
  *out = reinterpret_cast<void*>(uintptr_t{1});
  return nullptr;
}
bp_error* stream_noop(void*, bp_device, void*) { return nullptr; }
bp_error* stream_wait_noop(void*, bp_device, void*, void*) { return nullptr; }

// Registers (and unregisters) a backend with `streams`: the error message, or "(no error)".
std::string register_with(const bp_stream_fns* streams) {
  bp_backend_desc desc{};
  desc.struct_size = sizeof desc;
  desc.name = "stream_struct_dev";
  use_inert_memory_hooks(desc);
  desc.streams = streams;
  bp_backend* backend = nullptr;
  const std::string message = message_of(api()->backend_register(&desc, &backend));
  if (backend != nullptr) check(api(), api()->backend_unregister(backend));
  return message;
}

TEST(StreamFns, RequiredHooksAreCheckedAndSizesFollowTheStructRules) {
  struct Newer {
    bp_stream_fns fns;
    uint64_t newer_field = 0;
  } newer{};
  bp_stream_fns& fns = newer.fns;
  fns.struct_size = sizeof fns;
  fns.create = &one_stream;
  fns.destroy = &stream_noop;
  fns.synchronize = &stream_noop;
  EXPECT_EQ(register_with(&fns),
            "bp_stream_fns.create, destroy, synchronize and wait are required");
  fns.wait = &stream_wait_noop;
  EXPECT_EQ(register_with(&fns), "(no error)");  // query is optional

  // An older caller's struct without `wait`: read as NULL.
  fns.struct_size = offsetof(bp_stream_fns, wait);
  EXPECT_EQ(register_with(&fns),
            "bp_stream_fns.create, destroy, synchronize and wait are required");
  // A newer caller's larger struct: accepted while the extra bytes are zero.
  fns.struct_size = sizeof newer;
  EXPECT_EQ(register_with(&fns), "(no error)");
  newer.newer_field = 1;
  EXPECT_THAT(register_with(&fns),
              HasSubstr("bp_stream_fns has struct_size " + std::to_string(sizeof newer)));
}

TEST(StreamsOnTheHost, CpuAndMetaStreamsWorkAndDoNothing) {
  for (bp_device device : {kCpu, bp_device{BP_DEVICE_CPU, 0}, kMeta}) {
    bp_stream* def = current(device);
    bp_stream* s = create(device);
    bp_device d{};
    void* native = &d;
    check(api(), api()->stream_native(s, &d, &native));
    EXPECT_EQ(d.device_type, device.device_type);
    EXPECT_EQ(d.device_id, -1);
    EXPECT_EQ(native, nullptr);
    bp_stream* previous = nullptr;
    check(api(), api()->stream_set_current(s, &previous));
    EXPECT_EQ(previous, def);
    EXPECT_EQ(current(device), s);
    check(api(), api()->stream_wait(s, def));
    check(api(), api()->stream_synchronize(s));
    bool idle = false;
    check(api(), api()->stream_query(s, &idle));
    EXPECT_TRUE(idle);
    check(api(), api()->stream_destroy(s));
    EXPECT_EQ(current(device), def);
  }
  EXPECT_EQ(current(kCpu), current(bp_device{BP_DEVICE_CPU, 0}));  // one CPU
}

TEST_F(Streams, AStreamOutlivingItsPluginKeepsTheHooksUntilDestroyed) {
  ASSERT_EQ(plugin_->counter("bp_test_plugin_released"), 0);
  bp_stream* s = create(device(0));
  const int64_t id = id_of(s);
  check(api(), api()->stream_set_current(s, nullptr));
  plugin_->unload();
  EXPECT_FALSE(backend_exists("cplug"));
  // The backend is gone but its functions (and library) stay until the stream is destroyed.
  EXPECT_EQ(plugin_->counter("bp_test_plugin_released"), 0);
  EXPECT_THAT(message_of(api()->stream_set_current(s, nullptr)),
              HasSubstr("the stream's backend 'cplug' was unregistered"));
  bp_stream* out = nullptr;
  EXPECT_THAT(message_of(api()->stream_current(device(0), &out)), HasSubstr("device type"));
  {
    // A backend registered now (maybe with the same device type) does not see the stale stream.
    HostBackend other("after_cplug");
    EXPECT_EQ(id_of(current(other.device())), 0);
  }
  reset(0);
  check(api(), api()->stream_synchronize(s));
  check(api(), api()->stream_destroy(s));
  EXPECT_EQ(log(), "synchronize d0 " + std::to_string(id) + "\nsynchronize d0 " +
                       std::to_string(id) + "\ndestroy d0 " + std::to_string(id) + "\n");
  EXPECT_EQ(live_streams(), 0);
  EXPECT_EQ(plugin_->counter("bp_test_plugin_released"), 1);
}

TEST_F(Streams, TheWrapperCreatesGuardsAndDestroys) {
  {
    Stream s(api(), device(0));
    Stream t(api(), device(0));
    EXPECT_EQ(live_streams(), 2);
    EXPECT_NE(s.native(), nullptr);
    EXPECT_EQ(s.device().device_id, 0);
    const Stream before = Stream::current(api(), device(0));
    EXPECT_EQ(before.native(), nullptr);
    {
      StreamGuard guard(s);
      EXPECT_EQ(guard.previous(), before.get());
      EXPECT_EQ(Stream::current(api(), device(0)).get(), s.get());
      {
        StreamGuard inner(t);
        EXPECT_EQ(Stream::current(api(), device(0)).get(), t.get());
      }
      EXPECT_EQ(Stream::current(api(), device(0)).get(), s.get());
    }
    EXPECT_EQ(Stream::current(api(), device(0)).get(), before.get());
    reset(0);
    s.wait(t);
    t.synchronize();
    EXPECT_TRUE(s.query());
    EXPECT_EQ(log(), "wait d0 " + std::to_string(id_of(s.get())) + "<-" +
                         std::to_string(id_of(t.get())) + "\nsynchronize d0 " +
                         std::to_string(id_of(t.get())) + "\nquery d0 " +
                         std::to_string(id_of(s.get())) + "\n");
    Stream moved = std::move(t);
    EXPECT_FALSE(t);  // NOLINT: testing the moved-from state
    moved.reset();
    EXPECT_EQ(live_streams(), 1);
  }
  EXPECT_EQ(live_streams(), 0);  // destroyed with the object
  EXPECT_THAT(error_of([&] { Stream(api(), kMeta).wait(Stream::current(api(), device(0))); }),
              HasSubstr("different devices"));
}

}  // namespace
}  // namespace backplane::testing
