//===- RuleRegistry.cpp - decomposition rules keyed by (domain, op type, since) -------===//
#include "tcc/Decompose/RuleRegistry.h"

#include "RuleFamilies.h"

#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <utility>
#include <vector>

using namespace tcc::decompose;

llvm::StringRef tcc::decompose::getDomainDisplayName(llvm::StringRef domain) {
  return domain.empty() ? "ai.onnx" : domain;
}

const RuleRegistry &RuleRegistry::get() {
  static const RuleRegistry registry = [] {
    RuleRegistry r;
    registerAllRuleFamilies(r);
    r.finalize();
    return r;
  }();
  return registry;
}

void RuleRegistry::add(llvm::StringRef domain, llvm::StringRef opType, int64_t sinceVersion,
                       RuleFn fn) {
  rules[{domain.str(), opType.str()}].push_back(
      Rule{domain.str(), opType.str(), sinceVersion, fn, kMaxOpset});
}

void RuleRegistry::finalize() {
  for (auto &entry : rules) {
    std::vector<Rule> &list = entry.second;
    std::sort(list.begin(), list.end(),
              [](const Rule &a, const Rule &b) { return a.sinceVersion < b.sinceVersion; });
    for (size_t i = 0; i + 1 < list.size(); ++i)
      list[i].untilVersion = list[i + 1].sinceVersion - 1;
  }
}

namespace {
/// ONNX's versions of each op of the default domain: (version, signature changed).
using SchemaVersions = std::vector<std::pair<int64_t, bool>>;
const llvm::StringMap<SchemaVersions> &getSchemaVersions() {
  static const llvm::StringMap<SchemaVersions> table = [] {
    llvm::StringMap<SchemaVersions> t;
#define TCC_ONNX_OP(name, ...) t[name] = SchemaVersions{__VA_ARGS__};
#include "OnnxSchemaTable.inc"
#undef TCC_ONNX_OP
    return t;
  }();
  return table;
}
} // namespace

const Rule *RuleRegistry::lookup(llvm::StringRef domain, llvm::StringRef opType,
                                 int64_t version, std::string *refusal) const {
  auto it = rules.find({domain.str(), opType.str()});
  if (it == rules.end())
    return nullptr;
  const Rule *best = nullptr;
  for (const Rule &rule : it->second)
    if (rule.sinceVersion <= version && version <= rule.untilVersion)
      best = &rule;
  if (!best || !domain.empty())
    return best;
  // A later version of the op whose signature changed is not covered by an older rule.
  auto schema = getSchemaVersions().find(opType);
  if (schema == getSchemaVersions().end())
    return best;
  for (auto [since, changed] : schema->second)
    if (since > best->sinceVersion && since <= version && since > kReviewedOpset && changed) {
      if (refusal)
        *refusal = "version " + std::to_string(since) + " of " + opType.str() +
                   " changed its inputs or attributes, and tcc's rule covers versions " +
                   std::to_string(best->sinceVersion) + " to " + std::to_string(since - 1);
      return nullptr;
    }
  return best;
}

std::vector<const Rule *> RuleRegistry::getRules(llvm::StringRef domain,
                                                 llvm::StringRef opType) const {
  std::vector<const Rule *> result;
  auto it = rules.find({domain.str(), opType.str()});
  if (it != rules.end())
    for (const Rule &rule : it->second)
      result.push_back(&rule);
  return result;
}

std::vector<std::string> RuleRegistry::getOpTypes(llvm::StringRef domain) const {
  std::vector<std::string> result;
  for (const auto &entry : rules)
    if (entry.first.first == domain)
      result.push_back(entry.first.second);
  return result; // std::map keeps them sorted
}

std::vector<std::string> RuleRegistry::getDomains() const {
  std::vector<std::string> result;
  for (const auto &entry : rules)
    if (result.empty() || result.back() != entry.first.first)
      result.push_back(entry.first.first);
  return result;
}
