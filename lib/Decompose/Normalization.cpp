//===- Normalization.cpp - rules (in progress) ---------------------------------------------------===//
#include "RuleFamilies.h"

void tcc::decompose::registerNormalizationRules(RuleRegistry &) {}
