//===- AddressTableTest.cpp - the GPU backends' table of allocations by device address ----===//
#include "RuntimeTestUtils.h"

extern "C" {
#include "gpu/address_table.h"
}

#include <cstdint>

using namespace tcc_test;

namespace {

/// An entry as a backend declares one: the range first, then its own fields.
struct Entry {
  tcc_address_range range;
  int handle;
};

Entry entry(uint64_t address, uint64_t size, int handle) {
  return Entry{{address, size, reinterpret_cast<void *>(address + 16)}, handle};
}

} // namespace

TEST_CASE("the address table finds the allocation a range lies in", "[device][address-table]") {
  tcc_address_table table = TCC_ADDRESS_TABLE_INIT(Entry);
  Entry a = entry(0x10000, 256, 1), b = entry(0x20000, 64, 2);
  REQUIRE(tcc_address_table_add(&table, &a) == 0);
  REQUIRE(tcc_address_table_add(&table, &b) == 0);
  CHECK(table.count == 2);
  Entry found{};
  REQUIRE(tcc_address_table_find(&table, 0x10000, 256, &found));
  CHECK(found.handle == 1);
  REQUIRE(tcc_address_table_find(&table, 0x100ff, 1, &found));
  CHECK(found.handle == 1);
  REQUIRE(tcc_address_table_find(&table, 0x20010, 48, &found));
  CHECK(found.handle == 2);
  // An empty range at the end is inside; one byte past it, or a range running off the end,
  // or one whose end wraps around, is not.
  CHECK(tcc_address_table_find(&table, 0x10100, 0, &found));
  CHECK_FALSE(tcc_address_table_find(&table, 0x10100, 1, &found));
  CHECK_FALSE(tcc_address_table_find(&table, 0x100f0, 32, &found));
  CHECK_FALSE(tcc_address_table_find(&table, 0x10010, SIZE_MAX, &found));
  CHECK_FALSE(tcc_address_table_find(&table, 0xffff, 2, &found));
  CHECK_FALSE(tcc_address_table_find(&table, 0x30000, 1, &found));
  free(table.entries);
}

TEST_CASE("the address table removes by the pointer allocate returned, and grows",
          "[device][address-table]") {
  tcc_address_table table = TCC_ADDRESS_TABLE_INIT(Entry);
  // Past the first 64 entries the table grows; every entry stays findable.
  for (int k = 0; k < 200; ++k) {
    Entry e = entry(0x100000 + 0x1000 * static_cast<uint64_t>(k), 0x800, k);
    REQUIRE(tcc_address_table_add(&table, &e) == 0);
  }
  CHECK(table.count == 200);
  CHECK(table.capacity >= 200);
  uint64_t generation = table.generation;
  Entry removed{};
  REQUIRE(tcc_address_table_remove(&table, reinterpret_cast<void *>(0x100000 + 0x1000 * 7 + 16),
                                   &removed));
  CHECK(removed.handle == 7);
  CHECK(table.count == 199);
  CHECK(table.generation == generation + 1);
  // Gone, and not removed twice; the others are all still there.
  Entry found{};
  CHECK_FALSE(tcc_address_table_find(&table, 0x100000 + 0x1000 * 7, 1, &found));
  CHECK_FALSE(tcc_address_table_remove(&table, reinterpret_cast<void *>(0x100000 + 0x1000 * 7 + 16),
                                       &removed));
  CHECK(table.generation == generation + 1);
  for (int k = 0; k < 200; ++k) {
    bool present =
        tcc_address_table_find(&table, 0x100000 + 0x1000 * static_cast<uint64_t>(k) + 1, 8, &found);
    CHECK(present == (k != 7));
    if (present)
      CHECK(found.handle == k);
  }
  free(table.entries);
}

TEST_CASE("an address outside the table is the caller's error, naming the device",
          "[device][address-table]") {
  int local = 0;
  requireError(tcc_address_table_outside("vulkan", "copy", &local, 4), TCC_STATUS_INVALID_ARGUMENT,
               {"vulkan device: copy: [", ", +4) is not inside memory this device allocated"});
}
