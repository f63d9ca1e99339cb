//===- KernelDialect.h - the `kernel` dialect: kernels and their launches -----*- C++ -*-===//
#ifndef TCC_DIALECTS_KERNEL_KERNELDIALECT_H
#define TCC_DIALECTS_KERNEL_KERNELDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

#include <string>

#include "dialects/kernel/KernelDialect.h.inc"
#include "dialects/kernel/KernelEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/kernel/KernelAttrs.h.inc"

#define GET_OP_CLASSES
#include "dialects/kernel/KernelOps.h.inc"

namespace tcc::kernel {

/// The `kernel.kernel` attribute of a kernel function; null for any other operation.
KernelAttr getKernelAttr(mlir::Operation *function);

/// Whether `function` is a kernel (carries `kernel.kernel`).
inline bool isKernel(mlir::Operation *function) { return bool(getKernelAttr(function)); }

/// Marks `function` as a kernel.
void setKernelAttr(mlir::Operation *function, KernelAttr attr);

/// The module's run-time check messages (`kernel.check_messages`), in status-code order.
mlir::ArrayAttr getCheckMessages(mlir::ModuleOp module);

/// Sets the module's run-time check messages.
void setCheckMessages(mlir::ModuleOp module, llvm::ArrayRef<mlir::Attribute> messages);

/// Records on `module` (`kernel.kernel_nodes`) the ONNX nodes of each of its kernel
/// functions, in graph order, so that they can be named after the target lowered the kernels.
void recordKernelNodes(mlir::ModuleOp module);

/// The ONNX nodes of kernel `name` as recorded by recordKernelNodes, separated by ", ": the
/// entry of `name`, else of the longest recorded kernel whose name and "_" begin `name` (a
/// device kernel made from it: "kernel_3_relu_kernel_1"); "" when there is none.
std::string kernelNodesOf(mlir::ModuleOp module, llvm::StringRef name);

/// Registers the bufferization of `kernel.attention` (KernelBufferization.cpp).
void registerBufferizableOpInterfaceExternalModels(mlir::DialectRegistry &registry);

} // namespace tcc::kernel

#endif // TCC_DIALECTS_KERNEL_KERNELDIALECT_H
