//===- gpu_setup.c - what the GPU vendors' driver loaders share ---------------------------===//
#include "gpu/gpu_setup.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void tcc_gpu_setup_fail(tcc_gpu_setup *setup, tcc_status_code code, const char *format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(setup->error, sizeof(setup->error), format, args);
  va_end(args);
  setup->code = code;
}

void tcc_gpu_read_ordinal(const char *variable, int32_t *ordinal, char *error, size_t capacity) {
  const char *value = getenv(variable);
  if (!value || !*value)
    return;
  char *end = NULL;
  long parsed = strtol(value, &end, 10); // LONG_MAX when out of range
  if (value[0] < '0' || value[0] > '9' || *end != '\0' || parsed > INT32_MAX)
    snprintf(error, capacity, "%s is '%.40s', expected a device ordinal (0, 1, ...)", variable,
             value);
  else
    *ordinal = (int32_t)parsed;
}
