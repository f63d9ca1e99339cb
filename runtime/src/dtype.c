//===- dtype.c - tcc dtypes: names, sizes and their DLPack types ------------------------===//
//
// DLPack 0.6 has no boolean type code. The convention: a TCC_DTYPE_BOOL tensor is
// {kDLUInt, 8, 1}, one byte per element holding 0 or 1 (what NumPy's and PyTorch's exporters
// produced before kDLBool); kDLBool (code 6 since DLPack 0.8) is accepted too.
//
// DLPack has no string type either. A TCC_DTYPE_STRING tensor is {kDLOpaqueHandle, 128, 1}:
// each element is one 16-byte tcc_string {data, size} (model_abi.h), opaque to DLPack.
//
//===------------------------------------------------------------------------------------===//
#include "dtype_internal.h"
#include "status_internal.h"

typedef struct dtype_entry {
  int32_t dtype;
  const char *name;
  uint8_t code;
  uint8_t bits;
} dtype_entry;

static const dtype_entry dtype_table[] = {
    {TCC_DTYPE_FLOAT32, "float32", kDLFloat, 32},  {TCC_DTYPE_UINT8, "uint8", kDLUInt, 8},
    {TCC_DTYPE_INT8, "int8", kDLInt, 8},           {TCC_DTYPE_UINT16, "uint16", kDLUInt, 16},
    {TCC_DTYPE_INT16, "int16", kDLInt, 16},        {TCC_DTYPE_INT32, "int32", kDLInt, 32},
    {TCC_DTYPE_INT64, "int64", kDLInt, 64},        {TCC_DTYPE_BOOL, "bool", kDLUInt, 8},
    {TCC_DTYPE_FLOAT16, "float16", kDLFloat, 16},  {TCC_DTYPE_FLOAT64, "float64", kDLFloat, 64},
    {TCC_DTYPE_UINT32, "uint32", kDLUInt, 32},     {TCC_DTYPE_UINT64, "uint64", kDLUInt, 64},
    {TCC_DTYPE_BFLOAT16, "bfloat16", kDLBfloat, 16},
    {TCC_DTYPE_STRING, "string", kDLOpaqueHandle, 128}, // one tcc_string per element
};

static const dtype_entry *find_dtype(int32_t dtype) {
  for (size_t i = 0; i < sizeof(dtype_table) / sizeof(dtype_table[0]); ++i)
    if (dtype_table[i].dtype == dtype)
      return &dtype_table[i];
  return NULL;
}

const char *tcc_dtype_name(int32_t dtype) {
  const dtype_entry *entry = find_dtype(dtype);
  return entry ? entry->name : "unknown";
}

size_t tcc_dtype_size(int32_t dtype) {
  const dtype_entry *entry = find_dtype(dtype);
  return entry ? entry->bits / 8u : 0u;
}

tcc_status tcc_dtype_to_dlpack(int32_t dtype, DLDataType *out_type) {
  if (!out_type)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "tcc_dtype_to_dlpack: out_type is null");
  const dtype_entry *entry = find_dtype(dtype);
  if (!entry)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "tcc_dtype_to_dlpack: unknown dtype %d", (int)dtype);
  out_type->code = entry->code;
  out_type->bits = entry->bits;
  out_type->lanes = 1;
  return NULL;
}

tcc_status tcc_dtype_from_dlpack(DLDataType type, int32_t *out_dtype) {
  if (!out_dtype)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "tcc_dtype_from_dlpack: out_dtype is null");
  if (type.lanes == 1) {
    if (type.code == TCC_DLPACK_BOOL_CODE && type.bits == 8) {
      *out_dtype = TCC_DTYPE_BOOL;
      return NULL;
    }
    // The table lists uint8 before bool, so {kDLUInt, 8} reads as uint8.
    for (size_t i = 0; i < sizeof(dtype_table) / sizeof(dtype_table[0]); ++i) {
      if (dtype_table[i].code == type.code && dtype_table[i].bits == type.bits) {
        *out_dtype = dtype_table[i].dtype;
        return NULL;
      }
    }
  }
  char text[48];
  tcc_format_dlpack_type(type, text, sizeof(text));
  return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                         "tcc_dtype_from_dlpack: no tcc dtype for the DLPack type %s", text);
}

int tcc_dtype_accepts_dlpack(int32_t dtype, DLDataType type) {
  const dtype_entry *entry = find_dtype(dtype);
  if (!entry || type.lanes != 1)
    return 0;
  if (dtype == TCC_DTYPE_BOOL && type.code == TCC_DLPACK_BOOL_CODE && type.bits == 8)
    return 1;
  return type.code == entry->code && type.bits == entry->bits;
}

void tcc_format_dlpack_type(DLDataType type, char *buffer, size_t capacity) {
  const char *kind;
  switch (type.code) {
  case kDLInt:
    kind = "int";
    break;
  case kDLUInt:
    kind = "uint";
    break;
  case kDLFloat:
    kind = "float";
    break;
  case kDLBfloat:
    kind = "bfloat";
    break;
  case kDLComplex:
    kind = "complex";
    break;
  case TCC_DLPACK_BOOL_CODE:
    kind = "bool";
    break;
  case kDLOpaqueHandle:
    kind = "opaque";
    break;
  default:
    kind = NULL;
    break;
  }
  int written = kind ? snprintf(buffer, capacity, "%s%u", kind, (unsigned)type.bits)
                     : snprintf(buffer, capacity, "code%u:%u", (unsigned)type.code,
                                (unsigned)type.bits);
  if (type.lanes != 1 && written >= 0 && (size_t)written < capacity)
    snprintf(buffer + written, capacity - (size_t)written, "x%u", (unsigned)type.lanes);
}
