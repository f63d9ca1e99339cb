//===- Pooling.cpp - rules (in progress) ---------------------------------------------------===//
#include "RuleFamilies.h"

void tcc::decompose::registerPoolingRules(RuleRegistry &) {}
