//===- tcc-opt.cpp - runs tcc's passes one at a time (for lit tests and debugging) ----===//
#include "tcc/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  tcc::registerAllDialects(registry);
  tcc::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tcc optimizer driver\n", registry));
}
