//===- msl_image.c - the kernels of a Metal Shading Language image --------------------===//
#include "metal/msl_image.h"

#include "status_internal.h"

#include <string.h>

/// Whether the line at text[at] (of the first `length` bytes) starts with the marker.
static int is_marker_line(const char *text, size_t length, size_t at) {
  size_t marker = sizeof(TCC_MSL_KERNEL_MARKER) - 1;
  return (at == 0 || text[at - 1] == '\n') && length - at >= marker &&
         memcmp(text + at, TCC_MSL_KERNEL_MARKER, marker) == 0;
}

/// The offset of the next marker line at or after `from`; `length` when there is none.
static size_t find_marker_line(const char *text, size_t length, size_t from) {
  for (size_t at = from; at < length; ++at) {
    if (is_marker_line(text, length, at))
      return at;
    const char *newline = memchr(text + at, '\n', length - at);
    if (!newline)
      return length;
    at = (size_t)(newline - text); // the loop's ++at moves to the next line's start
  }
  return length;
}

static int is_identifier(const char *name, size_t size) {
  if (size == 0 || (name[0] >= '0' && name[0] <= '9'))
    return 0;
  for (size_t i = 0; i < size; ++i) {
    char c = name[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
      return 0;
  }
  return 1;
}

int tcc_msl_next_unit(const char *text, size_t length, size_t *cursor, tcc_msl_unit *out) {
  size_t at = find_marker_line(text, length, *cursor);
  if (at >= length)
    return 0;
  *cursor = at;
  size_t start = at + sizeof(TCC_MSL_KERNEL_MARKER) - 1;
  const char *newline = memchr(text + start, '\n', length - start);
  size_t end = newline ? (size_t)(newline - text) : length;
  const char *space = memchr(text + start, ' ', end - start);
  if (!space || space == text + start)
    return -1;
  size_t name_size = (size_t)(space - (text + start));
  const char *function = space + 1;
  size_t function_size = (size_t)(text + end - function);
  if (!is_identifier(function, function_size))
    return -1;
  size_t source = newline ? end + 1 : length;
  size_t next = find_marker_line(text, length, source);
  out->name = text + start;
  out->name_size = name_size;
  out->function = function;
  out->function_size = function_size;
  out->source = text + source;
  out->source_size = next - source;
  *cursor = next;
  return 1;
}

/// The line number (from 1) of offset `at`, for messages.
static size_t line_of(const char *text, size_t at) {
  size_t line = 1;
  for (size_t i = 0; i < at; ++i)
    line += text[i] == '\n';
  return line;
}

tcc_status tcc_msl_check_image(const tcc_model_descriptor *d, const tcc_device_image *image) {
  const char *text = image->data;
  size_t length = strnlen(text, (size_t)image->size);
  int32_t count = d->num_device_kernels;
  // Which kernels have a unit; a model has at most 65536 kernels (model_device.c).
  unsigned char seen[65536 / 8];
  memset(seen, 0, sizeof(seen));
  size_t cursor = 0;
  tcc_msl_unit unit;
  int read;
  while ((read = tcc_msl_next_unit(text, length, &cursor, &unit)) == 1) {
    int32_t k = 0;
    while (k < count && !(strlen(d->device_kernel_names[k]) == unit.name_size &&
                          memcmp(d->device_kernel_names[k], unit.name, unit.name_size) == 0))
      ++k;
    if (k == count)
      continue; // a unit of no kernel of the model is not used
    if (seen[k / 8] & (1u << (k % 8)))
      return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                             "the MSL image has two units of kernel '%s' (the second at line "
                             "%zu)",
                             d->device_kernel_names[k], line_of(text, (size_t)(unit.name - text)));
    seen[k / 8] |= (unsigned char)(1u << (k % 8));
  }
  if (read < 0)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "line %zu of the MSL image starts with '" TCC_MSL_KERNEL_MARKER
                           "' but is not '" TCC_MSL_KERNEL_MARKER "<kernel> <function>' (a "
                           "function name of letters, digits and '_')",
                           line_of(text, cursor));
  for (int32_t k = 0; k < count; ++k)
    if (!(seen[k / 8] & (1u << (k % 8))))
      return tcc_make_status(
          TCC_STATUS_INVALID_MODEL,
          "the MSL image has no unit of kernel '%s' (a line '" TCC_MSL_KERNEL_MARKER
          "%s <function>')",
          d->device_kernel_names[k], d->device_kernel_names[k]);
  return NULL;
}
