//===- hsaco.h - checks an AMD GPU code object before HIP loads it -----------------------===//
//
// An HSA code object (TCC_IMAGE_HSACO) is an ELF64 shared object for EM_AMDGPU whose e_flags
// name the chip it was compiled for and whose dynamic symbol table has, for each kernel K, a
// kernel descriptor symbol "K.kd". HIP's loader trusts the bytes it is given, and a model's
// bytes come from a file the runtime must not trust: tcc_hsaco_inspect checks what a loader
// would read, never reading outside the image, so that the HIP backend can refuse a broken or
// foreign code object with a message that names what is wrong. It needs no GPU.
//
//===------------------------------------------------------------------------------------===//
#ifndef TCC_RUNTIME_HIP_HSACO_H
#define TCC_RUNTIME_HIP_HSACO_H

#include <stddef.h>
#include <stdint.h>

#include "tcc/model_abi.h"
#include "tcc/runtime.h"

#ifdef __cplusplus
extern "C" { // for the unit tests
#endif

/// What tcc_hsaco_inspect found in a code object. It points into the image, which must
/// outlive it.
typedef struct tcc_hsaco_info {
  /// The chip of e_flags' EF_AMDGPU_MACH field as code objects and HIP name it ("gfx942"), or
  /// NULL for a value this runtime does not know (a chip newer than its table).
  const char *chip;
  /// The EF_AMDGPU_MACH field itself (e_flags & 0xff).
  uint32_t machine;
  /// The code object version: 4, 5 or 6 (e_ident[EI_ABIVERSION] 2, 3 or 4).
  int32_t version;
  // The dynamic symbol table and its string table, in bounds (for tcc_hsaco_has_kernel).
  const unsigned char *image;
  uint64_t symbols_offset;
  uint64_t symbol_size;
  uint64_t num_symbols;
  uint64_t strings_offset;
  uint64_t strings_size;
} tcc_hsaco_info;

/// Checks that the `size` bytes at `data` are a code object a loader can read: a 64-bit
/// little-endian ELF shared object for EM_AMDGPU with the AMDGPU HSA OS ABI and code object
/// version 4 to 6, whose program headers, section headers, segments and sections all lie
/// within `size`, and which has a dynamic symbol table (.dynsym) with its string table. On
/// success fills *out. Fails with INVALID_MODEL for bytes that are not such a code object
/// (NULL data or out, too few bytes, a table or section past the end, no .dynsym) and
/// INCOMPATIBLE for a code object of another machine, OS ABI or version; the message says
/// what was expected and what was found, without a prefix. Reads nothing outside
/// [data, data + size). Thread-safe.
tcc_status tcc_hsaco_inspect(const void *data, size_t size, tcc_hsaco_info *out);

/// Whether the code object of `info` defines the kernel descriptor of kernel `kernel`: a
/// symbol "<kernel>.kd" in its dynamic symbol table, defined in one of its sections (0 for a
/// NULL argument). Reads only inside the image. Thread-safe.
int tcc_hsaco_has_kernel(const tcc_hsaco_info *info, const char *kernel);

/// Checks a model's HSACO image as a loader would read it: a code object (tcc_hsaco_inspect),
/// for the chip its arch names (a chip this runtime does not know is left to HIP, which
/// refuses code of another chip), defining the kernel descriptor of every kernel of
/// d->device_kernel_names. Fails with INVALID_MODEL (broken bytes, a kernel missing) or
/// INCOMPATIBLE (another chip, machine or version), the message starting "the <arch> HSACO
/// image". Needs no GPU; reads nothing outside the image. Thread-safe.
tcc_status tcc_hsaco_check_image(const tcc_model_descriptor *d, const tcc_device_image *image);

/// The chip name of an EF_AMDGPU_MACH value ("gfx90a" for 0x03f), NULL for a value this
/// runtime does not know. Static string; thread-safe.
const char *tcc_hsaco_chip_name(uint32_t machine);

#ifdef __cplusplus
}
#endif

#endif // TCC_RUNTIME_HIP_HSACO_H
