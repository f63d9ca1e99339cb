//===- dtype_internal.h - dtype helpers shared inside the runtime -----------------------===//
#ifndef TCC_RUNTIME_DTYPE_INTERNAL_H
#define TCC_RUNTIME_DTYPE_INTERNAL_H

#include <stdio.h>

#include "tcc/runtime.h"

/// kDLBool of DLPack >= 0.8, which DLPack 0.6's header does not define.
#define TCC_DLPACK_BOOL_CODE 6

/// Whether a tensor of DLPack type `type` may be passed where the model expects `dtype`.
int tcc_dtype_accepts_dlpack(int32_t dtype, DLDataType type);

/// Writes a DLPack type as text ("float32", "uint8x4", "code9:16") for error messages.
void tcc_format_dlpack_type(DLDataType type, char *buffer, size_t capacity);

#endif // TCC_RUNTIME_DTYPE_INTERNAL_H
