//===- Reduction.cpp - rules (in progress) ---------------------------------------------------===//
#include "RuleFamilies.h"

void tcc::decompose::registerReductionRules(RuleRegistry &) {}
