//===- RuleRegistry.h - decomposition rules keyed by (domain, op type, since) ---*- C++ -*-===//
//
// The one registry of ONNX op knowledge: each rule builds the prim ops for one ONNX op from
// one since-version on. Everything that lists ops (error messages, `tcc --list-ops`, docs)
// reads this registry; there is no second list.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_DECOMPOSE_RULEREGISTRY_H
#define TCC_DECOMPOSE_RULEREGISTRY_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tcc::decompose {

class NodeRewriter;

/// Builds the prim ops of one node before it and records its results in `node`. Returns
/// failure after emitting an error that says what was expected.
using RuleFn = mlir::LogicalResult (*)(NodeRewriter &node);

struct Rule {
  std::string domain; ///< "" for the default ONNX domain
  std::string opType;
  int64_t sinceVersion;
  RuleFn fn;
  /// The last opset this rule covers: one before the next rule's since-version, or the
  /// highest opset tcc supports for the domain.
  int64_t untilVersion;
};

/// The opsets of the default domain tcc accepts. A rule registered at since-version S is
/// trusted up to the next rule of its op: every op change in ONNX up to kReviewedOpset has
/// its own rule (or is only new dtypes, which the rules check). Versions of an op after
/// kReviewedOpset are covered automatically only when ONNX's schema shows the same inputs,
/// outputs and attributes (lib/Decompose/OnnxSchemaTable.inc, from onnx 1.23); otherwise
/// the node is refused, naming the version that changed, until a rule is registered.
constexpr int64_t kMinOpset = 1;
constexpr int64_t kReviewedOpset = 22;
constexpr int64_t kMaxOpset = 28;

class RuleRegistry {
public:
  /// The registry with every rule of every op family, built on first use.
  static const RuleRegistry &get();

  void add(llvm::StringRef domain, llvm::StringRef opType, int64_t sinceVersion, RuleFn fn);

  /// The rule for `opType` at opset `version`: the largest since-version <= version, unless
  /// a version of the op after kReviewedOpset and after that rule changed the operator's
  /// signature; then null, with `refusal` (if given) saying which version changed.
  const Rule *lookup(llvm::StringRef domain, llvm::StringRef opType, int64_t version,
                     std::string *refusal = nullptr) const;

  /// The rules of one op, oldest first (empty if tcc does not know the op).
  std::vector<const Rule *> getRules(llvm::StringRef domain, llvm::StringRef opType) const;

  /// Every op type of `domain` with at least one rule, sorted.
  std::vector<std::string> getOpTypes(llvm::StringRef domain) const;

  /// Every domain with rules, sorted ("" first).
  std::vector<std::string> getDomains() const;

private:
  void finalize();
  std::map<std::pair<std::string, std::string>, std::vector<Rule>> rules;
};

/// "ai.onnx" for the default domain, the domain itself otherwise.
llvm::StringRef getDomainDisplayName(llvm::StringRef domain);

} // namespace tcc::decompose

#endif // TCC_DECOMPOSE_RULEREGISTRY_H
