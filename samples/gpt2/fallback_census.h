// FallbackCensus: which ops the host's CPU fallback served, and how often, while it lives.
//
//   FallbackCensus census;            // counts calls made on this thread from now on
//   model.forward(tokens);            // on a plugin's device
//   for (const auto& [op, n] : census.by_op()) if (n.fallback_calls > 0) print(op, n);
//
// The host counts the CPU fallback's calls for the whole process (bp::cpu_fallback_calls(), C++
// only), not per op, and the C ABI has no count at all. So the census registers a wrapper key (C
// ABI 0.4) whose kernel sees every op call, passes it on (kernel_redispatch) and charges the
// fallback calls that happened during it to the op, minus those of the ops it called in turn
// (composites such as linear call matmul, which the key sees too): each fallback call is charged
// to the innermost op the key saw, the one the backend lacked or handed on.
//
// Thread safety: counts the calls of the thread that made it; construct, read and destroy it on
// that thread. One census at a time (its wrapper key has a fixed name).
#ifndef BACKPLANE_SAMPLES_GPT2_FALLBACK_CENSUS_H_
#define BACKPLANE_SAMPLES_GPT2_FALLBACK_CENSUS_H_

#include <cstdint>
#include <map>
#include <string>

struct bp_wrapper_key;

namespace gpt2 {

struct OpCalls {
  int64_t calls = 0;           // calls of the op (any device) seen by the census
  int64_t fallback_calls = 0;  // CPU fallback calls charged to the op
};

class FallbackCensus {
 public:
  // Throws std::runtime_error with the host's message when the wrapper key cannot be registered.
  FallbackCensus();
  ~FallbackCensus();
  FallbackCensus(const FallbackCensus&) = delete;
  FallbackCensus& operator=(const FallbackCensus&) = delete;

  // Every op called so far, by name ("bp::gelu"), with its counts.
  const std::map<std::string, OpCalls>& by_op() const { return by_op_; }
  // All CPU fallback calls in the process since construction (on any thread).
  int64_t fallback_calls() const;

 private:
  bp_wrapper_key* key_ = nullptr;
  int64_t fallback_calls_at_start_ = 0;
  std::map<std::string, OpCalls> by_op_;
};

}  // namespace gpt2

#endif  // BACKPLANE_SAMPLES_GPT2_FALLBACK_CENSUS_H_
