//===- ThreadArguments.cpp - a value of @main passed down to the functions that need it ---===//
#include "ThreadArguments.h"

#include "mlir/IR/SymbolTable.h"

using namespace mlir;

LogicalResult tcc::gpu::threadArgument(ModuleOp module, llvm::SetVector<func::FuncOp> &needing,
                                       Type type, ArgumentPosition position, DictionaryAttr attrs,
                                       bool onlyMain) {
  MLIRContext *ctx = module.getContext();
  SymbolTableCollection symbols;
  SymbolUserMap users(symbols, module);
  for (size_t k = 0; k < needing.size(); ++k) {
    func::FuncOp f = needing[k]; // a copy: SetVector hands out const references
    for (Operation *user : users.getUsers(f)) {
      auto call = dyn_cast<func::CallOp>(user);
      if (!call)
        return user->emitError() << "a GPU model's function @" << f.getSymName()
                                 << " needs a value of the run but is used by '" << user->getName()
                                 << "', not called";
      needing.insert(call->getParentOfType<func::FuncOp>());
    }
  }
  for (func::FuncOp f : needing) {
    unsigned index = position == ArgumentPosition::First ? 0 : f.getNumArguments();
    DictionaryAttr given =
        attrs && (!onlyMain || f.getName() == "main") ? attrs : DictionaryAttr::get(ctx);
    if (failed(f.insertArgument(index, type, given, f.getLoc())))
      return f.emitError() << "internal error: cannot add an argument of type " << type;
  }
  for (func::FuncOp f : needing)
    for (Operation *user : users.getUsers(f)) {
      auto call = cast<func::CallOp>(user);
      Value passed = threadedArgument(call->getParentOfType<func::FuncOp>(), position);
      call->insertOperands(position == ArgumentPosition::First ? 0 : call.getNumOperands(), passed);
    }
  return success();
}
