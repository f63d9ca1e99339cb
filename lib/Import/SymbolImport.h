//===- SymbolImport.h - ONNX dim_param names -> prim.symbol ----------------*- C++ -*-===//
//
// Internal to the importer. Every dim of a graph input is either static or an affine
// expression over the module's symbols. A dim_param is a name ("batch"), an expression over
// names ("2*s0", "s1//2 + 1"), or anything else, which becomes one opaque symbol. Settings
// from `tcc --dim` fix a name to a value (the dim becomes static) or give it a range.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_IMPORT_SYMBOLIMPORT_H
#define TCC_LIB_IMPORT_SYMBOLIMPORT_H

#include "tcc/Import/Importer.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <optional>
#include <string>
#include <vector>

namespace tcc::import {

/// Parses a dim_param expression: integer constants, names, `+ - *`, floor division
/// (`//` or `/`), `%`, unary minus and parentheses. `resolve` gives each name's expression.
/// Returns nullopt for anything else, including non-affine products and divisions, and
/// expressions whose coefficients could overflow.
std::optional<mlir::AffineExpr>
parseDimExpression(llvm::StringRef text, mlir::MLIRContext *context,
                   llvm::function_ref<mlir::AffineExpr(llvm::StringRef)> resolve);

/// The symbols of one module, numbered in order of first use.
class DimSymbols {
public:
  DimSymbols(mlir::MLIRContext &context, const ImportOptions &options);

  /// Checks every setting's range (min >= 0, max >= min).
  mlir::LogicalResult verifySettingRanges(mlir::Location loc) const;
  /// Checks that every setting names a dim of the graph inputs (call after binding them).
  mlir::LogicalResult verifySettingNames(mlir::Location loc) const;

  /// The extent of a graph-input dim written as `dimParam`: a constant when the settings
  /// fix it, else an expression over symbol positions (registering new symbols).
  mlir::AffineExpr bindDimParam(llvm::StringRef dimParam);
  /// Lets the symbol of `key` be 0 (a sequence's length and size) unless a setting gives its
  /// range.
  void allowZero(llvm::StringRef key);
  /// The same for the symbol at `position` (the dims of an optional input's value, which
  /// are 0 when it is empty at run time).
  void allowZeroAt(unsigned position);
  /// A new anonymous symbol, for an input dim with neither a value nor a name.
  mlir::AffineExpr bindFreshSymbol();
  /// For dims that are hints only (graph outputs, subgraph inputs): the value when the
  /// settings make `dimParam` a constant. Registers nothing.
  std::optional<int64_t> evaluateHint(llvm::StringRef dimParam) const;

  unsigned getNumSymbols() const { return symbols.size(); }
  /// Names every symbol (dim_param names keep theirs; opaque and anonymous ones get unique
  /// sanitized names) and creates its `prim.symbol` at the builder's insertion point.
  void createSymbolOps(mlir::OpBuilder &builder, mlir::Location loc);
  /// The reference to the symbol at `position` (after createSymbolOps).
  mlir::FlatSymbolRefAttr getSymbolRef(unsigned position) const;

private:
  enum class Kind { Named, Opaque, Fresh };
  struct Symbol {
    Kind kind;
    std::string key; ///< the dim_param name or the whole opaque string
    std::string name;
    DimSetting setting;
  };

  /// The expression for `key` (a name or opaque string): its fixed value or its symbol.
  mlir::AffineExpr resolve(llvm::StringRef key, Kind kind);
  const DimSetting *lookupSetting(llvm::StringRef key) const;

  mlir::MLIRContext &context;
  const ImportOptions &options;
  std::vector<Symbol> symbols;
  llvm::StringMap<unsigned> positionOfKey;
  /// Every name (and opaque string) the graph inputs use, in order, for the settings check.
  std::vector<std::string> modelDimNames;
  llvm::StringSet<> modelDimNameSet;
};

} // namespace tcc::import

#endif // TCC_LIB_IMPORT_SYMBOLIMPORT_H
