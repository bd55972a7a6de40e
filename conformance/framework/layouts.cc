#include "conformance/framework/layouts.h"

#include <cstring>

#include "sdk/core/empty.h"
#include "sdk/core/tensor_impl.h"

namespace bp::conformance {
namespace {

const Device kCpu(DeviceType::kCPU);

// A CPU tensor over fresh storage of `storage_elements` elements with this geometry. The
// storage is zeroed first: ops such as as_strided may read the gaps between the elements, and
// those reads must be deterministic (and valid bool bytes) on the reference and the backend alike.
Tensor allocate_view(ScalarType dtype, int64_t storage_elements, const Sizes& sizes,
                     const Sizes& strides, int64_t offset) {
  Tensor base = native::empty({storage_elements}, dtype, kCpu);
  if (storage_elements > 0) std::memset(base.data_ptr(), 0, base.storage().nbytes());
  return strided_view(base, sizes, strides, offset);
}

}  // namespace

std::string_view layout_name(Layout layout) {
  switch (layout) {
    case Layout::kContiguous:
      return "contiguous";
    case Layout::kTransposed:
      return "transposed";
    case Layout::kSliced:
      return "sliced";
    case Layout::kExpanded:
      return "expanded";
    case Layout::kChannelsLast:
      return "channels-last";
    case Layout::kOffset:
      return "offset";
  }
  return "?";
}

Tensor strided_view(const Tensor& base, const Sizes& sizes, const Sizes& strides, int64_t offset) {
  return Tensor(IntrusivePtr<TensorImpl>::make(base.storage(), base.dtype(), IntArrayRef(sizes),
                                               IntArrayRef(strides), offset));
}

Tensor expanded_view(const Tensor& base, const Sizes& sizes) {
  const size_t lead = sizes.size() - static_cast<size_t>(base.dim());
  Sizes strides(sizes.size(), 0);
  for (size_t d = lead; d < sizes.size(); ++d) {
    const int64_t s = base.sizes()[d - lead];
    strides[d] = s == 1 && sizes[d] != 1 ? 0 : base.strides()[d - lead];
  }
  return strided_view(base, sizes, strides, base.storage_offset());
}

Tensor lay_out(const RefTensor& values, Layout layout) {
  const Sizes& sizes = values.sizes;
  const int64_t n = values.numel();
  const size_t dims = sizes.size();
  Tensor t;
  switch (layout) {
    case Layout::kTransposed:
      if (dims >= 2) {
        Sizes swapped = sizes;
        std::swap(swapped[dims - 1], swapped[dims - 2]);
        Sizes strides = contiguous_strides_of(swapped);
        std::swap(strides[dims - 1], strides[dims - 2]);
        t = allocate_view(values.dtype, n, sizes, strides, 0);
      }
      break;
    case Layout::kSliced:
      if (dims >= 1) {
        Sizes wide = sizes;
        wide[dims - 1] = 2 * sizes[dims - 1] + 1;
        Sizes strides = contiguous_strides_of(wide);
        strides[dims - 1] = 2;
        t = allocate_view(values.dtype, numel_of(wide), sizes, strides, 1);
      }
      break;
    case Layout::kChannelsLast:
      if (dims == 4) {
        const Sizes nhwc = {sizes[0], sizes[2], sizes[3], sizes[1]};
        const Sizes s = contiguous_strides_of(nhwc);
        t = allocate_view(values.dtype, n, sizes, {s[0], s[3], s[1], s[2]}, 0);
      }
      break;
    case Layout::kOffset:
      t = allocate_view(values.dtype, n + 5, sizes, contiguous_strides_of(sizes), 5);
      break;
    case Layout::kContiguous:
    case Layout::kExpanded:
      break;
  }
  if (!t.defined()) t = allocate_view(values.dtype, n, sizes, contiguous_strides_of(sizes), 0);
  write_tensor(t, values);
  return t;
}

Tensor make_tensor(ValueSource& src, ScalarType dtype, const Sizes& sizes, Layout layout,
                   const Domain& domain) {
  if (layout == Layout::kExpanded) {
    for (size_t d = 0; d < sizes.size(); ++d) {
      if (sizes[d] > 1) {
        Sizes base_sizes = sizes;
        base_sizes[d] = 1;
        return expanded_view(lay_out(src.draw(dtype, base_sizes, domain), Layout::kContiguous),
                             sizes);
      }
    }
  }
  return lay_out(src.draw(dtype, sizes, domain), layout);
}

Tensor wrapped_number(const Wide& value, ScalarType type) {
  Tensor t = lay_out(RefTensor{type, {}, {value}}, Layout::kContiguous);
  t.impl()->set_wrapped_number(true);
  return t;
}

}  // namespace bp::conformance
