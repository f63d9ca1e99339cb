//===- SymbolImport.cpp - ONNX dim_param names and expressions -> prim.symbol ----------===//
#include "SymbolImport.h"

#include "Names.h"

#include "dialects/prim/PrimDialect.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace mlir;
using namespace tcc;
using namespace tcc::import;

namespace {

/// Coefficients and constants stay below this, so that MLIR's folding of affine
/// expressions cannot overflow int64.
constexpr uint64_t kMaxMagnitude = uint64_t(1) << 62;
/// Parentheses and unary minus nest at most this deep.
constexpr unsigned kMaxDepth = 64;

uint64_t magnitude(int64_t value) {
  return value < 0 ? uint64_t(0) - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
}

bool isNameStart(char c) { return llvm::isAlpha(c) || c == '_'; }
bool isNameChar(char c) { return llvm::isAlnum(c) || c == '_' || c == '.' || c == '$'; }

/// An expression with a bound on the magnitude of its coefficients and constant.
struct Term {
  AffineExpr expr;
  uint64_t bound = 0;
};

class DimExpressionParser {
public:
  DimExpressionParser(StringRef text, MLIRContext *context,
                      function_ref<AffineExpr(StringRef)> resolve)
      : text(text), context(context), resolve(resolve) {}

  std::optional<AffineExpr> parse() {
    Term term;
    if (!parseSum(term, 0))
      return std::nullopt;
    skipSpace();
    if (pos != text.size())
      return std::nullopt;
    return term.expr;
  }

private:
  void skipSpace() {
    while (pos < text.size() && llvm::isSpace(text[pos]))
      ++pos;
  }
  bool consume(StringRef token) {
    skipSpace();
    if (!text.substr(pos).starts_with(token))
      return false;
    pos += token.size();
    return true;
  }

  bool parseSum(Term &out, unsigned depth) {
    if (!parseProduct(out, depth))
      return false;
    while (true) {
      bool isAdd;
      if (consume("+"))
        isAdd = true;
      else if (consume("-"))
        isAdd = false;
      else
        return true;
      Term rhs;
      if (!parseProduct(rhs, depth))
        return false;
      out.bound += rhs.bound;
      if (out.bound > kMaxMagnitude)
        return false;
      out.expr = isAdd ? out.expr + rhs.expr : out.expr - rhs.expr;
    }
  }

  bool parseProduct(Term &out, unsigned depth) {
    if (!parseUnary(out, depth))
      return false;
    while (true) {
      enum class Op { Mul, FloorDiv, Mod } op;
      if (consume("//") || consume("/"))
        op = Op::FloorDiv;
      else if (consume("*"))
        op = Op::Mul;
      else if (consume("%"))
        op = Op::Mod;
      else
        return true;
      Term rhs;
      if (!parseUnary(rhs, depth))
        return false;
      auto rhsConstant = dyn_cast<AffineConstantExpr>(rhs.expr);
      if (op == Op::Mul) {
        auto lhsConstant = dyn_cast<AffineConstantExpr>(out.expr);
        if (!lhsConstant && !rhsConstant)
          return false; // a product of two symbols is not affine
        uint64_t factor = rhsConstant ? rhs.bound : out.bound;
        uint64_t other = rhsConstant ? out.bound : rhs.bound;
        if (factor != 0 && other > kMaxMagnitude / factor)
          return false;
        out.bound = factor * other;
        out.expr = out.expr * rhs.expr;
        continue;
      }
      if (!rhsConstant || rhsConstant.getValue() <= 0)
        return false; // affine division needs a positive constant divisor
      out.expr = op == Op::FloorDiv ? out.expr.floorDiv(rhsConstant.getValue())
                                    : out.expr % rhsConstant.getValue();
      out.bound = std::max(out.bound, rhs.bound);
    }
  }

  bool parseUnary(Term &out, unsigned depth) {
    if (depth > kMaxDepth)
      return false;
    if (consume("-")) {
      if (!parseUnary(out, depth + 1))
        return false;
      out.expr = -out.expr;
      return true;
    }
    return parsePrimary(out, depth);
  }

  bool parsePrimary(Term &out, unsigned depth) {
    skipSpace();
    if (pos >= text.size())
      return false;
    char c = text[pos];
    if (c == '(') {
      ++pos;
      return parseSum(out, depth + 1) && consume(")");
    }
    if (llvm::isDigit(c)) {
      uint64_t value = 0;
      for (; pos < text.size() && llvm::isDigit(text[pos]); ++pos) {
        value = value * 10 + static_cast<uint64_t>(text[pos] - '0');
        if (value > kMaxMagnitude)
          return false;
      }
      out = {getAffineConstantExpr(static_cast<int64_t>(value), context), value};
      return true;
    }
    if (!isNameStart(c))
      return false;
    size_t start = pos;
    while (pos < text.size() && isNameChar(text[pos]))
      ++pos;
    out.expr = resolve(text.slice(start, pos));
    auto constant = dyn_cast<AffineConstantExpr>(out.expr);
    out.bound = constant ? magnitude(constant.getValue()) : 1;
    return out.bound <= kMaxMagnitude;
  }

  StringRef text;
  size_t pos = 0;
  MLIRContext *context;
  function_ref<AffineExpr(StringRef)> resolve;
};

/// A symbol name from an arbitrary dim_param: MLIR identifier characters only.
std::string sanitize(StringRef text) {
  std::string name;
  for (char c : text)
    name.push_back(isNameChar(c) ? c : '_');
  if (name.empty() || !isNameStart(name[0]))
    name.insert(name.begin(), '_');
  return name;
}

} // namespace

std::optional<AffineExpr>
tcc::import::parseDimExpression(StringRef text, MLIRContext *context,
                                function_ref<AffineExpr(StringRef)> resolve) {
  return DimExpressionParser(text, context, resolve).parse();
}

DimSymbols::DimSymbols(MLIRContext &context, const ImportOptions &options)
    : context(context), options(options) {}

const DimSetting *DimSymbols::lookupSetting(StringRef key) const {
  auto it = options.dims.find(key);
  return it == options.dims.end() ? nullptr : &it->second;
}

LogicalResult DimSymbols::verifySettingRanges(Location loc) const {
  // Sorted, so that the first error reported does not depend on hashing.
  SmallVector<StringRef> keys(options.dims.keys());
  llvm::sort(keys);
  for (StringRef key : keys) {
    const DimSetting &setting = options.dims.find(key)->second;
    if (setting.min < 0)
      return emitError(loc) << "dim setting for '" << key << "' has min " << setting.min
                            << "; expected a value >= 0";
    if (setting.max && *setting.max < setting.min)
      return emitError(loc) << "dim setting for '" << key << "' has max " << *setting.max
                            << " below its min " << setting.min;
  }
  return success();
}

LogicalResult DimSymbols::verifySettingNames(Location loc) const {
  SmallVector<StringRef> unknown;
  for (StringRef key : options.dims.keys())
    if (!modelDimNameSet.contains(key))
      unknown.push_back(key);
  if (unknown.empty())
    return success();
  llvm::sort(unknown);
  InFlightDiagnostic diag = emitError(loc);
  diag << (unknown.size() == 1 ? "unknown dim name " : "unknown dim names ");
  llvm::interleaveComma(unknown, diag, [&](StringRef key) { diag << quoted(key); });
  diag << " in the dim settings; ";
  if (modelDimNames.empty())
    return diag << "the model's inputs have no named dims";
  diag << "the model's dims are ";
  llvm::interleaveComma(modelDimNames, diag,
                        [&](const std::string &name) { diag << quoted(name); });
  return diag;
}

AffineExpr DimSymbols::resolve(StringRef key, Kind kind) {
  if (modelDimNameSet.insert(key).second)
    modelDimNames.push_back(key.str());
  const DimSetting *setting = lookupSetting(key);
  if (setting && setting->isFixed())
    return getAffineConstantExpr(setting->min, &context);
  auto [it, inserted] = positionOfKey.try_emplace(key, symbols.size());
  if (inserted)
    symbols.push_back({kind, key.str(), "", setting ? *setting : DimSetting()});
  return getAffineSymbolExpr(it->second, &context);
}

AffineExpr DimSymbols::bindDimParam(StringRef dimParam) {
  // A trial parse with placeholder symbols first, so that a string that turns out not to
  // be an expression registers none of its names.
  llvm::StringMap<unsigned> placeholders;
  auto placeholder = [&](StringRef name) -> AffineExpr {
    const DimSetting *setting = lookupSetting(name);
    if (setting && setting->isFixed())
      return getAffineConstantExpr(setting->min, &context);
    unsigned position = placeholders.try_emplace(name, placeholders.size()).first->second;
    return getAffineSymbolExpr(position, &context);
  };
  if (!parseDimExpression(dimParam, &context, placeholder))
    return resolve(dimParam, Kind::Opaque);
  std::optional<AffineExpr> expr = parseDimExpression(
      dimParam, &context, [&](StringRef name) { return resolve(name, Kind::Named); });
  return expr ? *expr : resolve(dimParam, Kind::Opaque);
}

void DimSymbols::allowZero(StringRef key) {
  auto it = positionOfKey.find(key);
  if (it != positionOfKey.end() && !lookupSetting(key))
    symbols[it->second].setting.min = 0;
}

void DimSymbols::allowZeroAt(unsigned position) {
  if (position < symbols.size() && !lookupSetting(symbols[position].key))
    symbols[position].setting.min = 0;
}

AffineExpr DimSymbols::bindFreshSymbol() {
  symbols.push_back({Kind::Fresh, "", "", DimSetting()});
  return getAffineSymbolExpr(symbols.size() - 1, &context);
}

std::optional<int64_t> DimSymbols::evaluateHint(StringRef dimParam) const {
  if (const DimSetting *setting = lookupSetting(dimParam); setting && setting->isFixed())
    return setting->min;
  unsigned nextPlaceholder = 0;
  std::optional<AffineExpr> expr =
      parseDimExpression(dimParam, &context, [&](StringRef name) -> AffineExpr {
        const DimSetting *setting = lookupSetting(name);
        if (setting && setting->isFixed())
          return getAffineConstantExpr(setting->min, &context);
        return getAffineSymbolExpr(nextPlaceholder++, &context);
      });
  if (!expr)
    return std::nullopt;
  if (auto constant = dyn_cast<AffineConstantExpr>(*expr))
    return constant.getValue();
  return std::nullopt;
}

void DimSymbols::createSymbolOps(OpBuilder &builder, Location loc) {
  // `main` is the graph's function, in the same symbol table.
  llvm::StringSet<> taken;
  taken.insert("main");
  auto claim = [&](std::string base) {
    std::string name = base;
    for (unsigned suffix = 1; taken.contains(name); ++suffix)
      name = base + "_" + std::to_string(suffix);
    taken.insert(name);
    return name;
  };
  // dim_param names keep their spelling; the others take what is left.
  for (Symbol &symbol : symbols)
    if (symbol.kind == Kind::Named)
      symbol.name = claim(symbol.key);
  unsigned nextFresh = 0;
  for (Symbol &symbol : symbols) {
    if (symbol.kind == Kind::Opaque) {
      symbol.name = claim(sanitize(symbol.key));
    } else if (symbol.kind == Kind::Fresh) {
      while (taken.contains("unk" + std::to_string(nextFresh)))
        ++nextFresh;
      symbol.name = claim("unk" + std::to_string(nextFresh++));
    }
  }
  for (const Symbol &symbol : symbols) {
    IntegerAttr max =
        symbol.setting.max ? builder.getI64IntegerAttr(*symbol.setting.max) : IntegerAttr();
    prim::SymbolOp::create(builder, loc, symbol.name, static_cast<uint64_t>(symbol.setting.min),
                           max, /*divisor=*/1);
  }
}

FlatSymbolRefAttr DimSymbols::getSymbolRef(unsigned position) const {
  return FlatSymbolRefAttr::get(&context, symbols[position].name);
}
