// Structs that cross the C ABI carry their size first (`size_t struct_size`) so both sides can
// grow them: these helpers read and write them by the rules of api.h.
//
//   bp_backend_desc desc = read_struct(in, "bp_backend_desc");  // zero past the caller's size
//   write_struct(info, out);                                     // up to the caller's size
//
// "Known size" is where a struct's last field ends in this host's headers (not sizeof, whose
// trailing padding a newer field may occupy). Every struct read or written here has its known
// size declared below with BP_C_API_KNOWN_SIZE.
//
// Thread safety: pure functions.
#ifndef BACKPLANE_SDK_C_API_STRUCTS_H_
#define BACKPLANE_SDK_C_API_STRUCTS_H_

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "backplane/backplane.h"
#include "sdk/core/error.h"

namespace bp::c_api {

template <typename T>
inline constexpr size_t kKnownSize = 0;

#define BP_C_API_KNOWN_SIZE(T, last_field) \
  template <>                              \
  inline constexpr size_t kKnownSize<T> = offsetof(T, last_field) + sizeof(T::last_field)

BP_C_API_KNOWN_SIZE(bp_allocator, deallocate);
BP_C_API_KNOWN_SIZE(bp_copy_fns, synchronize);
BP_C_API_KNOWN_SIZE(bp_stream_fns, query);
BP_C_API_KNOWN_SIZE(bp_fusion_fns, run_group);
BP_C_API_KNOWN_SIZE(bp_backend_desc, fusion);
BP_C_API_KNOWN_SIZE(bp_iter_config, flags);
BP_C_API_KNOWN_SIZE(bp_iter_info, is_final_output);
BP_C_API_KNOWN_SIZE(bp_iter_operand, is_cpu_scalar);
BP_C_API_KNOWN_SIZE(bp_tensor_info, data);
BP_C_API_KNOWN_SIZE(bp_plugin_load_record, host_minor);
BP_C_API_KNOWN_SIZE(bp_backend_info, plugin_name);
BP_C_API_KNOWN_SIZE(bp_api, value_set_tensor_list);
BP_C_API_KNOWN_SIZE(bp_op_def, cpu_user_data);

#undef BP_C_API_KNOWN_SIZE

// Reads `*in` (a struct the caller filled): bytes past in->struct_size read as zero. Errors
// (kInvalidArgument): a struct_size smaller than the size field itself, and a larger struct with
// a non-zero byte past the known size ("bp_backend_desc has struct_size 120 but this host (C ABI
// 0.1) knows 96 bytes of it, and byte 100 is not zero: ...").
template <typename T>
T read_struct(const T* in, const char* name) {
  static_assert(kKnownSize<T> > 0, "declare the struct's known size in structs.h");
  const size_t size = in->struct_size;
  BP_CHECK(size >= sizeof(size_t), name, ".struct_size is ", size, ": set it to sizeof(", name,
           ")");
  T out;
  std::memset(static_cast<void*>(&out), 0, sizeof(T));
  std::memcpy(static_cast<void*>(&out), in, std::min(size, kKnownSize<T>));
  const auto* bytes = reinterpret_cast<const unsigned char*>(in);
  for (size_t i = kKnownSize<T>; i < size; ++i) {
    BP_CHECK(bytes[i] == 0, name, " has struct_size ", size, " but this host (C ABI ", BP_API_MAJOR,
             ".", BP_API_MINOR, ") knows ", kKnownSize<T>, " bytes of it, and byte ", i,
             " is not zero: the caller sets a field this host does not have (built against "
             "newer headers?)");
  }
  return out;
}

// Writes `value` into `*out` (a struct the caller owns and sized): at most out->struct_size
// bytes, and never past the known size. out->struct_size itself is left as the caller set it.
// Errors: a struct_size smaller than the size field.
template <typename T>
void write_struct(const T& value, T* out, const char* name) {
  static_assert(kKnownSize<T> > 0, "declare the struct's known size in structs.h");
  const size_t size = out->struct_size;
  BP_CHECK(size >= sizeof(size_t), name, ".struct_size is ", size, ": set it to sizeof(", name,
           ")");
  const size_t n = std::min(size, kKnownSize<T>);
  std::memcpy(reinterpret_cast<char*>(out) + sizeof(size_t),
              reinterpret_cast<const char*>(&value) + sizeof(size_t), n - sizeof(size_t));
}

}  // namespace bp::c_api

#endif  // BACKPLANE_SDK_C_API_STRUCTS_H_
