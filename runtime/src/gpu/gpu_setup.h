//===- gpu_setup.h - what the GPU vendors' driver loaders share ---------------------------===//
//
// cuda_driver.c and hip_driver.c each load their driver once per process (under
// pthread_once) and remember why it cannot be used; the GPU's ordinal comes from an
// environment variable ($TCC_CUDA_DEVICE, $TCC_HIP_DEVICE). These are the pieces they share.
//
//===------------------------------------------------------------------------------------===//
#ifndef TCC_RUNTIME_GPU_SETUP_H
#define TCC_RUNTIME_GPU_SETUP_H

#include <stddef.h>
#include <stdint.h>

#include "tcc/runtime.h"

/// The outcome of loading a driver: TCC_STATUS_OK once it and the GPU are ready, else the
/// status code and why (without the "<device> device: <function>:" prefix of messages).
typedef struct tcc_gpu_setup {
  tcc_status_code code;
  char error[640];
} tcc_gpu_setup;

/// Records why the driver cannot be used (printf-style).
__attribute__((format(printf, 3, 4))) void
tcc_gpu_setup_fail(tcc_gpu_setup *setup, tcc_status_code code, const char *format, ...);

/// Reads the environment variable `variable` as a device ordinal into *ordinal (left as it is
/// when the variable is unset or empty); a value that is not one ("x", "-1", past INT32_MAX)
/// leaves *ordinal and writes "<variable> is '<value>', expected a device ordinal (0, 1,
/// ...)" into `error` (else `error` is left as it is).
void tcc_gpu_read_ordinal(const char *variable, int32_t *ordinal, char *error, size_t capacity);

#endif // TCC_RUNTIME_GPU_SETUP_H
