//===- Evaluator.h - the prim reference evaluator -------------------------------*- C++ -*-===//
//
// A straightforward interpreter of prim functions: the test oracle for decomposition rules
// and the one evaluator for compile-time weight transforms. Clarity over speed.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_EVALUATE_EVALUATOR_H
#define TCC_EVALUATE_EVALUATOR_H

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir {
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace tcc::eval {

/// A host tensor: element type, shape and the elements' bytes in row-major order, each
/// element in its type's natural little-endian layout (i1 as one byte holding 0 or 1).
struct Tensor {
  mlir::Type elementType;
  llvm::SmallVector<int64_t> shape;
  std::vector<uint8_t> bytes;
  /// The elements of a string tensor (elementType `!prim.string`), whose `bytes` are empty.
  std::vector<std::string> strings;

  int64_t getNumElements() const;
  /// Element `i` as a double (integers converted; i64 beyond 2^53 loses precision).
  double getDouble(int64_t i) const;
  /// Element `i` as an integer (sign- or zero-extended per the element type).
  int64_t getInt(int64_t i) const;
  /// Stores `v` into element `i`, rounding to the element type (float types only; an
  /// integer type gets `v` truncated toward zero and saturated, NaN as 0).
  void setDouble(int64_t i, double v);
  /// Stores `v` into element `i`, wrapping to the element type's width (integer types only;
  /// a float type gets `v` rounded to nearest even).
  void setInt(int64_t i, int64_t v);

  /// A zero-filled tensor.
  static Tensor zeros(mlir::Type elementType, llvm::ArrayRef<int64_t> shape);
};

/// The bytes per element of a supported element type (i1 counts as 1), 0 for strings (whose
/// elements are in Tensor::strings) and for an unsupported type.
int64_t getElementByteSize(mlir::Type elementType);

/// True for the element types the evaluator computes with: f16 bf16 f32 f64, i1, signless,
/// signed and unsigned integers of 8, 16, 32 and 64 bits, index (as i64), and `!prim.string`.
bool isSupportedElementType(mlir::Type elementType);

/// Prints `tensor` as `tensor<2x3xf32> = [[1.0, 2.0, 3.0], [...]]`: its actual shape, then its
/// elements nested one bracket level per dim (floats with the fewest digits that read back to
/// the same value, i1 as true/false).
void printTensor(llvm::raw_ostream &os, const Tensor &tensor);

/// Prints only the elements of `tensor`, as printTensor does after the `=`.
void printTensorElements(llvm::raw_ostream &os, const Tensor &tensor);

/// Converts a dense or dense_resource attribute into a tensor.
llvm::Expected<Tensor> tensorFromAttr(mlir::ElementsAttr attr);

/// Runs `func` on `inputs`, one per argument (checked against the argument types, `?`
/// matching any extent). Returns one tensor per result (index/scalar results as 0-d
/// tensors), or an error naming the op and its location for: a failed `prim.check`, an index
/// out of range, an unsupported op or type.
llvm::Expected<std::vector<Tensor>> evaluateFunction(mlir::func::FuncOp func,
                                                     llvm::ArrayRef<Tensor> inputs);

} // namespace tcc::eval

#endif // TCC_EVALUATE_EVALUATOR_H
