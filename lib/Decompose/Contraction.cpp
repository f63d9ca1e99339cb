//===- Contraction.cpp - rules (in progress) ---------------------------------------------------===//
#include "RuleFamilies.h"

void tcc::decompose::registerContractionRules(RuleRegistry &) {}
