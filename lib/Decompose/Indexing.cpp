//===- Indexing.cpp - rules (in progress) ---------------------------------------------------===//
#include "RuleFamilies.h"

void tcc::decompose::registerIndexingRules(RuleRegistry &) {}
