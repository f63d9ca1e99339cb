//===- address_table.c - the memory a GPU backend allocated, by device address ------------===//
#include "gpu/address_table.h"
#include "status_internal.h"

#include <stdlib.h>
#include <string.h>

int tcc_address_table_add(tcc_address_table *table, const void *entry) {
  pthread_mutex_lock(&table->mutex);
  if (table->count == table->capacity) {
    size_t capacity = table->capacity ? 2 * table->capacity : 64;
    unsigned char *grown = realloc(table->entries, capacity * table->entry_size);
    if (!grown) {
      pthread_mutex_unlock(&table->mutex);
      return -1;
    }
    table->entries = grown;
    table->capacity = capacity;
  }
  memcpy(table->entries + table->count * table->entry_size, entry, table->entry_size);
  ++table->count;
  ++table->generation;
  pthread_mutex_unlock(&table->mutex);
  return 0;
}

int tcc_address_table_find(tcc_address_table *table, uint64_t address, size_t bytes, void *out) {
  int found = 0;
  pthread_mutex_lock(&table->mutex);
  for (size_t i = 0; i < table->count && !found; ++i) {
    const tcc_address_range *range = tcc_address_table_entry(table, i);
    // address - start <= size, then bytes <= what is left: no sum that could wrap around.
    if (address >= range->address && address - range->address <= range->size &&
        bytes <= range->size - (address - range->address)) {
      memcpy(out, range, table->entry_size);
      found = 1;
    }
  }
  pthread_mutex_unlock(&table->mutex);
  return found;
}

int tcc_address_table_remove(tcc_address_table *table, const void *user, void *out) {
  int found = 0;
  pthread_mutex_lock(&table->mutex);
  for (size_t i = 0; i < table->count && !found; ++i) {
    unsigned char *entry = table->entries + i * table->entry_size;
    if (((const tcc_address_range *)entry)->user != user)
      continue;
    memcpy(out, entry, table->entry_size);
    // The last entry takes its place.
    --table->count;
    memmove(entry, table->entries + table->count * table->entry_size, table->entry_size);
    ++table->generation;
    found = 1;
  }
  pthread_mutex_unlock(&table->mutex);
  return found;
}

tcc_status tcc_address_table_outside(const char *device, const char *function, const void *pointer,
                                     size_t bytes) {
  return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                         "%s device: %s: [%p, +%zu) is not inside memory this device allocated",
                         device, function, pointer, bytes);
}
