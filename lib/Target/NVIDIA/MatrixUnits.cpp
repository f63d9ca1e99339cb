//===- MatrixUnits.cpp - NVIDIA's tensor-core instructions for block tiles --------------===//
//
// mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 (sm_80+): a word holds two bf16 of
// the reduction, the lower-indexed one in the low half, each rounded to nearest even
// (cvt.rn.bf16.f32); mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32: a word holds one
// tf32, float32 rounded to 10 mantissa bits, ties away from zero (as cvt.rna.tf32.f32).
// Both have the fragment layout MatrixTiles.h describes.
//
//===----------------------------------------------------------------------------------===//
#include "NvidiaTarget.h"

#include "../GPU/MatrixTiles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;

namespace {

Value constantI32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
}

/// Two bf16 (rounded to nearest even) in one word, values[0] in the low half.
Value packBf16(OpBuilder &b, Location loc, ValueRange values) {
  Value word;
  for (auto [k, v] : llvm::enumerate(values)) {
    Value half = arith::TruncFOp::create(b, loc, b.getBF16Type(), v);
    Value bits = arith::BitcastOp::create(b, loc, b.getI16Type(), half);
    Value wide = arith::ExtUIOp::create(b, loc, b.getI32Type(), bits);
    if (k > 0)
      wide = arith::ShLIOp::create(b, loc, wide, constantI32(b, loc, 16 * k));
    word = word ? arith::OrIOp::create(b, loc, word, wide).getResult() : wide;
  }
  return word;
}

/// One tf32: the float32's bits rounded at bit 13, ties away from zero, the low 13 cleared.
Value packTf32(OpBuilder &b, Location loc, ValueRange values) {
  Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), values[0]);
  Value rounded = arith::AddIOp::create(b, loc, bits, constantI32(b, loc, 0x1000));
  return arith::AndIOp::create(b, loc, rounded,
                               constantI32(b, loc, static_cast<int32_t>(0xFFFFE000)));
}

SmallVector<Value> multiply(OpBuilder &b, Location loc, ValueRange a, ValueRange bWords,
                            ValueRange c, NVVM::MMATypes type, int64_t k) {
  Type f32 = b.getF32Type();
  auto result = LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});
  Value d = NVVM::MmaOp::create(
      b, loc, result, a, bWords, c, {16, 8, k}, std::nullopt, std::nullopt,
      std::array<NVVM::MMATypes, 2>{type, type},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row, NVVM::MMALayout::col});
  SmallVector<Value> values;
  for (int64_t i = 0; i < 4; ++i)
    values.push_back(LLVM::ExtractValueOp::create(b, loc, d, i));
  return values;
}

void nvvmDialects(DialectRegistry &registry) {
  registry.insert<NVVM::NVVMDialect, LLVM::LLVMDialect>();
}

} // namespace

void tcc::registerNvidiaMatrixUnits() {
  tcc::gpu::registerMatrixUnit(
      "nvidia-bf16",
      {2, nvvmDialects, packBf16,
       [](OpBuilder &b, Location loc, ValueRange a, ValueRange bWords, ValueRange c) {
         return multiply(b, loc, a, bWords, c, NVVM::MMATypes::bf16, 16);
       }});
  tcc::gpu::registerMatrixUnit(
      "nvidia-tf32",
      {1, nvvmDialects, packTf32,
       [](OpBuilder &b, Location loc, ValueRange a, ValueRange bWords, ValueRange c) {
         return multiply(b, loc, a, bWords, c, NVVM::MMATypes::tf32, 8);
       }});
}
