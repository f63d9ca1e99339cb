//===- Npy.h - NumPy .npy files <-> host tensors --------------------------------*- C++ -*-===//
#ifndef TCC_EVALUATE_NPY_H
#define TCC_EVALUATE_NPY_H

#include "tcc/Evaluate/Evaluator.h"

#include "llvm/Support/Error.h"

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace tcc::eval {

/// Reads a .npy file (format 1.0-3.0, little-endian, C order; dtypes f2 f4 f8 i1-i8 u1-u8
/// b1, and strings: '<U{n}' (UTF-32, converted to UTF-8) and '|S{n}' (bytes), trailing NULs
/// cut, as `!prim.string` tensors with their elements in Tensor::strings). Malformed or
/// hostile files give an error, never an out-of-bounds read.
llvm::Expected<Tensor> readNpy(llvm::StringRef path, mlir::MLIRContext &context);

/// Writes `tensor` as a .npy file (format 1.0). A string tensor is written as '<U{n}' (n the
/// most code points of an element, at least 1), or as '|S{n}' when an element is not UTF-8.
llvm::Error writeNpy(llvm::StringRef path, const Tensor &tensor);

} // namespace tcc::eval

#endif // TCC_EVALUATE_NPY_H
