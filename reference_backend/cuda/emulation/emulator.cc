#include "reference_backend/cuda/emulation/emulator.h"

#include <barrier>
#include <boost/context/fiber.hpp>
#include <boost/context/stack_context.hpp>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

#include "reference_backend/cuda/emulation/host_shim.h"

namespace bp::emulation {
namespace {

std::map<std::string, EmulatedKernel, std::less<>>& registry() {
  static auto* kernels = new std::map<std::string, EmulatedKernel, std::less<>>();
  return *kernels;
}

// Cooperative blocks run their threads either as fibers of the calling thread (Boost.Context:
// switching at every barrier costs a few nanoseconds and no system call, where ucontext's
// swapcontext made two) or, under AddressSanitizer and ThreadSanitizer, which do not follow stack
// switches without annotations, as host threads meeting at a std::barrier.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kFibers = false;
#else
constexpr bool kFibers = true;
#endif

// The block the calling emulator thread (or fiber) belongs to (cooperative launches).
struct BlockContext {
  explicit BlockContext(int threads) : barrier(threads), words(static_cast<size_t>(threads)) {}
  std::barrier<> barrier;
  std::vector<uint32_t> words;
  // Fibers: where the running fiber returns to at a barrier (the scheduler, suspended).
  boost::context::fiber scheduler;
};
thread_local BlockContext* current_block = nullptr;

// Waits for every thread of the block: a fiber returns to the scheduler, which runs the others up
// to the same barrier before resuming it.
void block_barrier() {
  if (kFibers) {
    current_block->scheduler = std::move(current_block->scheduler).resume();
  } else {
    current_block->barrier.arrive_and_wait();
  }
}

int linear_thread() {
  return static_cast<int>(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
}

void set_indices(Dim grid, Dim block, unsigned bx, unsigned by, unsigned bz, int t) {
  gridDim = {grid.x, grid.y, grid.z};
  blockDim = {block.x, block.y, block.z};
  blockIdx = {bx, by, bz};
  threadIdx = {t % block.x, t / block.x % block.y, t / (block.x * block.y)};
}

}  // namespace

void sync_threads() {
  if (current_block != nullptr) block_barrier();
}

uint32_t shuffle_word(uint32_t word, int source_lane, bool) {
  const int t = linear_thread();
  current_block->words[static_cast<size_t>(t)] = word;
  block_barrier();
  const size_t source = static_cast<size_t>(t / 32 * 32 + source_lane);
  const uint32_t result =
      source < current_block->words.size() ? current_block->words[source] : word;
  block_barrier();
  return result;
}

bool register_emulated_kernel(const char* name, EmulatedKernel kernel) {
  registry()[name] = kernel;
  return true;
}

EmulatedKernel find_emulated_kernel(std::string_view name) {
  auto it = registry().find(name);
  return it == registry().end() ? EmulatedKernel{} : it->second;
}

std::vector<std::string> emulated_kernel_names() {
  std::vector<std::string> names;
  for (const auto& [name, kernel] : registry()) names.push_back(name);
  return names;
}

namespace {

// One fiber per thread of the block, run round-robin from barrier to barrier until all return.
// The scheduler sets a fiber's indices (thread_local) before resuming it.

// Kernels use little stack (no recursion, small arrays); generous all the same. Only touched pages
// cost memory.
constexpr size_t kFiberStackBytes = 128 * 1024;

// Hands out the stack of one emulated thread, kept across launches (cooperative launches are
// serialised): a Boost.Context stack allocator over a pool that never shrinks.
class PooledStack {
 public:
  explicit PooledStack(size_t index) : index_(index) {}
  boost::context::stack_context allocate() {
    static auto* stacks = new std::vector<std::unique_ptr<char[]>>();
    while (stacks->size() <= index_) stacks->emplace_back(new char[kFiberStackBytes]);
    boost::context::stack_context stack;
    stack.size = kFiberStackBytes;
    stack.sp = (*stacks)[index_].get() + kFiberStackBytes;  // stacks grow down
    return stack;
  }
  void deallocate(boost::context::stack_context&) noexcept {}

 private:
  size_t index_;
};

void run_block_fibers(BlockContext& context, const EmulatedKernel& kernel, Dim grid, Dim block,
                      const void* params, int threads) {
  std::vector<boost::context::fiber> fibers(static_cast<size_t>(threads));
  current_block = &context;
  for (unsigned bz = 0; bz < grid.z; ++bz) {
    for (unsigned by = 0; by < grid.y; ++by) {
      for (unsigned bx = 0; bx < grid.x; ++bx) {
        for (size_t t = 0; t < fibers.size(); ++t) {
          fibers[t] =
              boost::context::fiber(std::allocator_arg, PooledStack(t),
                                    [&context, &kernel, params](boost::context::fiber&& scheduler) {
                                      context.scheduler = std::move(scheduler);
                                      kernel.entry(params);
                                      return std::move(context.scheduler);
                                    });
        }
        // A fiber that returned is empty; one waiting at a barrier is resumed in the next round.
        bool all_finished = false;
        while (!all_finished) {
          all_finished = true;
          for (int t = 0; t < threads; ++t) {
            boost::context::fiber& f = fibers[static_cast<size_t>(t)];
            if (!f) continue;
            set_indices(grid, block, bx, by, bz, t);
            f = std::move(f).resume();
            if (f) all_finished = false;
          }
        }
      }
    }
  }
  current_block = nullptr;
}

}  // namespace

void emulate_launch(const EmulatedKernel& kernel, Dim grid, Dim block, const void* params) {
  const int threads = static_cast<int>(block.x * block.y * block.z);
  if (!kernel.cooperative) {
    for (unsigned bz = 0; bz < grid.z; ++bz) {
      for (unsigned by = 0; by < grid.y; ++by) {
        for (unsigned bx = 0; bx < grid.x; ++bx) {
          for (int t = 0; t < threads; ++t) {
            set_indices(grid, block, bx, by, bz, t);
            kernel.entry(params);
          }
        }
      }
    }
    return;
  }
  // `__shared__` is a static local (host_shim.h): one cooperative block in the process at a time.
  static std::mutex cooperative_launch;
  std::lock_guard<std::mutex> one_at_a_time(cooperative_launch);
  BlockContext context(threads);
  if (kFibers) {
    run_block_fibers(context, kernel, grid, block, params, threads);
    return;
  }
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      current_block = &context;
      for (unsigned bz = 0; bz < grid.z; ++bz) {
        for (unsigned by = 0; by < grid.y; ++by) {
          for (unsigned bx = 0; bx < grid.x; ++bx) {
            set_indices(grid, block, bx, by, bz, t);
            kernel.entry(params);
            // The next block reuses the shared memory: everyone finishes this one first.
            context.barrier.arrive_and_wait();
          }
        }
      }
      current_block = nullptr;
    });
  }
  for (std::thread& w : workers) w.join();
}

}  // namespace bp::emulation

// erfinv for the host (CUDA's erfinv has no C counterpart): Giles' single-precision
// approximation, refined with two Newton steps on erf.
double erfinv(double y) {
  if (y <= -1.0) return y == -1.0 ? -HUGE_VAL : NAN;
  if (y >= 1.0) return y == 1.0 ? HUGE_VAL : NAN;
  double w = -std::log((1.0 - y) * (1.0 + y));
  double x;
  if (w < 5.0) {
    w -= 2.5;
    double p = 2.81022636e-08;
    p = 3.43273939e-07 + p * w;
    p = -3.5233877e-06 + p * w;
    p = -4.39150654e-06 + p * w;
    p = 0.00021858087 + p * w;
    p = -0.00125372503 + p * w;
    p = -0.00417768164 + p * w;
    p = 0.246640727 + p * w;
    p = 1.50140941 + p * w;
    x = p * y;
  } else {
    w = std::sqrt(w) - 3.0;
    double p = -0.000200214257;
    p = 0.000100950558 + p * w;
    p = 0.00134934322 + p * w;
    p = -0.00367342844 + p * w;
    p = 0.00573950773 + p * w;
    p = -0.0076224613 + p * w;
    p = 0.00943887047 + p * w;
    p = 1.00167406 + p * w;
    p = 2.83297682 + p * w;
    x = p * y;
  }
  for (int i = 0; i < 2; ++i) {
    x -= (std::erf(x) - y) / (2.0 / std::sqrt(M_PI) * std::exp(-x * x));
  }
  return x;
}
