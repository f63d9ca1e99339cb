//===- LowerContractions.cpp - (being written) --------------------------------------------===//
#include "LoweringPatterns.h"

void tcc::lower::populateContractionLoweringPatterns(mlir::RewritePatternSet &) {}
