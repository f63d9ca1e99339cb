//===- ModelAbi.h - model_abi.h's structs as the compiler writes them ---------*- C++ -*-===//
//
// runtime/include/tcc/model_abi.h is the one source of the contract between a model and the
// runtime. The compiler includes it and describes each struct it writes or reads as a list of
// fields (name, kind); the LLVM types (LLVM IR for packaging, the LLVM dialect for lowering)
// are built from those lists, and static_asserts check every field's offset and every
// struct's size against the C header. The targets are LP64 (x86-64 and AArch64 Linux, arm64
// macOS), as is the compiler's host, so the host's layout of the header is the targets'.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_PACKAGE_MODELABI_H
#define TCC_PACKAGE_MODELABI_H

// The project root is on the compiler's include path; the runtime's headers are not.
#include "runtime/include/tcc/model_abi.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "llvm/IR/DerivedTypes.h"

#include <cstddef>
#include <cstdint>

namespace tcc::abi {

static_assert(sizeof(void *) == 8 && sizeof(int64_t) == 8,
              "the model ABI's layouts are written for LP64 hosts and targets");

/// tcc_model_descriptor.device_type: DLPack's DLDeviceType codes (dlpack.h, which the
/// compiler does not include).
constexpr int32_t kDeviceTypeCPU = 1;
constexpr int32_t kDeviceTypeCUDA = 2;

/// The kinds of field the ABI's structs have (C: int32_t/uint32_t, int64_t, any pointer).
enum class FieldKind : uint8_t { I32, I64, Ptr };

constexpr int64_t sizeOf(FieldKind kind) { return kind == FieldKind::I32 ? 4 : 8; }

/// The offset of field `index` of a struct with `kinds`, with natural alignment.
constexpr int64_t offsetOf(const FieldKind *kinds, int index) {
  int64_t offset = 0;
  for (int i = 0; i <= index; ++i) {
    int64_t size = sizeOf(kinds[i]);
    offset = (offset + size - 1) / size * size;
    if (i < index)
      offset += size;
  }
  return offset;
}

/// The size of a struct with `count` fields of `kinds`: its last field's end, rounded up to
/// the widest field.
constexpr int64_t structSize(const FieldKind *kinds, int count) {
  int64_t end = offsetOf(kinds, count - 1) + sizeOf(kinds[count - 1]);
  int64_t align = 4;
  for (int i = 0; i < count; ++i)
    align = sizeOf(kinds[i]) > align ? sizeOf(kinds[i]) : align;
  return (end + align - 1) / align * align;
}

// (The field lists read best as rows of fields: clang-format leaves them alone.)
// clang-format off
// Each struct's fields in order: X(C member name, FieldKind).
#define TCC_IMPORT_TABLE_FIELDS(X)                                                          \
  X(abi_version, I32) X(size, I32) X(context, Ptr) X(parallel_for, Ptr)                      \
  X(report_error, Ptr) X(set_output_extent, Ptr) X(parameters, Ptr) X(string_format, Ptr)    \
  X(string_parse, Ptr) X(string_change_case, Ptr) X(string_find, Ptr) X(string_equal, Ptr)   \
  X(string_concat, Ptr) X(string_match, Ptr) X(device_launch, Ptr) X(device_constants, Ptr)  \
  X(device_status, Ptr) X(device_read, Ptr) X(profile, Ptr)

#define TCC_MODEL_DESCRIPTOR_FIELDS(X)                                                      \
  X(abi_version, I32) X(size, I32) X(tcc_version, Ptr) X(target_triple, Ptr) X(cpu, Ptr)     \
  X(cpu_features, Ptr) X(num_symbols, I32) X(num_inputs, I32) X(num_outputs, I32)            \
  X(reserved, I32) X(symbols, Ptr) X(inputs, Ptr) X(outputs, Ptr) X(workspace_size, Ptr)     \
  X(output_shapes, Ptr) X(run, Ptr) X(num_parameters, I32) X(reserved2, I32)                 \
  X(parameters, Ptr) X(parameter_offsets, Ptr) X(initial_parameters, Ptr)                    \
  X(parameters_size, I64) X(batch_symbol, I32) X(flags, I32) X(symbol_computed, Ptr)         \
  X(compute_symbols, Ptr) X(device_type, I32) X(num_device_images, I32)                    \
  X(device_images, Ptr) X(num_device_kernels, I32) X(reserved3, I32)                         \
  X(device_kernel_names, Ptr) X(device_constants, Ptr) X(device_constants_size, I64)        \
  X(num_device_check_messages, I32) X(reserved4, I32) X(device_check_messages, Ptr)         \
  X(num_kernels, I32) X(reserved5, I32) X(kernel_names, Ptr) X(kernel_nodes, Ptr)         \
  X(compile_options, Ptr) X(num_sequences, I32) X(reserved6, I32) X(sequences, Ptr)        \
  X(num_optionals, I32) X(reserved7, I32) X(optionals, Ptr)

#define TCC_TENSOR_DESC_FIELDS(X)                                                           \
  X(name, Ptr) X(dtype, I32) X(rank, I32) X(shape, Ptr) X(dim_symbols, Ptr)

#define TCC_SYMBOL_DESC_FIELDS(X) X(name, Ptr) X(min, I64) X(max, I64)

#define TCC_SEQUENCE_DESC_FIELDS(X)                                                         \
  X(name, Ptr) X(is_output, I32) X(shapes_index, I32) X(data_index, I32) X(reserved, I32)

#define TCC_OPTIONAL_DESC_FIELDS(X)                                                         \
  X(name, Ptr) X(is_output, I32) X(present_index, I32) X(first_index, I32) X(count, I32)

#define TCC_DEVICE_IMAGE_FIELDS(X)                                                          \
  X(arch, Ptr) X(format, I32) X(reserved, I32) X(data, Ptr) X(size, I64)

#define TCC_MODEL_VARIANTS_FIELDS(X)                                                        \
  X(abi_version, I32) X(size, I32) X(num_variants, I32) X(reserved, I32) X(variants, Ptr)

// For each struct: an enum of field indices (kImport_<member>, ...), the field kinds, and
// static_asserts of offsets and size against model_abi.h.
#define TCC_ABI_DECLARE_STRUCT(CType, FIELDS, Prefix)                                       \
  enum Prefix##Field : int32_t {                                                             \
    FIELDS(TCC_ABI_ENUM_##Prefix) kNum##Prefix##Fields                                       \
  };                                                                                         \
  constexpr FieldKind k##Prefix##Kinds[] = {FIELDS(TCC_ABI_KIND)};                           \
  static_assert(sizeof(CType) == structSize(k##Prefix##Kinds, kNum##Prefix##Fields),         \
                #CType "'s size differs from its field list");
#define TCC_ABI_KIND(name, kind) FieldKind::kind,
#define TCC_ABI_ENUM_Import(name, kind) kImport_##name,
#define TCC_ABI_ENUM_Descriptor(name, kind) kDescriptor_##name,
#define TCC_ABI_ENUM_Tensor(name, kind) kTensor_##name,
#define TCC_ABI_ENUM_Symbol(name, kind) kSymbol_##name,
#define TCC_ABI_ENUM_Sequence(name, kind) kSequence_##name,
#define TCC_ABI_ENUM_Optional(name, kind) kOptional_##name,
#define TCC_ABI_ENUM_Image(name, kind) kImage_##name,
#define TCC_ABI_ENUM_Variants(name, kind) kVariants_##name,

TCC_ABI_DECLARE_STRUCT(tcc_import_table, TCC_IMPORT_TABLE_FIELDS, Import)
TCC_ABI_DECLARE_STRUCT(tcc_model_descriptor, TCC_MODEL_DESCRIPTOR_FIELDS, Descriptor)
TCC_ABI_DECLARE_STRUCT(tcc_tensor_desc, TCC_TENSOR_DESC_FIELDS, Tensor)
TCC_ABI_DECLARE_STRUCT(tcc_symbol_desc, TCC_SYMBOL_DESC_FIELDS, Symbol)
TCC_ABI_DECLARE_STRUCT(tcc_sequence_desc, TCC_SEQUENCE_DESC_FIELDS, Sequence)
TCC_ABI_DECLARE_STRUCT(tcc_optional_desc, TCC_OPTIONAL_DESC_FIELDS, Optional)
TCC_ABI_DECLARE_STRUCT(tcc_device_image, TCC_DEVICE_IMAGE_FIELDS, Image)
TCC_ABI_DECLARE_STRUCT(tcc_model_variants, TCC_MODEL_VARIANTS_FIELDS, Variants)

#define TCC_ABI_CHECK_OFFSET(CType, Prefix, name)                                           \
  static_assert(offsetof(CType, name) == offsetOf(k##Prefix##Kinds, k##Prefix##_##name),     \
                #CType "." #name "'s offset differs from its field list");
#define TCC_ABI_CHECK_Import(name, kind) TCC_ABI_CHECK_OFFSET(tcc_import_table, Import, name)
#define TCC_ABI_CHECK_Descriptor(name, kind)                                                \
  TCC_ABI_CHECK_OFFSET(tcc_model_descriptor, Descriptor, name)
#define TCC_ABI_CHECK_Tensor(name, kind) TCC_ABI_CHECK_OFFSET(tcc_tensor_desc, Tensor, name)
#define TCC_ABI_CHECK_Symbol(name, kind) TCC_ABI_CHECK_OFFSET(tcc_symbol_desc, Symbol, name)
#define TCC_ABI_CHECK_Sequence(name, kind)                                                  \
  TCC_ABI_CHECK_OFFSET(tcc_sequence_desc, Sequence, name)
#define TCC_ABI_CHECK_Optional(name, kind)                                                  \
  TCC_ABI_CHECK_OFFSET(tcc_optional_desc, Optional, name)
#define TCC_ABI_CHECK_Image(name, kind) TCC_ABI_CHECK_OFFSET(tcc_device_image, Image, name)
#define TCC_ABI_CHECK_Variants(name, kind)                                                  \
  TCC_ABI_CHECK_OFFSET(tcc_model_variants, Variants, name)
TCC_IMPORT_TABLE_FIELDS(TCC_ABI_CHECK_Import)
TCC_MODEL_DESCRIPTOR_FIELDS(TCC_ABI_CHECK_Descriptor)
TCC_TENSOR_DESC_FIELDS(TCC_ABI_CHECK_Tensor)
TCC_SYMBOL_DESC_FIELDS(TCC_ABI_CHECK_Symbol)
TCC_SEQUENCE_DESC_FIELDS(TCC_ABI_CHECK_Sequence)
TCC_OPTIONAL_DESC_FIELDS(TCC_ABI_CHECK_Optional)
TCC_DEVICE_IMAGE_FIELDS(TCC_ABI_CHECK_Image)
TCC_MODEL_VARIANTS_FIELDS(TCC_ABI_CHECK_Variants)

// clang-format on

// The sizes of earlier releases, which the header records, end where the fields say.
static_assert(TCC_IMPORT_TABLE_V1_SIZE == offsetOf(kImportKinds, kImport_string_format));
static_assert(TCC_MODEL_DESCRIPTOR_V1_SIZE == offsetOf(kDescriptorKinds, kDescriptor_batch_symbol));
static_assert(TCC_MODEL_DESCRIPTOR_V2_SIZE ==
              offsetOf(kDescriptorKinds, kDescriptor_symbol_computed));
static_assert(TCC_MODEL_DESCRIPTOR_V3_SIZE == offsetOf(kDescriptorKinds, kDescriptor_device_type));
static_assert(TCC_MODEL_DESCRIPTOR_V5_SIZE ==
              offsetOf(kDescriptorKinds, kDescriptor_num_sequences));
static_assert(TCC_MODEL_DESCRIPTOR_V6_SIZE ==
              offsetOf(kDescriptorKinds, kDescriptor_num_optionals));
static_assert(TCC_IMPORT_TABLE_V2_SIZE == offsetOf(kImportKinds, kImport_device_launch));
static_assert(TCC_IMPORT_TABLE_V3_SIZE == offsetOf(kImportKinds, kImport_device_read));

/// The bytes of `table` up to the end of field `field`: what an import table's `size` must
/// reach for a model to use that field.
constexpr int64_t importTableSizeThrough(ImportField field) {
  return offsetOf(kImportKinds, field) + sizeOf(kImportKinds[field]);
}

/// The LLVM IR struct type of a field list (or of its first fields, for a struct written at
/// an earlier version's size).
inline llvm::StructType *llvmStructType(llvm::LLVMContext &context,
                                        llvm::ArrayRef<FieldKind> kinds) {
  llvm::SmallVector<llvm::Type *> fields;
  for (FieldKind kind : kinds)
    fields.push_back(kind == FieldKind::Ptr
                         ? static_cast<llvm::Type *>(llvm::PointerType::getUnqual(context))
                         : llvm::Type::getIntNTy(context, 8 * sizeOf(kind)));
  return llvm::StructType::get(context, fields);
}

/// The LLVM-dialect struct type of a field list.
template <size_t N>
mlir::LLVM::LLVMStructType llvmDialectStructType(mlir::MLIRContext *context,
                                                 const FieldKind (&kinds)[N]) {
  llvm::SmallVector<mlir::Type, N> fields;
  for (FieldKind kind : kinds)
    fields.push_back(kind == FieldKind::I32 ? mlir::Type(mlir::IntegerType::get(context, 32))
                     : kind == FieldKind::I64
                         ? mlir::Type(mlir::IntegerType::get(context, 64))
                         : mlir::Type(mlir::LLVM::LLVMPointerType::get(context)));
  return mlir::LLVM::LLVMStructType::getLiteral(context, fields);
}

} // namespace tcc::abi

#endif // TCC_PACKAGE_MODELABI_H
