// The perf mode's parts: the shape catalogue, statistics and scores, the calls it times, the
// baseline gate and the perf section of the JSON report read back.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "conformance/ops/database.h"
#include "conformance/perf/baseline.h"
#include "conformance/perf/perf_results.h"
#include "conformance/perf/perf_run.h"
#include "conformance/perf/perf_samples.h"
#include "conformance/perf/shape_catalogue.h"
#include "conformance/perf/timing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/core/empty.h"

namespace bp::conformance {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(ShapeCatalogue, DocumentsEveryShapeAndCoversEachModel) {
  const std::vector<CatalogueShape>& shapes = shape_catalogue();
  ASSERT_GE(shapes.size(), 10u);
  for (const CatalogueShape& s : shapes) {
    EXPECT_FALSE(s.model.empty()) << s.name;
    EXPECT_FALSE(s.layer.empty()) << s.name;
    EXPECT_FALSE(s.source.empty()) << s.name;
    EXPECT_EQ(s.dims.size(), s.sizes.size()) << s.name;
  }
  for (const std::string model :
       {"gpt2-small", "gpt2-medium", "llama-7b", "resnet50", "bert-base"}) {
    EXPECT_FALSE(select_shapes(shapes, {model}).empty()) << model;
  }
  // The numbers the models publish.
  const std::vector<CatalogueShape> gpt2 = select_shapes(shapes, {"gpt2-small.residual"});
  ASSERT_EQ(gpt2.size(), 1u);
  EXPECT_THAT(gpt2[0].sizes, ElementsAre(1, 1024, 768));
  EXPECT_THAT(select_shapes(shapes, {"llama-7b.decode-mlp"})[0].sizes, ElementsAre(1, 1, 11008));
}

TEST(ShapeCatalogue, SelectsByNameModelAllAndNone) {
  const std::vector<CatalogueShape>& shapes = shape_catalogue();
  EXPECT_EQ(select_shapes(shapes, {"all"}).size(), shapes.size());
  EXPECT_TRUE(select_shapes(shapes, {"none"}).empty());
  const std::vector<CatalogueShape> two =
      select_shapes(shapes, {"bert-base.pooled", "resnet50.pooled"});
  ASSERT_EQ(two.size(), 2u);
  // Catalogue order, not the order asked.
  EXPECT_EQ(two[0].name, "resnet50.pooled");
  try {
    select_shapes(shapes, {"gpt3"});
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("'gpt3' names no shape"));
    EXPECT_THAT(e.what(), HasSubstr("gpt2-small"));
  }
}

TEST(ShapeCatalogue, RejectsAShapeWithoutItsSourceOrWithMismatchedDims) {
  const std::string base =
      R"({"shapes": [{"name": "m.l", "model": "M", "layer": "L", "dims": ["a", "b"], )";
  EXPECT_THAT(
      [&] { parse_shape_catalogue(base + R"("sizes": [1, 2]}]})"); },
      ::testing::ThrowsMessage<std::runtime_error>(HasSubstr("shape 0 (m.l): missing \"source\"")));
  EXPECT_THAT([&] { parse_shape_catalogue(base + R"("sizes": [1], "source": "S"}]})"); },
              ::testing::ThrowsMessage<std::runtime_error>(HasSubstr("one length")));
  EXPECT_THAT([&] { parse_shape_catalogue(base + R"("sizes": [1, 0], "source": "S"}]})"); },
              ::testing::ThrowsMessage<std::runtime_error>(HasSubstr("dimension 1")));
}

TEST(Timing, SummarizesByMedianAndInterquartileSpread) {
  const Timing t = summarize({5e-6, 1e-6, 3e-6, 2e-6, 4e-6});
  EXPECT_DOUBLE_EQ(t.median_us, 3);
  EXPECT_DOUBLE_EQ(t.min_us, 1);
  EXPECT_DOUBLE_EQ(t.max_us, 5);
  EXPECT_NEAR(t.spread, 2.0 / 3.0, 1e-12);  // quartiles 2 and 4
  EXPECT_EQ(t.repeats, 5);
  // One outlier (a preempted repeat) moves neither the median nor the spread much.
  EXPECT_DOUBLE_EQ(summarize({1e-6, 1e-6, 1e-6, 1e-6, 1.0}).median_us, 1);
  EXPECT_THROW(summarize({}), std::invalid_argument);
}

TEST(Timing, CountsWarmupAndRepeatCallsAndSynchronizesEachRepeat) {
  int calls = 0, syncs = 0;
  const Timing t = time_calls([&] { ++calls; }, [&] { ++syncs; }, TimingOptions{2, 5});
  EXPECT_EQ(calls, 7);
  EXPECT_EQ(syncs, 6);  // once after the warm-up, once per repeat
  EXPECT_EQ(t.repeats, 5);
}

PerfRecord record(std::string op, double us, double reference_us, bool correct = true) {
  PerfRecord r;
  r.op = std::move(op);
  r.shape = "sample 0";
  r.correct = correct;
  r.bytes = 8000;
  r.call = "self=float32[4] other=float32[4]  (contiguous)";
  if (correct) {
    r.time = Timing{us, us, us, 0, 3};
    r.reference = Timing{reference_us, reference_us, reference_us, 0, 3};
  } else {
    r.problem = "values: 1 of 4 elements differ";
  }
  return r;
}

TEST(PerfScores, GeometricMeanOverCellsWithAWrongCellScoringNothing) {
  PerfResults perf;
  perf.roof.gbps = 10;  // 8000 bytes in 1 us: 8 GB/s, 0.8 of the roof
  perf.records = {record("a", 1, 2), record("b", 10, 5), record("c", 1, 100, false)};
  const PerfScores s = perf_scores(perf);
  EXPECT_EQ(s.cells, 3);
  EXPECT_EQ(s.wrong_cells, 1);
  EXPECT_NEAR(s.geomean_speedup, std::cbrt(2 * 0.5 * 1), 1e-12);
  EXPECT_NEAR(s.share_faster, 1.0 / 3, 1e-12);
  EXPECT_NEAR(s.share_at_roof, 1.0 / 3, 1e-12);  // only a: b moves 8000 bytes in 10 us
  const std::vector<PerfCell> cells = perf_cells(perf);
  ASSERT_EQ(cells.size(), 3u);
  EXPECT_FALSE(cells[2].correct);
  EXPECT_DOUBLE_EQ(cells[2].speedup, 1);
}

TEST(PerfScores, ACellIsTheGeometricMeanOfItsShapes) {
  PerfResults perf;
  perf.records = {record("a", 1, 4), record("a", 4, 1)};
  perf.records[1].shape = "gpt2-small.mlp";
  perf.roof.gbps = 10;
  perf.records[1].bytes = 80000;  // 20 GB/s, but the first call (8 GB/s) is smaller
  const std::vector<PerfCell> cells = perf_cells(perf);
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_EQ(cells[0].shapes, 2);
  EXPECT_NEAR(cells[0].speedup, 1, 1e-12);
  // The roof fraction is the largest call's: small ones run from caches, faster than memory.
  EXPECT_NEAR(cells[0].roof, 2, 1e-12);
  perf.records[1].bytes = 800;
  EXPECT_NEAR(perf_cells(perf)[0].roof, 0.8, 1e-12);
}

TEST(PerfBaseline, FailsARegressionBeyondTheThresholdNamingTheCall) {
  PerfResults before, after;
  before.records = {record("add.Tensor", 100, 100), record("neg", 100, 100), record("exp", 1, 1),
                    record("mul.Tensor", 100, 100)};
  after.records = {record("add.Tensor", 400, 100), record("neg", 140, 100), record("exp", 15, 1),
                   record("mul.Tensor", 100, 100)};
  // mul's median is 5x its baseline's (a loaded machine), its fastest repeat is not.
  after.records[3].time->median_us = 500;
  const BaselineComparison cmp = compare_with_baseline(after, before, 0.5);
  EXPECT_EQ(cmp.compared, 4);
  ASSERT_EQ(cmp.regressions.size(), 1u) << ::testing::PrintToString(cmp.regressions);
  // neg is within +50%; exp is 15x slower but by 14 us, under the noise floor.
  EXPECT_EQ(cmp.regressions[0],
            "perf regression: add.Tensor float32 sample 0 (self=float32[4] other=float32[4]): "
            "fastest of 3 repeats 100.0 us in the baseline, 400.0 us now (4.00x; threshold +50% "
            "and 20 us)");
  EXPECT_TRUE(compare_with_baseline(before, before, 0.5).regressions.empty());
}

TEST(PerfBaseline, NotesCallsTimedInOnlyOneOfTheRuns) {
  PerfResults before, after;
  before.records = {record("add.Tensor", 100, 100), record("neg", 100, 100)};
  after.records = {record("add.Tensor", 100, 100, false), record("mul.Tensor", 1, 1)};
  const BaselineComparison cmp = compare_with_baseline(after, before, 0.5);
  EXPECT_EQ(cmp.compared, 0);
  EXPECT_TRUE(cmp.regressions.empty());
  const std::string call = " (self=float32[4] other=float32[4]): ";
  EXPECT_THAT(cmp.notes,
              ::testing::UnorderedElementsAre(
                  "add.Tensor float32 sample 0" + call +
                      "timed in the baseline, not now (values: 1 of 4 elements differ)",
                  "mul.Tensor float32 sample 0" + call + "not timed in the baseline",
                  "neg float32 sample 0" + call + "in the baseline, not timed in this run"));
}

TEST(PerfJson, ReadsBackWhatItWrites) {
  PerfResults perf;
  perf.backend = "toy";
  perf.roof = MemoryRoof{1 << 20, Timing{100, 90, 120, 0.1, 10}, 20.97, ""};
  perf.records = {record("add.Tensor", 12.5, 25), record("neg", 1, 1, false)};
  perf.records[0].dtype = ScalarType::kFloat64;
  perf.records[0].fallback_calls = 3;
  const nlohmann::json j = perf_json(perf, nullptr);
  EXPECT_DOUBLE_EQ(j["scores"]["geomean_speedup"].get<double>(), std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(j["records"][0]["speedup"].get<double>(), 2);
  EXPECT_TRUE(j["records"][0]["via_fallback"].get<bool>());
  EXPECT_TRUE(j["records"][1]["time"].is_null());
  const PerfResults back = perf_from_json(j);
  EXPECT_EQ(back.backend, "toy");
  ASSERT_EQ(back.records.size(), 2u);
  EXPECT_EQ(back.records[0].dtype, ScalarType::kFloat64);
  EXPECT_DOUBLE_EQ(back.records[0].time->median_us, 12.5);
  EXPECT_FALSE(back.records[1].time.has_value());
  EXPECT_EQ(back.records[1].problem, "values: 1 of 4 elements differ");
  nlohmann::json broken = j;
  broken["records"][0].erase("bytes");
  EXPECT_THAT([&] { perf_from_json(broken); },
              ::testing::ThrowsMessage<std::runtime_error>(
                  HasSubstr("perf.records[0]: missing \"bytes\"")));
}

TEST(PerfSamples, PutsCatalogueShapesIntoTheFirstSampleOfOneShape) {
  const std::vector<CatalogueShape> shapes =
      select_shapes(shape_catalogue(), {"resnet50.pooled", "bert-base.pooled"});
  const PerfPlan plan = perf_cases(*op_database().find("add.Tensor"), ScalarType::kFloat32, shapes,
                                   Tolerances::builtin());
  ASSERT_TRUE(plan.entry_error.empty()) << plan.entry_error;
  std::vector<std::string> catalogue;
  for (const PerfCase& p : plan.cases) {
    EXPECT_FALSE(p.c.expect.error.has_value()) << p.shape;
    if (!p.shape.starts_with("sample ")) catalogue.push_back(p.shape);
  }
  EXPECT_THAT(catalogue, ElementsAre("resnet50.pooled", "bert-base.pooled"));
  const PerfCase& pooled =
      *std::find_if(plan.cases.begin(), plan.cases.end(),
                    [](const PerfCase& p) { return p.shape == "resnet50.pooled"; });
  EXPECT_EQ(pooled.c.op, "add.Tensor");
  EXPECT_EQ(pooled.c.check, "functional");
  EXPECT_EQ(pooled.c.id, "perf/add.Tensor/float32/resnet50.pooled");
  EXPECT_THAT(pooled.c.description, HasSubstr("self=float32[1, 2048] other=float32[1, 2048]"));
}

TEST(PerfSamples, TilesTheTemplateValuesIntoTheNewShape) {
  Tensor t = native::empty(IntArrayRef({3}), ScalarType::kInt32, Device(DeviceType::kCPU));
  for (int i = 0; i < 3; ++i) t.data_ptr<int32_t>()[i] = i + 1;
  Sample s;
  s.add("self", t).add("alpha", Value(int64_t{2}));
  const std::optional<Sample> big = with_shape(s, {3}, {2, 4});
  ASSERT_TRUE(big.has_value());
  const Tensor& b = std::get<TensorArg>(big->find("self")->value).host;
  EXPECT_THAT(std::vector<int64_t>(b.sizes().begin(), b.sizes().end()), ElementsAre(2, 4));
  EXPECT_THAT(std::vector<int32_t>(b.data_ptr<int32_t>(), b.data_ptr<int32_t>() + 8),
              ElementsAre(1, 2, 3, 1, 2, 3, 1, 2));
  EXPECT_FALSE(with_shape(s, {4}, {2, 4}).has_value());  // no argument of that shape
}

TEST(PerfRun, TimesCorrectCallsOnTheCpuAndCountsTheirBytes) {
  CpuBackend cpu;
  PerfOptions options;
  options.ops.names = {"add.Tensor"};
  options.dtypes = DtypeSet(ScalarType::kFloat32);
  options.shapes = select_shapes(shape_catalogue(), {"resnet50.pooled"});
  options.timing = TimingOptions{1, 3};
  options.roof_bytes = 1 << 20;
  RunResults results;
  const PerfResults perf = run_perf(op_database(), cpu, options, results);
  EXPECT_GT(perf.roof.gbps, 0);
  EXPECT_TRUE(perf.reference_is_backend);
  const PerfRecord* pooled = nullptr;
  for (const PerfRecord& r : perf.records) {
    EXPECT_TRUE(r.correct) << r.shape << ": " << r.problem;
    if (r.shape == "resnet50.pooled") pooled = &r;
  }
  ASSERT_NE(pooled, nullptr);
  ASSERT_TRUE(pooled->time.has_value());
  EXPECT_EQ(pooled->time->repeats, 3);
  EXPECT_GT(pooled->time->median_us, 0);
  EXPECT_EQ(pooled->bytes, 3 * 2048 * 4);   // self and other read, the result written
  EXPECT_DOUBLE_EQ(*pooled->speedup(), 1);  // the CPU is its own reference
  EXPECT_EQ(pooled->fallback_calls, 0);
}

// A backend on a device nothing registered memory for (no CUDA plugin is loaded here).
class DeviceWithoutMemory final : public Backend {
 public:
  std::string name() const override { return "nomem"; }
  std::string description() const override { return "a device without an allocator"; }
  Device device() const override { return Device(DeviceType::kCUDA, 0); }
  DispatchKey key() const override { return DispatchKey::kCUDA; }
};

TEST(PerfRun, ADeviceWithoutMemoryHasNoRoofAndNoTimesButTheRunGoesOn) {
  DeviceWithoutMemory backend;
  CpuBackend cpu;
  PerfOptions options;
  options.ops.names = {"neg"};
  options.dtypes = DtypeSet(ScalarType::kFloat32);
  options.timing = TimingOptions{0, 1};
  options.reference = &cpu;
  RunResults results;
  const PerfResults perf = run_perf(op_database(), backend, options, results);
  EXPECT_THAT(perf.roof.problem, HasSubstr("no allocator is registered for device type"));
  EXPECT_EQ(perf.roof.gbps, 0);
  ASSERT_FALSE(perf.records.empty());
  for (const PerfRecord& r : perf.records) {
    EXPECT_FALSE(r.correct) << r.shape;
    EXPECT_FALSE(r.time.has_value()) << r.shape;
    EXPECT_THAT(r.problem, HasSubstr("bad case")) << r.shape;
  }
}

}  // namespace
}  // namespace bp::conformance
