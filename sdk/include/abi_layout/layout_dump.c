/* Prints the layout of every public struct of the C ABI as the compiler sees it through the
 * headers it is built against: one line per struct ("sizeof bp_api 520") and per field ("field
 * bp_api.tensor_retain 104 8": offset, size), after a "version 0.4" line. Built against today's
 * headers, the frozen copy of the previous minor's (sdk/include/frozen/) and deliberately
 * mutated copies; layout_check.sh compares the output with the golden tables of every released
 * minor (golden/<minor>.txt).
 *
 * LAYOUT_MINOR (default: the headers' BP_API_MINOR) selects the fields that minor had: fields
 * and structs added in minor N are printed only when LAYOUT_MINOR >= N. 0.0 never had headers of
 * its own (the first headers were 0.1 and mark what 0.0 lacked with "(0.1)"): its table is 0.1's
 * headers printed with LAYOUT_MINOR=0, without sizeof lines. When a minor adds a field, add its
 * FIELD line under an
 * `#if LAYOUT_MINOR >= N` here and a golden table for N (regenerate_golden.sh). */
#include <stddef.h>
#include <stdio.h>

#include "backplane/plugin.h"

#ifndef LAYOUT_MINOR
#define LAYOUT_MINOR BP_API_MINOR
#endif

/* sizeof is the headers' own: printed only for the minor they are (not for 0.0 from 0.1's). */
#if LAYOUT_MINOR == BP_API_MINOR
#define STRUCT(S) printf("sizeof %s %zu\n", #S, sizeof(S))
#else
#define STRUCT(S)
#endif
#define FIELD(S, f) printf("field %s.%s %zu %zu\n", #S, #f, offsetof(S, f), sizeof(((S*)0)->f))

int main(void) {
  printf("version %d.%d\n", BP_API_MAJOR, LAYOUT_MINOR);
  STRUCT(bp_device);
  FIELD(bp_device, device_type);
  FIELD(bp_device, device_id);
  STRUCT(bp_value);
  FIELD(bp_value, tag);
  FIELD(bp_value, u);
  STRUCT(bp_tensor_info);
  FIELD(bp_tensor_info, struct_size);
  FIELD(bp_tensor_info, ndim);
  FIELD(bp_tensor_info, sizes);
  FIELD(bp_tensor_info, strides);
  FIELD(bp_tensor_info, storage_offset);
  FIELD(bp_tensor_info, numel);
  FIELD(bp_tensor_info, dtype);
  FIELD(bp_tensor_info, device);
  FIELD(bp_tensor_info, data);
  STRUCT(bp_allocator);
  FIELD(bp_allocator, struct_size);
  FIELD(bp_allocator, user_data);
  FIELD(bp_allocator, alignment);
  FIELD(bp_allocator, allocate);
  FIELD(bp_allocator, deallocate);
  STRUCT(bp_copy_fns);
  FIELD(bp_copy_fns, struct_size);
  FIELD(bp_copy_fns, user_data);
  FIELD(bp_copy_fns, to_host);
  FIELD(bp_copy_fns, from_host);
  FIELD(bp_copy_fns, within_device);
  FIELD(bp_copy_fns, synchronize);
#if LAYOUT_MINOR >= 1
  STRUCT(bp_stream_fns);
  FIELD(bp_stream_fns, struct_size);
  FIELD(bp_stream_fns, user_data);
  FIELD(bp_stream_fns, create);
  FIELD(bp_stream_fns, destroy);
  FIELD(bp_stream_fns, synchronize);
  FIELD(bp_stream_fns, wait);
  FIELD(bp_stream_fns, query);
#endif
  STRUCT(bp_backend_desc);
  FIELD(bp_backend_desc, struct_size);
  FIELD(bp_backend_desc, name);
  FIELD(bp_backend_desc, device_count);
  FIELD(bp_backend_desc, allocator);
  FIELD(bp_backend_desc, copies);
#if LAYOUT_MINOR >= 1
  FIELD(bp_backend_desc, user_data);
  FIELD(bp_backend_desc, on_released);
  FIELD(bp_backend_desc, streams);
#endif
#if LAYOUT_MINOR >= 5
  FIELD(bp_backend_desc, fusion);
  STRUCT(bp_fusion_fns);
  FIELD(bp_fusion_fns, struct_size);
  FIELD(bp_fusion_fns, user_data);
  FIELD(bp_fusion_fns, run_group);
#endif
  STRUCT(bp_iter_config);
  FIELD(bp_iter_config, struct_size);
  FIELD(bp_iter_config, outputs);
  FIELD(bp_iter_config, noutputs);
  FIELD(bp_iter_config, inputs);
  FIELD(bp_iter_config, ninputs);
  FIELD(bp_iter_config, flags);
  STRUCT(bp_iter_info);
  FIELD(bp_iter_info, struct_size);
  FIELD(bp_iter_info, ndim);
  FIELD(bp_iter_info, shape);
  FIELD(bp_iter_info, ntensors);
  FIELD(bp_iter_info, noutputs);
  FIELD(bp_iter_info, numel);
  FIELD(bp_iter_info, common_dtype);
  FIELD(bp_iter_info, is_contiguous);
  FIELD(bp_iter_info, has_contiguous_first_dim);
  FIELD(bp_iter_info, can_use_32bit_indexing);
  FIELD(bp_iter_info, is_reduction);
#if LAYOUT_MINOR >= 1
  FIELD(bp_iter_info, num_output_elements);
  FIELD(bp_iter_info, num_reduce_dims);
  FIELD(bp_iter_info, should_accumulate);
  FIELD(bp_iter_info, is_final_output);
#endif
  STRUCT(bp_iter_operand);
  FIELD(bp_iter_operand, struct_size);
  FIELD(bp_iter_operand, strides);
  FIELD(bp_iter_operand, data);
  FIELD(bp_iter_operand, dtype);
  FIELD(bp_iter_operand, device);
  FIELD(bp_iter_operand, is_output);
  FIELD(bp_iter_operand, is_read_write);
  FIELD(bp_iter_operand, is_scalar);
  FIELD(bp_iter_operand, is_cpu_scalar);
#if LAYOUT_MINOR >= 1
  STRUCT(bp_backend_info);
  FIELD(bp_backend_info, struct_size);
  FIELD(bp_backend_info, name);
  FIELD(bp_backend_info, device_type);
  FIELD(bp_backend_info, device_count);
  FIELD(bp_backend_info, dispatch_key);
  FIELD(bp_backend_info, plugin_name);
#endif
  STRUCT(bp_plugin_load_record);
  FIELD(bp_plugin_load_record, struct_size);
  FIELD(bp_plugin_load_record, path);
  FIELD(bp_plugin_load_record, plugin_name);
  FIELD(bp_plugin_load_record, loaded);
  FIELD(bp_plugin_load_record, error_code);
  FIELD(bp_plugin_load_record, error);
  FIELD(bp_plugin_load_record, plugin_major);
  FIELD(bp_plugin_load_record, plugin_minor);
  FIELD(bp_plugin_load_record, host_major);
  FIELD(bp_plugin_load_record, host_minor);
  STRUCT(bp_plugin_desc);
  FIELD(bp_plugin_desc, struct_size);
  FIELD(bp_plugin_desc, name);
  FIELD(bp_plugin_desc, api_major);
  FIELD(bp_plugin_desc, api_minor);
  FIELD(bp_plugin_desc, user_data);
  FIELD(bp_plugin_desc, unload);
  STRUCT(bp_api);
  FIELD(bp_api, struct_size);
  FIELD(bp_api, major_version);
  FIELD(bp_api, minor_version);
  FIELD(bp_api, error_create);
  FIELD(bp_api, error_code);
  FIELD(bp_api, error_message);
  FIELD(bp_api, error_destroy);
  FIELD(bp_api, version_string);
  FIELD(bp_api, tensor_empty);
  FIELD(bp_api, tensor_empty_strided);
  FIELD(bp_api, tensor_from_host);
  FIELD(bp_api, tensor_wrap);
  FIELD(bp_api, tensor_to_host);
  FIELD(bp_api, tensor_retain);
  FIELD(bp_api, tensor_release);
  FIELD(bp_api, tensor_info);
  FIELD(bp_api, tensor_is_contiguous);
  FIELD(bp_api, op_find);
  FIELD(bp_api, op_name);
  FIELD(bp_api, op_schema);
  FIELD(bp_api, op_list);
  FIELD(bp_api, op_call);
  FIELD(bp_api, op_call_meta);
  FIELD(bp_api, backend_register);
  FIELD(bp_api, backend_unregister);
  FIELD(bp_api, backend_device_type);
  FIELD(bp_api, kernel_register);
  FIELD(bp_api, fallback_register);
  FIELD(bp_api, registration_destroy);
  FIELD(bp_api, cpu_fallback);
  FIELD(bp_api, iter_build);
  FIELD(bp_api, iter_info);
  FIELD(bp_api, iter_operand);
  FIELD(bp_api, iter_tensor);
  FIELD(bp_api, iter_split_32bit);
  FIELD(bp_api, iter_destroy);
  FIELD(bp_api, kernel_cache_get);
  FIELD(bp_api, kernel_cache_put);
  FIELD(bp_api, kernel_cache_free);
  FIELD(bp_api, plugin_load);
  FIELD(bp_api, plugin_unload);
  FIELD(bp_api, plugin_load_records);
  FIELD(bp_api, set_log_handler);
  FIELD(bp_api, set_debug_checks);
#if LAYOUT_MINOR >= 1
  FIELD(bp_api, backend_list);
  FIELD(bp_api, value_release);
  FIELD(bp_api, device_synchronize);
  FIELD(bp_api, iter_cast_outputs);
  FIELD(bp_api, common_fallthrough_register);
  FIELD(bp_api, stream_create);
  FIELD(bp_api, stream_destroy);
  FIELD(bp_api, stream_current);
  FIELD(bp_api, stream_set_current);
  FIELD(bp_api, stream_synchronize);
  FIELD(bp_api, stream_wait);
  FIELD(bp_api, stream_query);
  FIELD(bp_api, stream_native);
  FIELD(bp_api, value_set_tensor_list);
#endif
#if LAYOUT_MINOR >= 2
  FIELD(bp_api, kernel_call_iter);
#endif
#if LAYOUT_MINOR >= 3
  FIELD(bp_api, tensor_as_strided);
#endif
#if LAYOUT_MINOR >= 4
  FIELD(bp_api, op_define);
  FIELD(bp_api, fallthrough_register);
  FIELD(bp_api, wrapper_key_register);
  FIELD(bp_api, wrapper_key_unregister);
  FIELD(bp_api, wrapper_kernel_register);
  FIELD(bp_api, wrapper_key_set_enabled);
  FIELD(bp_api, kernel_redispatch);
  FIELD(bp_api, op_dispatch_table);
#endif
#if LAYOUT_MINOR >= 4
  STRUCT(bp_op_def);
  FIELD(bp_op_def, struct_size);
  FIELD(bp_op_def, schema);
  FIELD(bp_op_def, out_schema);
  FIELD(bp_op_def, meta_kind);
  FIELD(bp_op_def, meta);
  FIELD(bp_op_def, meta_user_data);
  FIELD(bp_op_def, cpu_kernel);
  FIELD(bp_op_def, cpu_user_data);
#endif
#if LAYOUT_MINOR >= 5
  FIELD(bp_api, lazy_scope_begin);
  FIELD(bp_api, lazy_scope_end);
  FIELD(bp_api, lazy_materialize);
#endif
  return 0;
}
