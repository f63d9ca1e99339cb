//===- Convolution.cpp - rules (in progress) ---------------------------------------------------===//
#include "RuleFamilies.h"

void tcc::decompose::registerConvolutionRules(RuleRegistry &) {}
