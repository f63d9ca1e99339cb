//===- LowerDataMovement.cpp - (being written) --------------------------------------------===//
#include "LoweringPatterns.h"

void tcc::lower::populateDataMovementLoweringPatterns(mlir::RewritePatternSet &) {}
