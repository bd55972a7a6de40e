#include "sdk/dispatch/library.h"

#include <utility>

#include "sdk/dispatch/schema.h"

namespace bp {
namespace {

std::string site_name(std::string debug_name, const std::source_location& site) {
  if (!debug_name.empty()) return debug_name;
  return detail::str_cat(site.file_name(), ":", site.line());
}

}  // namespace

Library::Library(std::string ns, Dispatcher& dispatcher)
    : ns_(std::move(ns)), dispatcher_(&dispatcher) {}

Library::~Library() {
  while (!registrations_.empty()) registrations_.pop_back();  // newest first
}

std::string Library::qualify(std::string_view name) const {
  return name.find("::") == std::string_view::npos ? ns_ + "::" + std::string(name)
                                                   : std::string(name);
}

Library& Library::def(std::string_view schema, std::source_location site) {
  FunctionSchema parsed = parse_schema(schema);
  parsed.name = qualify(parsed.name);
  registrations_.push_back(dispatcher_->register_def(std::move(parsed), site_name("", site)));
  return *this;
}

Library& Library::impl(std::string_view op_name, DispatchKey key, KernelFunction kernel,
                       std::string debug_name, std::source_location site) {
  registrations_.push_back(dispatcher_->register_impl(qualify(op_name), key, kernel,
                                                      site_name(std::move(debug_name), site)));
  return *this;
}

Library& Library::fallback(DispatchKey key, KernelFunction kernel, std::string debug_name,
                           std::source_location site) {
  registrations_.push_back(
      dispatcher_->register_fallback(key, kernel, site_name(std::move(debug_name), site)));
  return *this;
}

}  // namespace bp
