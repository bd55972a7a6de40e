// Library: the registration API for a namespace of ops, in PyTorch's TORCH_LIBRARY style.
//
//   Library lib("bp");
//   lib.def("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor")
//      .impl("add.Tensor", DispatchKey::kCPU, KernelFunction::make_from_unboxed<&add_cpu>())
//      .fallback(plugin_key(0), KernelFunction::make_from_boxed(&cpu_fallback));
//   // ~Library() unregisters everything it registered (newest first): a plugin unloads by
//   // destroying its Library.
//
// Names without "::" get the library's namespace. Each registration's debug name (shown by
// Dispatcher::dump_dispatch_table) is the name given, else the registration site "file:line".
//
// Errors: as Dispatcher::register_def / register_impl / register_fallback (defining an op twice,
// impl for an undefined op), plus schema parse errors.
// Thread safety: a Library is used by one thread at a time; different Libraries may register
// concurrently.
#ifndef BACKPLANE_SDK_DISPATCH_LIBRARY_H_
#define BACKPLANE_SDK_DISPATCH_LIBRARY_H_

#include <source_location>
#include <string>
#include <string_view>
#include <vector>

#include "sdk/dispatch/dispatch_key.h"
#include "sdk/dispatch/dispatcher.h"
#include "sdk/dispatch/kernel.h"

namespace bp {

class Library {
 public:
  // Registers into `dispatcher` (borrowed; must outlive the Library).
  explicit Library(std::string ns, Dispatcher& dispatcher = Dispatcher::singleton());
  ~Library();
  Library(Library&&) = default;
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;

  Library& def(std::string_view schema,
               std::source_location site = std::source_location::current());
  Library& impl(std::string_view op_name, DispatchKey key, KernelFunction kernel,
                std::string debug_name = "",
                std::source_location site = std::source_location::current());
  Library& fallback(DispatchKey key, KernelFunction kernel, std::string debug_name = "",
                    std::source_location site = std::source_location::current());

  const std::string& ns() const { return ns_; }

 private:
  std::string qualify(std::string_view name) const;

  std::string ns_;
  Dispatcher* dispatcher_;
  std::vector<RegistrationHandle> registrations_;
};

}  // namespace bp

#endif  // BACKPLANE_SDK_DISPATCH_LIBRARY_H_
