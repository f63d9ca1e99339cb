//===- hsaco.c - checks an AMD GPU code object before HIP loads it -----------------------===//
//
// Reads the ELF64 structures by offset and little-endian byte by byte (the layouts of the
// System V ABI's Elf64_Ehdr, Elf64_Phdr, Elf64_Shdr and Elf64_Sym), so that it depends
// neither on <elf.h> nor on the host's byte order or alignment. Every offset and size comes
// from the untrusted image: each range is checked as `offset <= size && length <= size -
// offset` before anything in it is read, which cannot overflow.
//
//===------------------------------------------------------------------------------------===//
#include "hip/hsaco.h"
#include "status_internal.h"

#include <stdint.h>
#include <string.h>

// The values of the ELF specification and of its AMDGPU part (LLVM's
// llvm/BinaryFormat/ELF.h; AMDGPUUsage "ELF Code Object").
enum {
  ELF_HEADER_SIZE = 64,     // sizeof(Elf64_Ehdr)
  PROGRAM_HEADER_SIZE = 56, // sizeof(Elf64_Phdr)
  SECTION_HEADER_SIZE = 64, // sizeof(Elf64_Shdr)
  SYMBOL_SIZE = 24,         // sizeof(Elf64_Sym)
  ELFCLASS64 = 2,
  ELFDATA2LSB = 1,
  ET_DYN = 3,
  EM_AMDGPU = 224,
  ELFOSABI_AMDGPU_HSA = 64,
  ELFABIVERSION_AMDGPU_HSA_V4 = 2, // code object version 4; V5 = 3, V6 = 4
  ELFABIVERSION_AMDGPU_HSA_V6 = 4,
  EF_AMDGPU_MACH = 0x0ff,
  SHT_NULL = 0,
  SHT_STRTAB = 3,
  SHT_NOBITS = 8,
  SHT_DYNSYM = 11,
  SHN_UNDEF = 0,
};

/// The AMDGCN chips of EF_AMDGPU_MACH (LLVM 22's llvm/BinaryFormat/ELF.h), by the names that
/// HIP's gcnArchName and code objects' targets use.
static const struct {
  uint32_t machine;
  const char *name;
} chips[] = {
    {0x020, "gfx600"},          {0x021, "gfx601"},          {0x022, "gfx700"},
    {0x023, "gfx701"},          {0x024, "gfx702"},          {0x025, "gfx703"},
    {0x026, "gfx704"},          {0x028, "gfx801"},          {0x029, "gfx802"},
    {0x02a, "gfx803"},          {0x02b, "gfx810"},          {0x02c, "gfx900"},
    {0x02d, "gfx902"},          {0x02e, "gfx904"},          {0x02f, "gfx906"},
    {0x030, "gfx908"},          {0x031, "gfx909"},          {0x032, "gfx90c"},
    {0x033, "gfx1010"},         {0x034, "gfx1011"},         {0x035, "gfx1012"},
    {0x036, "gfx1030"},         {0x037, "gfx1031"},         {0x038, "gfx1032"},
    {0x039, "gfx1033"},         {0x03a, "gfx602"},          {0x03b, "gfx705"},
    {0x03c, "gfx805"},          {0x03d, "gfx1035"},         {0x03e, "gfx1034"},
    {0x03f, "gfx90a"},          {0x041, "gfx1100"},         {0x042, "gfx1013"},
    {0x043, "gfx1150"},         {0x044, "gfx1103"},         {0x045, "gfx1036"},
    {0x046, "gfx1101"},         {0x047, "gfx1102"},         {0x048, "gfx1200"},
    {0x049, "gfx1250"},         {0x04a, "gfx1151"},         {0x04c, "gfx942"},
    {0x04e, "gfx1201"},         {0x04f, "gfx950"},          {0x051, "gfx9-generic"},
    {0x052, "gfx10-1-generic"}, {0x053, "gfx10-3-generic"}, {0x054, "gfx11-generic"},
    {0x055, "gfx1152"},         {0x058, "gfx1153"},         {0x059, "gfx12-generic"},
    {0x05a, "gfx1251"},         {0x05f, "gfx9-4-generic"},
};

const char *tcc_hsaco_chip_name(uint32_t machine) {
  for (size_t i = 0; i < sizeof(chips) / sizeof(chips[0]); ++i)
    if (chips[i].machine == machine)
      return chips[i].name;
  return NULL;
}

static uint16_t read16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }

static uint32_t read32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t read64(const unsigned char *p) {
  return (uint64_t)read32(p) | (uint64_t)read32(p + 4) << 32;
}

/// Whether [offset, offset + length) lies within `size` bytes.
static int within(uint64_t offset, uint64_t length, uint64_t size) {
  return offset <= size && length <= size - offset;
}

/// Checks a table of `count` entries of `entry_size` bytes (at least `minimum`) at `offset`.
static tcc_status check_table(const char *what, uint64_t offset, uint16_t entry_size,
                              uint16_t count, unsigned minimum, uint64_t size) {
  if (count == 0)
    return NULL;
  if (entry_size < minimum)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "its %s table has entries of %u bytes, expected at least %u", what,
                           (unsigned)entry_size, minimum);
  uint64_t extent = (uint64_t)entry_size * count; // at most 2^32: no overflow
  if (!within(offset, extent, size))
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "its %s table (%u entries of %u bytes at offset %llu) ends past its "
                           "%llu bytes",
                           what, (unsigned)count, (unsigned)entry_size, (unsigned long long)offset,
                           (unsigned long long)size);
  return NULL;
}

/// Checks the ELF header: identification, type, machine, OS ABI and version.
static tcc_status check_header(const unsigned char *bytes, size_t size) {
  if (size < ELF_HEADER_SIZE)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "it has %zu bytes, fewer than the %d of an ELF header", size,
                           ELF_HEADER_SIZE);
  if (memcmp(bytes, "\177ELF", 4) != 0)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL, "it does not start with the ELF magic");
  if (bytes[4] != ELFCLASS64 || bytes[5] != ELFDATA2LSB)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "it is an ELF file of class %u and data encoding %u, expected a 64-bit "
                           "(2) little-endian (1) one",
                           (unsigned)bytes[4], (unsigned)bytes[5]);
  uint16_t machine = read16(bytes + 0x12);
  if (machine != EM_AMDGPU)
    return tcc_make_status(TCC_STATUS_INCOMPATIBLE,
                           "it is an ELF file for machine %u, expected EM_AMDGPU (%d)",
                           (unsigned)machine, EM_AMDGPU);
  if (bytes[7] != ELFOSABI_AMDGPU_HSA)
    return tcc_make_status(TCC_STATUS_INCOMPATIBLE,
                           "it has the OS ABI %u, expected ELFOSABI_AMDGPU_HSA (%d)",
                           (unsigned)bytes[7], ELFOSABI_AMDGPU_HSA);
  if (bytes[8] < ELFABIVERSION_AMDGPU_HSA_V4 || bytes[8] > ELFABIVERSION_AMDGPU_HSA_V6)
    return tcc_make_status(TCC_STATUS_INCOMPATIBLE,
                           "it is a code object of version %d (ABI version %u), expected "
                           "version 4 to 6 (ABI version %d to %d)",
                           bytes[8] + 2, (unsigned)bytes[8], ELFABIVERSION_AMDGPU_HSA_V4,
                           ELFABIVERSION_AMDGPU_HSA_V6);
  uint16_t type = read16(bytes + 0x10);
  if (type != ET_DYN)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "it has the ELF type %u, expected a shared object (ET_DYN, %d)",
                           (unsigned)type, ET_DYN);
  return NULL;
}

tcc_status tcc_hsaco_inspect(const void *data, size_t size, tcc_hsaco_info *out) {
  if (!data || !out)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "tcc_hsaco_inspect: %s is null",
                           data ? "out" : "data");
  const unsigned char *bytes = data;
  tcc_status status = check_header(bytes, size);
  if (status)
    return status;

  // The program headers and the segments they load.
  uint64_t program_offset = read64(bytes + 0x20);
  uint16_t program_entry_size = read16(bytes + 0x36);
  uint16_t num_programs = read16(bytes + 0x38);
  if ((status = check_table("program header", program_offset, program_entry_size, num_programs,
                            PROGRAM_HEADER_SIZE, size)))
    return status;
  for (uint16_t i = 0; i < num_programs; ++i) {
    const unsigned char *header = bytes + program_offset + (uint64_t)i * program_entry_size;
    uint64_t offset = read64(header + 0x08);
    uint64_t file_size = read64(header + 0x20);
    if (!within(offset, file_size, size))
      return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                             "its segment %u (%llu bytes at offset %llu) ends past its %zu bytes",
                             (unsigned)i, (unsigned long long)file_size, (unsigned long long)offset,
                             size);
  }

  // The section headers and the sections' bytes.
  uint64_t section_offset = read64(bytes + 0x28);
  uint16_t section_entry_size = read16(bytes + 0x3a);
  uint16_t num_sections = read16(bytes + 0x3c);
  if ((status = check_table("section header", section_offset, section_entry_size, num_sections,
                            SECTION_HEADER_SIZE, size)))
    return status;
  const unsigned char *dynsym = NULL;
  for (uint16_t i = 0; i < num_sections; ++i) {
    const unsigned char *header = bytes + section_offset + (uint64_t)i * section_entry_size;
    uint32_t type = read32(header + 0x04);
    uint64_t offset = read64(header + 0x18);
    uint64_t section_size = read64(header + 0x20);
    if (type != SHT_NULL && type != SHT_NOBITS && !within(offset, section_size, size))
      return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                             "its section %u (%llu bytes at offset %llu) ends past its %zu bytes",
                             (unsigned)i, (unsigned long long)section_size,
                             (unsigned long long)offset, size);
    if (type == SHT_DYNSYM && !dynsym)
      dynsym = header;
  }
  if (!dynsym)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "it has no dynamic symbol table (a section of type SHT_DYNSYM), where "
                           "a code object has its kernel descriptors");

  // The dynamic symbols and the string table of their names (sh_link).
  uint64_t symbol_size = read64(dynsym + 0x38);
  if (symbol_size != SYMBOL_SIZE)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "its dynamic symbols have %llu bytes each, expected %d",
                           (unsigned long long)symbol_size, SYMBOL_SIZE);
  uint32_t link = read32(dynsym + 0x28);
  const unsigned char *strings =
      link < num_sections ? bytes + section_offset + (uint64_t)link * section_entry_size : NULL;
  if (!strings || read32(strings + 0x04) != SHT_STRTAB)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "its dynamic symbol table links to section %u, which is not a string "
                           "table",
                           (unsigned)link);
  out->chip = tcc_hsaco_chip_name(read32(bytes + 0x30) & EF_AMDGPU_MACH);
  out->machine = read32(bytes + 0x30) & EF_AMDGPU_MACH;
  out->version = bytes[8] + 2;
  out->image = bytes;
  out->symbols_offset = read64(dynsym + 0x18);
  out->symbol_size = symbol_size;
  out->num_symbols = read64(dynsym + 0x20) / symbol_size;
  out->strings_offset = read64(strings + 0x18);
  out->strings_size = read64(strings + 0x20);
  return NULL;
}

int tcc_hsaco_has_kernel(const tcc_hsaco_info *info, const char *kernel) {
  if (!info || !info->image || !kernel)
    return 0;
  size_t length = strlen(kernel);
  const unsigned char *strings = info->image + info->strings_offset;
  for (uint64_t i = 0; i < info->num_symbols; ++i) {
    // In bounds: tcc_hsaco_inspect checked that both tables lie within the image.
    const unsigned char *symbol = info->image + info->symbols_offset + i * info->symbol_size;
    uint64_t name = read32(symbol);
    uint16_t section = read16(symbol + 6);
    // "<kernel>.kd" and its NUL, inside the string table.
    if (section == SHN_UNDEF || !within(name, (uint64_t)length + 4, info->strings_size))
      continue;
    const unsigned char *text = strings + name;
    if (memcmp(text, kernel, length) == 0 && memcmp(text + length, ".kd", 3) == 0 &&
        text[length + 3] == '\0')
      return 1;
  }
  return 0;
}

tcc_status tcc_hsaco_check_image(const tcc_model_descriptor *d, const tcc_device_image *image) {
  if (!image->data || image->size <= 0 || (uint64_t)image->size > SIZE_MAX)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "the %.24s HSACO image has %lld bytes and %s data", image->arch,
                           (long long)image->size, image->data ? "non-null" : "null");
  tcc_hsaco_info info;
  tcc_status status = tcc_hsaco_inspect(image->data, (size_t)image->size, &info);
  if (status)
    return tcc_annotate_status(status,
                               "the %.24s HSACO image (%lld bytes) is not a code object HIP can "
                               "load",
                               image->arch, (long long)image->size);
  if (info.chip && strcmp(info.chip, image->arch) != 0)
    return tcc_make_status(TCC_STATUS_INCOMPATIBLE,
                           "the %.24s HSACO image (%lld bytes) is a code object for %s (e_flags "
                           "machine 0x%03x), not for %.24s",
                           image->arch, (long long)image->size, info.chip, (unsigned)info.machine,
                           image->arch);
  for (int32_t k = 0; k < d->num_device_kernels; ++k)
    if (!tcc_hsaco_has_kernel(&info, d->device_kernel_names[k]))
      return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                             "the %.24s HSACO image has no kernel %d '%s' (no kernel descriptor "
                             "symbol '%s.kd' in its .dynsym)",
                             image->arch, (int)k, d->device_kernel_names[k],
                             d->device_kernel_names[k]);
  return NULL;
}
