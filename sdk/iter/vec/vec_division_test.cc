#include "sdk/iter/vec/vec_division.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "sdk/iter/vec/cpu_capability.h"
#include "sdk/iter/vec/division_reference.h"
#include "sdk/iter/vec/vectorized.h"

namespace bp {
namespace {

template <typename T>
struct Pairs {
  std::vector<T> a, b;
  void add(T x, T y) {
    a.push_back(x);
    b.push_back(y);
  }
};

enum class Method { kFloorDivide, kFmod };

const char* symbol(Method m) { return m == Method::kFloorDivide ? "//" : "fmod"; }

template <typename T>
T reference(Method m, T a, T b) {
  return m == Method::kFloorDivide ? testing::floor_divide_reference(a, b) : std::fmod(a, b);
}

struct Outcome {
  int64_t vectors = 0;
  int64_t fma_vectors = 0;  // vectors run on a path with FMA (vec_division.h's kHasFma)
  int64_t by_division = 0;  // vectors for which the method's *_applies returned true
  int64_t wrong = 0;        // lanes of those that differ from the reference, bit for bit
};

// The method over every whole vector of `pairs` with kBytes-wide vectors.
template <Method kMethod, typename T, int kBytes, VecIsa kIsa>
[[gnu::always_inline]] inline void run(const Pairs<T>& pairs, std::vector<T>& got,
                                       std::vector<char>& taken) {
  using Vec = Vectorized<T, kBytes, kIsa>;
  for (size_t i = 0; i + Vec::size() <= pairs.a.size(); i += Vec::size()) {
    const Vec a = Vec::loadu(&pairs.a[i]), b = Vec::loadu(&pairs.b[i]);
    if constexpr (kMethod == Method::kFloorDivide) {
      taken[i / Vec::size()] = vec_math::floor_divide_by_division_applies(a, b);
      vec_math::floor_divide_by_division(a, b).store(&got[i]);
    } else {
      taken[i / Vec::size()] = vec_math::fmod_by_division_applies(a, b);
      vec_math::fmod_by_division(a, b).store(&got[i]);
    }
  }
}

// Whether kHasFma holds on the path of `isa` with `width`-byte vectors.
bool has_fma(CpuCapability isa, int width) {
  return isa == CpuCapability::kAvx512 || (isa == CpuCapability::kAvx2 && width <= 32);
}

// Runs `pairs` on every ISA this CPU has and every width; checks the lanes of the vectors that
// took the division, and returns the counts (over all ISAs and widths).
template <Method kMethod, typename T>
Outcome check(const Pairs<T>& pairs, const std::string& family) {
  Outcome outcome;
  const CpuCapability detected = detected_cpu_capability();
  for (CpuCapability c : {CpuCapability::kDefault, CpuCapability::kAvx2, CpuCapability::kAvx512}) {
    if (c > detected) continue;
    set_cpu_capability(c);
    for (int width : {16, 32, 64}) {
      const size_t lanes = width / sizeof(T);
      std::vector<T> got(pairs.a.size());
      std::vector<char> taken(pairs.a.size() / lanes);
      // Vectors tagged with the path's ISA (the FMA paths compute differently), every width.
      dispatch_cpu([&](auto isa_width) __attribute__((always_inline)) {
        constexpr VecIsa kIsa = decltype(isa_width)::isa;
        if (width == 16) run<kMethod, T, 16, kIsa>(pairs, got, taken);
        if (width == 32) run<kMethod, T, 32, kIsa>(pairs, got, taken);
        if (width == 64) run<kMethod, T, 64, kIsa>(pairs, got, taken);
      });
      for (size_t v = 0; v < taken.size(); ++v) {
        ++outcome.vectors;
        outcome.fma_vectors += has_fma(c, width);
        if (!taken[v]) continue;
        ++outcome.by_division;
        for (size_t i = v * lanes; i < (v + 1) * lanes; ++i) {
          const T want = reference(kMethod, pairs.a[i], pairs.b[i]);
          if (std::memcmp(&want, &got[i], sizeof(T)) == 0) continue;
          if (++outcome.wrong <= 10) {
            ADD_FAILURE() << family << ": " << pairs.a[i] << " " << symbol(kMethod) << " "
                          << pairs.b[i] << " = " << got[i] << ", want " << want << " ("
                          << cpu_capability_name(c) << ", " << width << " bytes)";
          }
        }
      }
    }
  }
  set_cpu_capability(detected);
  return outcome;
}

template <typename T>
T log_uniform(std::mt19937_64& rng, double low, double high) {
  std::uniform_real_distribution<double> e(std::log2(low), std::log2(high));
  std::bernoulli_distribution negative(0.5);
  const T x = static_cast<T>(std::exp2(e(rng)));
  return negative(rng) ? -x : x;
}

// Quotients spread over the whole domain, from operands of all sizes.
template <typename T>
Pairs<T> ordinary(int n) {
  std::mt19937_64 rng(1);
  Pairs<T> p;
  for (int i = 0; i < n; ++i) {
    const T b = log_uniform<T>(rng, 1e-30, 1e30);
    const T q = log_uniform<T>(rng, 1e-9, sizeof(T) == 4 ? 1e4 : 1e12);
    p.add(static_cast<T>(q * b), b);
  }
  return p;
}

// a within a few ulps of k * b, k an integer (not exactly k * b rounded): quotients that round to
// an integer from either side, where the division alone would be one too big.
template <typename T>
Pairs<T> near_integer_quotients(int n) {
  std::mt19937_64 rng(2);
  std::uniform_int_distribution<int> k(-100000, 100000), ulps(1, 3);
  std::bernoulli_distribution up(0.5);
  Pairs<T> p;
  for (int i = 0; i < n; ++i) {
    const T b = log_uniform<T>(rng, 1e-3, 1e3);
    T a = static_cast<T>(k(rng)) * b;
    const T toward =
        up(rng) ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity();
    for (int s = ulps(rng); s > 0; --s) a = std::nextafter(a, toward);
    p.add(a, b);
  }
  return p;
}

// The rest of the domain's corners: signed zeros, results of 0 and -1, quotients just below
// the limit, tiny and subnormal operands.
template <typename T>
Pairs<T> corners() {
  using L = std::numeric_limits<T>;
  const T limit = sizeof(T) == 4 ? T(1 << 20) : T(int64_t{1} << 48);
  const std::vector<T> values = {T(0),
                                 T(0.25),
                                 T(1),
                                 T(3),
                                 T(0.1),
                                 std::nextafter(limit, T(0)),
                                 std::nextafter(limit / 2, T(0)),
                                 L::min(),
                                 L::denorm_min(),
                                 T(1e-30),
                                 T(7.5)};
  std::vector<T> signed_values;
  for (T x : values) {
    signed_values.push_back(x);
    signed_values.push_back(-x);
  }
  Pairs<T> p;
  for (T x : signed_values) {
    for (T y : signed_values) {
      if (y == T(0)) continue;
      // Each pair alone in a vector of lanes whose quotients are exact and not integers, so that
      // one lane out of the domain only sends its own vector to the general steps.
      for (int lane = 0; lane < 16; ++lane) {
        if (lane == 0) {
          p.add(x, y);
        } else {
          p.add(T(lane) + T(0.5), T(4));
        }
      }
    }
  }
  return p;
}

template <typename T>
void check_every_family() {
  const Outcome o = check<Method::kFloorDivide>(ordinary<T>(40000), "ordinary");
  EXPECT_EQ(o.wrong, 0);
  // Almost every vector takes the division (a lane may land on an exact multiple).
  EXPECT_GT(o.by_division, o.vectors * 98 / 100)
      << "ordinary: " << o.by_division << " of " << o.vectors;

  const Outcome near =
      check<Method::kFloorDivide>(near_integer_quotients<T>(40000), "near integer quotients");
  EXPECT_EQ(near.wrong, 0);
  EXPECT_GT(near.by_division, near.vectors * 98 / 100)
      << "near: " << near.by_division << " of " << near.vectors;

  const Outcome c = check<Method::kFloorDivide>(corners<T>(), "corners");
  EXPECT_EQ(c.wrong, 0);
  EXPECT_GT(c.by_division, c.vectors / 2) << "corners: " << c.by_division << " of " << c.vectors;
}

TEST(FloorDivideByDivision, IsPyTorchsFloorDivisionBitForBitFloat) { check_every_family<float>(); }
TEST(FloorDivideByDivision, IsPyTorchsFloorDivisionBitForBitDouble) {
  check_every_family<double>();
}

// fmod by division runs on the FMA paths only: there, nearly every vector of the families.
template <typename T>
void check_fmod_families() {
  const Outcome o = check<Method::kFmod>(ordinary<T>(40000), "ordinary");
  const Outcome near =
      check<Method::kFmod>(near_integer_quotients<T>(40000), "near integer quotients");
  const Outcome c = check<Method::kFmod>(corners<T>(), "corners");
  for (const Outcome* outcome : {&o, &near, &c}) {
    EXPECT_EQ(outcome->wrong, 0);
    EXPECT_LE(outcome->by_division, outcome->fma_vectors);
  }
  EXPECT_GT(o.by_division, o.fma_vectors * 98 / 100);
  EXPECT_GT(near.by_division, near.fma_vectors * 98 / 100);
  EXPECT_GT(c.by_division, c.fma_vectors / 2);
  if (detected_cpu_capability() >= CpuCapability::kAvx2) {
    EXPECT_GT(o.fma_vectors, 0);
  }
}

TEST(FmodByDivision, IsCsFmodBitForBitFloat) { check_fmod_families<float>(); }
TEST(FmodByDivision, IsCsFmodBitForBitDouble) { check_fmod_families<double>(); }

// A lane outside the domain, or (floor division without FMA) whose quotient's sign is not
// known, sends its vector to the general steps.
template <typename T>
void check_declines() {
  using L = std::numeric_limits<T>;
  const T limit = sizeof(T) == 4 ? T(1 << 20) : T(int64_t{1} << 48);
  struct Case {
    T a, b;
    const char* why;
    // Declines only without FMA (vec_division.h): a equals q * b rounded, where an FMA
    // tells the sign of a - q * b exactly. FMA runs on the AVX-512 path and on the AVX2 path up
    // to 32 bytes.
    bool only_without_fma = false;
  };
  const std::vector<Case> cases = {
      {T(1), T(0), "division by zero"},
      {T(0), T(0), "0 / 0"},
      {L::quiet_NaN(), T(2), "NaN dividend"},
      {T(2), L::quiet_NaN(), "NaN divisor"},
      {L::infinity(), T(2), "infinite dividend"},
      {T(-1), L::infinity(), "infinite divisor"},
      {limit, T(1), "quotient at the limit"},
      {T(1), T(1) / limit, "quotient at the limit, from a small divisor"},
      {L::max() / 4, L::max() / 8, "huge operands"},
      {T(6), T(2), "exact multiple", true},
      {T(1), T(0.1), "a equals the rounded k * b (1 // 0.1 is 9)", true},
  };
  for (const Case& c : cases) {
    Pairs<T> p;
    for (int lane = 0; lane < 16; ++lane) {
      if (lane == 3) {
        p.add(c.a, c.b);
      } else {
        p.add(T(lane) + T(0.5), T(4));
      }
    }
    const Outcome o = check<Method::kFloorDivide>(p, c.why);
    EXPECT_EQ(o.wrong, 0) << c.why;
    // The vectors holding lane 3 (one per ISA and width) decline; the others take the division.
    // Cases that decline only without FMA: the AVX2 path's 64-byte vector computes a - q * b
    // without the FMA builtin, where GCC may still fuse it (-ffp-contract=fast), or not.
    const CpuCapability detected = detected_cpu_capability();
    int64_t least = 3, most = 3;  // declining vectors: the baseline ISA's three widths
    if (detected >= CpuCapability::kAvx2) {
      least += c.only_without_fma ? 0 : 3;
      most += c.only_without_fma ? 1 : 3;
    }
    if (detected >= CpuCapability::kAvx512 && !c.only_without_fma) {
      least += 3;
      most += 3;
    }
    EXPECT_GE(o.by_division, o.vectors - most) << c.why;
    EXPECT_LE(o.by_division, o.vectors - least) << c.why;

    // fmod: every FMA-path vector but those holding an outside lane takes the division (FMA
    // paths: AVX2 at 16 and 32 bytes, AVX-512 at all three widths).
    const Outcome f = check<Method::kFmod>(p, c.why);
    EXPECT_EQ(f.wrong, 0) << c.why;
    const int64_t fma_holding =
        (detected >= CpuCapability::kAvx2 ? 2 : 0) + (detected >= CpuCapability::kAvx512 ? 3 : 0);
    EXPECT_EQ(f.by_division, f.fma_vectors - (c.only_without_fma ? 0 : fma_holding)) << c.why;
  }
}

TEST(FloorDivideByDivision, DeclinesVectorsWithALaneOutsideItsDomainFloat) {
  check_declines<float>();
}
TEST(FloorDivideByDivision, DeclinesVectorsWithALaneOutsideItsDomainDouble) {
  check_declines<double>();
}

}  // namespace
}  // namespace bp
