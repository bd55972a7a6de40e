// The fusion check of the conformance suite: random chains of 2-8 pointwise and reduction ops,
// run eagerly and in lazy mode (sdk/fusion/lazy.h), results compared.
//
//   RandomChainsReport r = check_random_chains(Device(DeviceType::kCPU), 3000, /*seed=*/1);
//   r.mismatches;     // 0 when every fused result equals eager's
//   to_string(r);     // "fusion: 3000 chains (18211 ops, 9022 fused), 2711 bitwise, ..."
//
// Each chain starts from 1-3 inputs on `device` (float32/64, float16, bfloat16, int32, int64 or
// bool; some transposed or strided, some broadcasting against the others) and applies 2-8 calls
// drawn from every declared functional pointwise op taking one or two tensors (other arguments
// at their defaults), `where`, and the dim reductions (sum, mean, amax, amin, prod, logsumexp,
// nansum over a random dimension, keepdim or not). A call reads the previous result and, for
// binary ops, an input or an earlier result, so intermediates are read once, twice, viewed
// (transpose) or dropped. Calls that eager rejects are not part of the chain. Of each chain the
// final result and a random subset of the intermediates are kept and compared: dtype, sizes,
// strides (of dimensions of more than one element), then values bit for bit, or (chains with a
// floating reduction, whose order of accumulation may differ with the tile) within the last
// reduction's tolerance (conformance/tolerances.json). A call that throws in one mode must throw
// the same message in the other.
//
// `run_lazy` runs a chain in lazy mode (default: inside a fusion::LazyScope); tests pass a broken
// one to see that mismatches are caught.
//
// Thread safety: one call at a time (it uses the calling thread's lazy mode).
#ifndef BACKPLANE_CONFORMANCE_FUSION_RANDOM_CHAINS_H_
#define BACKPLANE_CONFORMANCE_FUSION_RANDOM_CHAINS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sdk/core/device.h"

namespace bp::conformance {

struct RandomChainsReport {
  int64_t chains = 0;
  int64_t ops = 0;                    // calls in all chains
  int64_t fused_ops = 0;              // calls that ran inside a group of two or more (fusion_stats)
  int64_t compared = 0;               // results compared
  int64_t bitwise = 0;                // of which identical bit for bit
  int64_t mismatches = 0;             // chains whose fused results differ from eager's
  std::vector<std::string> failures;  // the first 20 mismatching chains, with their program
};

using LazyRunner = std::function<void(const std::function<void()>& chain)>;

RandomChainsReport check_random_chains(Device device, int64_t chains, uint64_t seed,
                                       const LazyRunner& run_lazy = {});

// "fusion: 3000 chains (18211 ops, 9022 fused), 5102 results compared (4871 bitwise), 0
// mismatches", then one line per failure.
std::string to_string(const RandomChainsReport& report);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_FUSION_RANDOM_CHAINS_H_
