// Lossless JSON for the suite's data: elements, tensors with their whole storage, expected
// outputs, and plain argument values.
//
//   json t = tensor_to_json(host);   // {"dtype": "float32", "sizes": [2, 3], "strides": [1, 2],
//                                    //  "storage_offset": 0, "storage": [1.5, "nan", "-0.0", ...]}
//   Tensor back = tensor_from_json(t);   // same geometry and bytes (NaN payloads aside)
//
// Elements: bool as true/false, integers as JSON integers, floating values as JSON numbers (which
// round-trip: doubles are written with 17 significant digits) except NaN, infinities and -0.0,
// which are the strings "nan", "inf", "-inf" and "-0.0"; complex values as [real, imag].
// docs/conformance.md describes the format.
//
// Integers (sizes, strides, storage_offset, int arguments and lists, integer elements) must be
// JSON integers within int64 range: 2.5, 1e23 and 2^63 are errors, not truncated or wrapped.
// Tensors given by storage are checked with check_tensor_geometry (sdk/core/geometry_check.h)
// against their storage's length. An expected output with "values_unspecified" keeps no values.
//
// Errors: std::runtime_error (or bp::Error from the geometry check) naming what is malformed and
// the value ("sizes[0] is 2.5: not a JSON integer within int64 range"); input is quoted through
// `excerpt`, so messages stay short whatever the input's size.
// Thread safety: pure functions.
#ifndef BACKPLANE_CONFORMANCE_IO_JSON_CODEC_H_
#define BACKPLANE_CONFORMANCE_IO_JSON_CODEC_H_

#include <map>
#include <string>
#include <string_view>

#include "conformance/framework/expected.h"
#include "conformance/framework/ref_tensor.h"
#include "conformance/framework/sample.h"
#include "nlohmann/json.hpp"
#include "sdk/dispatch/schema.h"

namespace bp::conformance {

using json = nlohmann::json;

// Input quoted in an error message: `text` when it has at most `max_chars` bytes, else its first
// `max_chars` (cut at a UTF-8 character boundary) then "... (N bytes)".
std::string excerpt(std::string_view text, size_t max_chars = 100);

json element_to_json(const Wide& w, ScalarType dtype);
Wide element_from_json(const json& j, ScalarType dtype);

ScalarType dtype_from_json(const json& j);

// The storages a case names, by name: each a 1-d contiguous CPU tensor over the whole storage
// (its dtype is the storage's). Tensors read with them are views of these.
using NamedStorages = std::map<std::string, Tensor>;
// The names a case file gives the storages that several tensors share: "s0", "s1", ...
using StorageNames = std::map<const StorageImpl*, std::string>;

// The case's "storages": {"s0": {"dtype": "float32", "values": [...]}, ...}. Errors name the
// storage ("storage 's0': expected 4 values...").
NamedStorages storages_from_json(const json& j);
// The storages that more than one tensor of `args` (list elements included) views, each named
// once in `names` ("s0", "s1", ... in the order first met); the rest stay unnamed. Returns the
// case's "storages" object (empty when no storage is shared).
json shared_storages_to_json(const std::vector<SampleArg>& args, StorageNames* names);

// A CPU tensor with its geometry and whole storage; a tensor over a storage in `names` (may be
// null) gives that name as its "storage" instead of the elements.
json tensor_to_json(const Tensor& host, const StorageNames* names = nullptr);
// A tensor given by "values", by its own "storage" list, or (with `storages`, may be null) by
// the name of a case's storage, of which it is then a view. Errors: an unknown storage name, a
// dtype other than the named storage's, a geometry reaching outside the storage.
Tensor tensor_from_json(const json& j, const NamedStorages* storages = nullptr);

// Logical values: {"dtype", "sizes", "values"} (row-major).
json ref_tensor_to_json(const RefTensor& t);
RefTensor ref_tensor_from_json(const json& j);

// An expected output: a ref tensor plus the optional "strides", "storage_offset", "aliases",
// "may_alias", "values_unspecified" and "storage" (every element of its storage after the call,
// a list as long as the storage); or, for a result that is not a tensor, {"value": v}
// with v written as an argument of the op's return type ("float32" for a ScalarType).
json expected_output_to_json(const ExpectedOutput& o);
ExpectedOutput expected_output_from_json(const json& j, const FunctionSchema& schema);

// One argument: tensors as objects ("on_host": true when kept on the host), the device under
// test as "<device>", numbers, strings, dtype and memory format names, lists, null for None.
// Tensors over a storage in `names` (may be null) name it (see tensor_to_json).
json argument_to_json(const SampleValue& v, const StorageNames* names = nullptr);
// One argument read as the schema's type says; tensors may name a storage of `storages` (may be
// null).
SampleValue argument_from_json(const json& j, const Type& type,
                               const NamedStorages* storages = nullptr);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_IO_JSON_CODEC_H_
