//===- MatrixUnits.cpp - NVIDIA's tensor-core instructions for block tiles --------------===//
//
// mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 (sm_80+): a word holds two bf16 of
// the reduction, the lower-indexed one in the low half, each rounded to nearest even (one
// cvt.rn.bf16x2.f32 a word); the f16 form likewise (cvt.rn.f16x2.f32: float32 beyond
// +-65504 becomes +-inf, as a cast to half does); mma.sync.aligned.m16n8k8.row.col.f32.
// tf32.tf32.f32: a word holds one tf32, float32 rounded to 10 mantissa bits, ties away from
// zero (as cvt.rna.tf32.f32). All have the fragment layout MatrixTiles.h describes.
//
//===----------------------------------------------------------------------------------===//
#include "NvidiaTarget.h"

#include "../GPU/MatrixTiles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace {

Value constantI32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
}

/// Two bf16 or f16 (rounded to nearest even) in one word, values[0] in the low half: the
/// instruction's first operand goes to the high half.
template <typename Convert>
Value packHalves(OpBuilder &b, Location loc, ValueRange values, Type half) {
  Value pair = Convert::create(b, loc, VectorType::get({2}, half), values[1], values[0],
                               /*random_bits=*/Value(), NVVM::FPRoundingMode::RN,
                               NVVM::SaturationMode::NONE, /*relu=*/false);
  return LLVM::BitcastOp::create(b, loc, b.getI32Type(), pair);
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
  registry.insert<NVVM::NVVMDialect, LLVM::LLVMDialect, memref::MemRefDialect>();
}

/// ldmatrix.sync.aligned.m8n8.x4.shared.b16: the lane's row address in workgroup memory
/// (the tile's aligned pointer plus the row's offset), four words back. The words are moved,
/// not read as 16-bit values, so it serves tf32 words as well.
SmallVector<Value> loadMatrices(OpBuilder &b, Location loc, Value tile, ValueRange indices) {
  auto type = cast<MemRefType>(tile.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  (void)type.getStridesAndOffset(strides, offset);
  // In bytes from the aligned pointer, so that constant parts fold into the address.
  int64_t bytes = type.getElementTypeBitWidth() / 8;
  Value address = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, tile);
  if (offset != 0)
    address = arith::AddIOp::create(b, loc, address,
                                    arith::ConstantIndexOp::create(b, loc, offset * bytes));
  for (auto [index, stride] : llvm::zip(indices, strides))
    address = arith::AddIOp::create(
        b, loc, address,
        arith::MulIOp::create(b, loc, index,
                              arith::ConstantIndexOp::create(b, loc, stride * bytes)));
  auto shared = LLVM::LLVMPointerType::get(b.getContext(), /*addressSpace=*/3);
  Value pointer = LLVM::IntToPtrOp::create(
      b, loc, shared, ValueRange{arith::IndexCastOp::create(b, loc, b.getI64Type(), address)});
  Type i32 = b.getI32Type();
  auto result = LLVM::LLVMStructType::getLiteral(b.getContext(), {i32, i32, i32, i32});
  Value words = NVVM::LdMatrixOp::create(
      b, loc, result, pointer, b.getI32IntegerAttr(4),
      NVVM::MMALayoutAttr::get(b.getContext(), NVVM::MMALayout::row),
      NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
      NVVM::LdStMatrixEltTypeAttr::get(b.getContext(), NVVM::LdStMatrixEltType::B16));
  SmallVector<Value> values;
  for (int64_t i = 0; i < 4; ++i)
    values.push_back(LLVM::ExtractValueOp::create(b, loc, words, i));
  return values;
}

/// The m16n8k16 unit of a 16-bit input type: two inputs a word, fragments by ldmatrix.
template <typename Convert>
tcc::gpu::MatrixUnit halvesUnit(Type (*half)(MLIRContext *), NVVM::MMATypes type) {
  return {2, nvvmDialects,
          [half](OpBuilder &b, Location loc, ValueRange values) {
            return packHalves<Convert>(b, loc, values, half(b.getContext()));
          },
          [half, type](OpBuilder &b, Location loc, ValueRange a, ValueRange bWords, ValueRange c) {
            // The f16 form takes its words as pairs of halves; bf16's as words.
            auto operands = [&](ValueRange words) {
              SmallVector<Value> values(words.begin(), words.end());
              if (type == NVVM::MMATypes::f16)
                for (Value &word : values)
                  word = LLVM::BitcastOp::create(b, loc, VectorType::get({2}, half(b.getContext())),
                                                 word);
              return values;
            };
            return multiply(b, loc, operands(a), operands(bWords), c, type, 16);
          },
          loadMatrices};
}

Type bf16Type(MLIRContext *context) { return BFloat16Type::get(context); }
Type f16Type(MLIRContext *context) { return Float16Type::get(context); }

} // namespace

void tcc::registerNvidiaMatrixUnits() {
  tcc::gpu::registerMatrixUnit(
      "nvidia-bf16", halvesUnit<NVVM::ConvertF32x2ToBF16x2Op>(bf16Type, NVVM::MMATypes::bf16));
  tcc::gpu::registerMatrixUnit(
      "nvidia-fp16", halvesUnit<NVVM::ConvertF32x2ToF16x2Op>(f16Type, NVVM::MMATypes::f16));
  tcc::gpu::registerMatrixUnit(
      "nvidia-tf32",
      {1, nvvmDialects, packTf32,
       [](OpBuilder &b, Location loc, ValueRange a, ValueRange bWords, ValueRange c) {
         return multiply(b, loc, a, bWords, c, NVVM::MMATypes::tf32, 8);
       },
       loadMatrices});
}
