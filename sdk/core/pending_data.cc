#include "sdk/core/pending_data.h"

namespace bp::pending_data {
namespace {

std::atomic<Reader>& reader_slot() {
  static std::atomic<Reader> reader{nullptr};
  return reader;
}

}  // namespace

void set_reader(Reader reader) { reader_slot().store(reader, std::memory_order_release); }

void on_read(const StorageImpl* storage) {
  Reader reader = reader_slot().load(std::memory_order_acquire);
  if (reader != nullptr) reader(storage);
}

}  // namespace bp::pending_data
