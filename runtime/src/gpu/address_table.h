//===- address_table.h - the memory a GPU backend allocated, by device address ------------===//
//
// The Vulkan and Metal backends give out device addresses (VkDeviceAddress, MTLBuffer's
// gpuAddress) as the "pointers" of their memory, and must find the buffer an address lies in
// to copy or fill it. Both keep a table of their allocations: entries of the backend's own
// type, each starting with a tcc_address_range, under one lock.
//
//===------------------------------------------------------------------------------------===//
#ifndef TCC_RUNTIME_GPU_ADDRESS_TABLE_H
#define TCC_RUNTIME_GPU_ADDRESS_TABLE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "tcc/runtime.h"

#ifdef __cplusplus
extern "C" { // for the unit tests
#endif

/// The first member of every entry: the addresses an allocation covers.
typedef struct tcc_address_range {
  uint64_t address; ///< the device address of its first byte
  uint64_t size;    ///< its bytes
  void *user;       ///< what allocate returned (an address inside it, rounded up to an alignment)
} tcc_address_range;

typedef struct tcc_address_table {
  pthread_mutex_t mutex;
  size_t entry_size; ///< bytes of an entry: a tcc_address_range, then the backend's fields
  unsigned char *entries;
  size_t count, capacity;
  /// Bumped by every add and remove (Metal makes its buffers resident again when it changed).
  uint64_t generation;
} tcc_address_table;

/// An empty table of entries of `entry_type`.
#define TCC_ADDRESS_TABLE_INIT(entry_type)                                                         \
  {PTHREAD_MUTEX_INITIALIZER, sizeof(entry_type), NULL, 0, 0, 0}

/// Adds `entry` (entry_size bytes, starting with its range). Returns 0, or -1 when memory runs
/// out (the table is unchanged).
int tcc_address_table_add(tcc_address_table *table, const void *entry);

/// Copies the entry whose range holds [address, address + bytes) into *out; returns 0 when
/// none does.
int tcc_address_table_find(tcc_address_table *table, uint64_t address, size_t bytes, void *out);

/// Removes the entry whose `user` is `user`, copied into *out first; returns 0 when there is
/// none.
int tcc_address_table_remove(tcc_address_table *table, const void *user, void *out);

/// Entry `index` (< count) of a table whose lock the caller holds.
static inline const void *tcc_address_table_entry(const tcc_address_table *table, size_t index) {
  return table->entries + index * table->entry_size;
}

/// The error of a copy or fill whose bytes [pointer, +bytes) are in no entry: "<device>
/// device: <function>: [pointer, +bytes) is not inside memory this device allocated".
tcc_status tcc_address_table_outside(const char *device, const char *function, const void *pointer,
                                     size_t bytes);

#ifdef __cplusplus
}
#endif

#endif // TCC_RUNTIME_GPU_ADDRESS_TABLE_H
