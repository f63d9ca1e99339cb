//===- LowerReductions.cpp - (being written) --------------------------------------------===//
#include "LoweringPatterns.h"

void tcc::lower::populateReductionLoweringPatterns(mlir::RewritePatternSet &) {}
