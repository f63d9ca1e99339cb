//===- msl_image.h - the kernels of a Metal Shading Language image --------------------===//
//
// A TCC_IMAGE_MSL image (model_abi.h) is NUL-terminated text in which each kernel is a
// translation unit of its own, after a line TCC_MSL_KERNEL_MARKER "<name> <function>". The
// Metal backend compiles each unit on its own; the model loader checks, on every platform,
// that the image has a unit for every kernel of the model. Portable C: no Metal here.
//
//===------------------------------------------------------------------------------------===//
#ifndef TCC_RUNTIME_METAL_MSL_IMAGE_H
#define TCC_RUNTIME_METAL_MSL_IMAGE_H

#include <stddef.h>

#include "tcc/model_abi.h"
#include "tcc/runtime.h"

#ifdef __cplusplus
extern "C" { // for the unit tests
#endif

/// One kernel's unit in an MSL image: pointers into the image's text, which must outlive it;
/// none of the three is NUL-terminated.
typedef struct tcc_msl_unit {
  const char *name; /// the kernel's name in the model (device_kernel_names)
  size_t name_size;
  const char *function; /// the MSL kernel function the unit defines
  size_t function_size;
  const char *source; /// the unit's text, after its marker line up to the next marker line
  size_t source_size;
} tcc_msl_unit;

/// Reads the unit whose marker line starts at or after *cursor (an offset into `text`, whose
/// first `length` bytes are the text without its NUL) into *out and moves *cursor past it.
/// Returns 1 when a unit was read, 0 when no marker line is left, and -1 when the marker line
/// found is malformed (no space, an empty name, or a function name that is not an identifier
/// of ASCII letters, digits and underscores); *cursor then points at that line.
int tcc_msl_next_unit(const char *text, size_t length, size_t *cursor, tcc_msl_unit *out);

/// Checks an MSL image of the device model `d` (its size validated, NUL-terminated): every
/// marker line is well formed, no kernel has two units, and every kernel of
/// device_kernel_names has one. Fails with INVALID_MODEL naming the kernel or the line (no
/// prefix: the caller says which image). Reads nothing outside the image.
tcc_status tcc_msl_check_image(const tcc_model_descriptor *d, const tcc_device_image *image);

#ifdef __cplusplus
}
#endif

#endif // TCC_RUNTIME_METAL_MSL_IMAGE_H
