//===- DtypeTest.cpp - dtype names, sizes and DLPack types ------------------------------===//
#include "RuntimeTestUtils.h"

using namespace tcc_test;

namespace {
struct DtypeCase {
  int32_t dtype;
  const char *name;
  size_t size;
  uint8_t code;
  uint8_t bits;
};
const DtypeCase kDtypes[] = {
    {TCC_DTYPE_FLOAT32, "float32", 4, kDLFloat, 32}, {TCC_DTYPE_UINT8, "uint8", 1, kDLUInt, 8},
    {TCC_DTYPE_INT8, "int8", 1, kDLInt, 8},          {TCC_DTYPE_UINT16, "uint16", 2, kDLUInt, 16},
    {TCC_DTYPE_INT16, "int16", 2, kDLInt, 16},       {TCC_DTYPE_INT32, "int32", 4, kDLInt, 32},
    {TCC_DTYPE_INT64, "int64", 8, kDLInt, 64},       {TCC_DTYPE_BOOL, "bool", 1, kDLUInt, 8},
    {TCC_DTYPE_FLOAT16, "float16", 2, kDLFloat, 16}, {TCC_DTYPE_FLOAT64, "float64", 8, kDLFloat, 64},
    {TCC_DTYPE_UINT32, "uint32", 4, kDLUInt, 32},    {TCC_DTYPE_UINT64, "uint64", 8, kDLUInt, 64},
    {TCC_DTYPE_BFLOAT16, "bfloat16", 2, kDLBfloat, 16},
    // One tcc_string {data, size} per element, opaque to DLPack.
    {TCC_DTYPE_STRING, "string", 16, kDLOpaqueHandle, 128},
};
} // namespace

TEST_CASE("dtype names and sizes", "[dtype]") {
  for (const DtypeCase &c : kDtypes) {
    INFO(c.name);
    CHECK(std::string(tcc_dtype_name(c.dtype)) == c.name);
    CHECK(tcc_dtype_size(c.dtype) == c.size);
  }
  CHECK(std::string(tcc_dtype_name(0)) == "unknown");
  CHECK(std::string(tcc_dtype_name(14)) == "unknown"); // ONNX COMPLEX64
  CHECK(tcc_dtype_size(TCC_DTYPE_STRING) == sizeof(tcc_string));
  CHECK(tcc_dtype_size(0) == 0);
  CHECK(tcc_dtype_size(-1) == 0);
}

TEST_CASE("dtypes map to DLPack types, bool is uint8, string is opaque", "[dtype]") {
  for (const DtypeCase &c : kDtypes) {
    INFO(c.name);
    DLDataType type{};
    REQUIRE_OK(tcc_dtype_to_dlpack(c.dtype, &type));
    CHECK(type.code == c.code);
    CHECK(type.bits == c.bits);
    CHECK(type.lanes == 1);
  }
  DLDataType type{};
  requireError(tcc_dtype_to_dlpack(42, &type), TCC_STATUS_INVALID_ARGUMENT,
               {"tcc_dtype_to_dlpack", "unknown dtype 42"});
  requireError(tcc_dtype_to_dlpack(TCC_DTYPE_FLOAT32, nullptr), TCC_STATUS_INVALID_ARGUMENT,
               {"out_type is null"});
}

TEST_CASE("DLPack types map back to dtypes", "[dtype]") {
  for (const DtypeCase &c : kDtypes) {
    if (c.dtype == TCC_DTYPE_BOOL)
      continue; // {kDLUInt, 8} reads as uint8
    INFO(c.name);
    int32_t dtype = 0;
    REQUIRE_OK(tcc_dtype_from_dlpack(DLDataType{c.code, c.bits, 1}, &dtype));
    CHECK(dtype == c.dtype);
  }
  int32_t dtype = 0;
  REQUIRE_OK(tcc_dtype_from_dlpack(kUInt8, &dtype));
  CHECK(dtype == TCC_DTYPE_UINT8);
  REQUIRE_OK(tcc_dtype_from_dlpack(DLDataType{6, 8, 1}, &dtype)); // kDLBool of DLPack >= 0.8
  CHECK(dtype == TCC_DTYPE_BOOL);
}

TEST_CASE("DLPack types without a dtype are errors", "[dtype]") {
  int32_t dtype = 0;
  requireError(tcc_dtype_from_dlpack(DLDataType{kDLFloat, 32, 4}, &dtype),
               TCC_STATUS_INVALID_ARGUMENT, {"tcc_dtype_from_dlpack", "float32x4"});
  requireError(tcc_dtype_from_dlpack(DLDataType{kDLComplex, 64, 1}, &dtype),
               TCC_STATUS_INVALID_ARGUMENT, {"complex64"});
  requireError(tcc_dtype_from_dlpack(DLDataType{kDLInt, 4, 1}, &dtype),
               TCC_STATUS_INVALID_ARGUMENT, {"int4"});
  requireError(tcc_dtype_from_dlpack(DLDataType{kDLOpaqueHandle, 64, 1}, &dtype),
               TCC_STATUS_INVALID_ARGUMENT, {"opaque64"});
  requireError(tcc_dtype_from_dlpack(DLDataType{99, 16, 1}, &dtype),
               TCC_STATUS_INVALID_ARGUMENT, {"code99:16"});
  requireError(tcc_dtype_from_dlpack(kFloat32, nullptr), TCC_STATUS_INVALID_ARGUMENT,
               {"out_dtype is null"});
}
