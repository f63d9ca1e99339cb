//===- EntryPoints.cpp - the descriptor's functions around the translated host code -----===//
//
// model_abi.h's entry points, written in LLVM IR around the functions the host code was
// translated into: workspace_size and output_shapes (load the symbol values, call
// @workspace_size / @output_shapes), run (the import table and symbol values, a raw-buffer
// memref descriptor per input, output, parameter buffer and workspace for @main; a failed
// check's status becomes report_error's message), compute_symbols (@data_symbols), and
// @main's data-dependent extents routed to the import table's set_output_extent.
//
//===----------------------------------------------------------------------------------===//
#include "EntryPoints.h"

#include "IRBuilding.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace tcc;
using namespace tcc::package;
namespace abi = tcc::abi;

namespace {

/// Routes @main's calls of `tcc_report_output_extent(output, dim, extent)` (written by
/// tcc-entry-signature for data-dependent output dims) to
/// imports->set_output_extent(context, output, dim, extent), when the table has it.
void routeOutputExtents(llvm::Module &module, llvm::Function &main) {
  llvm::Function *declared = module.getFunction("tcc_report_output_extent");
  if (!declared)
    return;
  llvm::LLVMContext &context = module.getContext();
  auto *ptr = llvm::PointerType::getUnqual(context);
  auto *i32 = llvm::Type::getInt32Ty(context), *i64 = llvm::Type::getInt64Ty(context);
  auto *voidType = llvm::Type::getVoidTy(context);
  auto *helper =
      llvm::Function::Create(llvm::FunctionType::get(voidType, {ptr, i64, i64, i64}, false),
                             llvm::GlobalValue::InternalLinkage, "tcc_set_output_extent", module);
  llvm::IRBuilder<> ir(context);
  auto *entry = llvm::BasicBlock::Create(context, "entry", helper);
  auto *check = llvm::BasicBlock::Create(context, "check", helper);
  auto *call = llvm::BasicBlock::Create(context, "call", helper);
  auto *done = llvm::BasicBlock::Create(context, "done", helper);
  llvm::Value *imports = helper->getArg(0);
  ir.SetInsertPoint(entry);
  // The field exists when imports->size covers it (tables of older runtimes do not).
  llvm::StructType *table = importTableType(context);
  llvm::Value *size = ir.CreateLoad(i32, ir.CreateStructGEP(table, imports, abi::kImport_size));
  ir.CreateCondBr(
      ir.CreateICmpUGE(size, llvm::ConstantInt::get(
                                 i32, abi::importTableSizeThrough(abi::kImport_set_output_extent))),
      check, done);
  ir.SetInsertPoint(check);
  llvm::Value *fn =
      ir.CreateLoad(ptr, ir.CreateStructGEP(table, imports, abi::kImport_set_output_extent));
  ir.CreateCondBr(ir.CreateIsNull(fn), done, call);
  ir.SetInsertPoint(call);
  llvm::Value *tableContext =
      ir.CreateLoad(ptr, ir.CreateStructGEP(table, imports, abi::kImport_context));
  ir.CreateCall(llvm::FunctionType::get(voidType, {ptr, i32, i32, i64}, false), fn,
                {tableContext, ir.CreateTrunc(helper->getArg(1), i32),
                 ir.CreateTrunc(helper->getArg(2), i32), helper->getArg(3)});
  ir.CreateBr(done);
  ir.SetInsertPoint(done);
  ir.CreateRetVoid();

  std::vector<llvm::CallInst *> calls;
  for (llvm::User *user : declared->users())
    if (auto *c = llvm::dyn_cast<llvm::CallInst>(user))
      calls.push_back(c);
  for (llvm::CallInst *c : calls) {
    ir.SetInsertPoint(c);
    ir.CreateCall(helper,
                  {main.getArg(0), c->getArgOperand(0), c->getArgOperand(1), c->getArgOperand(2)});
    c->eraseFromParent();
  }
  declared->eraseFromParent();
}

} // namespace

EntryPoints tcc::package::buildEntryPoints(llvm::Module &module, const ModelInterface &interface,
                                           llvm::ArrayRef<std::string> messages,
                                           uint64_t stringTableSize, bool deviceConstants,
                                           bool deviceStatus) {
  llvm::LLVMContext &context = module.getContext();
  llvm::Function *main = module.getFunction("main");
  llvm::Function *workspaceSize = module.getFunction("workspace_size");
  llvm::Function *outputShapes = module.getFunction("output_shapes");
  size_t numSymbols = interface.symbols.size();
  bool hasParameters = !interface.parameters.empty();

  IRBuilding b(module);
  llvm::IRBuilder<> ir(context);

  // int64_t workspace_size(const int64_t *symbol_values)
  llvm::Function *workspace = b.function("tcc_workspace_size", b.i64, {b.ptr});
  ir.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", workspace));
  ir.CreateRet(ir.CreateCall(workspaceSize, loadSymbols(ir, workspace->getArg(0), numSymbols)));

  // int32_t output_shapes(const int64_t *symbol_values, int64_t *shapes)
  llvm::Function *shapes = b.function("tcc_output_shapes", b.i32, {b.ptr, b.ptr});
  ir.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", shapes));
  {
    llvm::Value *extents =
        ir.CreateCall(outputShapes, loadSymbols(ir, shapes->getArg(0), numSymbols));
    size_t total = 0;
    for (const TensorInterface &t : interface.outputs)
      total += t.shape.size();
    for (size_t k = 0; k < total; ++k)
      ir.CreateStore(total == 1 ? extents : ir.CreateExtractValue(extents, k),
                     ir.CreateConstGEP1_64(b.i64, shapes->getArg(1), k));
    ir.CreateRet(llvm::ConstantInt::get(b.i32, 0));
  }

  routeOutputExtents(module, *main);

  // int32_t run(imports, symbol_values, inputs, outputs, workspace)
  llvm::Function *run = b.function("tcc_run", b.i32, {b.ptr, b.ptr, b.ptr, b.ptr, b.ptr});
  llvm::Argument *imports = run->getArg(0), *inputs = run->getArg(2), *outputs = run->getArg(3),
                 *ws = run->getArg(4);
  auto *entry = llvm::BasicBlock::Create(context, "entry", run);
  auto *failed = llvm::BasicBlock::Create(context, "failed", run);
  auto *report = llvm::BasicBlock::Create(context, "report", run);
  auto *done = llvm::BasicBlock::Create(context, "done", run);
  ir.SetInsertPoint(entry);
  if (stringTableSize) {
    // A model with string tensors needs the string functions appended to the import table
    // (model_abi.h); an older runtime's table ends before them.
    auto *check = llvm::BasicBlock::Create(context, "strings", run, failed);
    auto *tooOld = llvm::BasicBlock::Create(context, "old_runtime", run, failed);
    llvm::Value *size = ir.CreateLoad(
        b.i32, ir.CreateStructGEP(importTableType(context), imports, abi::kImport_size));
    ir.CreateCondBr(ir.CreateICmpUGE(size, llvm::ConstantInt::get(b.i32, stringTableSize)), check,
                    tooOld);
    ir.SetInsertPoint(tooOld);
    llvm::Value *reportFn = ir.CreateLoad(
        b.ptr, ir.CreateStructGEP(importTableType(context), imports, abi::kImport_report_error));
    llvm::Value *reportContext = ir.CreateLoad(
        b.ptr, ir.CreateStructGEP(importTableType(context), imports, abi::kImport_context));
    auto *call = llvm::BasicBlock::Create(context, "old_runtime_report", run, failed);
    auto *give = llvm::BasicBlock::Create(context, "old_runtime_fail", run, failed);
    ir.CreateCondBr(ir.CreateIsNull(reportFn), give, call);
    ir.SetInsertPoint(call);
    ir.CreateCall(llvm::FunctionType::get(llvm::Type::getVoidTy(context), {b.ptr, b.ptr}, false),
                  reportFn,
                  {reportContext, b.string("the model has string tensors, but the runtime's "
                                           "import table has no string functions (update the "
                                           "tcc runtime)")});
    ir.CreateBr(give);
    ir.SetInsertPoint(give);
    ir.CreateRet(llvm::ConstantInt::get(b.i32, 1));
    ir.SetInsertPoint(check);
    entry = check;
  }
  std::vector<llvm::Value *> args = {imports};
  for (llvm::Value *symbol : loadSymbols(ir, run->getArg(1), numSymbols))
    args.push_back(symbol);
  auto pushBuffer = [&](llvm::Value *pointer) {
    // The raw byte buffer's descriptor; its size is never read.
    llvm::Value *zero = ir.getInt64(0), *one = ir.getInt64(1);
    for (llvm::Value *field : {pointer, pointer, zero, zero, one})
      args.push_back(field);
  };
  for (size_t i = 0; i < interface.inputs.size(); ++i)
    pushBuffer(ir.CreateLoad(b.ptr, ir.CreateConstGEP1_64(b.ptr, inputs, i)));
  for (size_t i = 0; i < interface.outputs.size(); ++i)
    pushBuffer(ir.CreateLoad(b.ptr, ir.CreateConstGEP1_64(b.ptr, outputs, i)));
  if (hasParameters) // the session's parameter buffer, imports->parameters
    pushBuffer(ir.CreateLoad(
        b.ptr, ir.CreateStructGEP(importTableType(context), imports, abi::kImport_parameters)));
  pushBuffer(ws);
  if (deviceConstants) // the session's device copy of the weights
    pushBuffer(ir.CreateLoad(b.ptr, ir.CreateStructGEP(importTableType(context), imports,
                                                       abi::kImport_device_constants)));
  if (deviceStatus) // the run's device-side check status
    pushBuffer(ir.CreateLoad(
        b.ptr, ir.CreateStructGEP(importTableType(context), imports, abi::kImport_device_status)));
  llvm::Value *status = ir.CreateCall(main, args);
  ir.CreateCondBr(ir.CreateICmpEQ(status, llvm::ConstantInt::get(b.i32, 0)), done, failed);

  // A failed check: hand its message to imports->report_error(context, message).
  ir.SetInsertPoint(failed);
  auto *importType = importTableType(context);
  llvm::Value *reportFn =
      ir.CreateLoad(b.ptr, ir.CreateStructGEP(importType, imports, abi::kImport_report_error));
  ir.CreateCondBr(ir.CreateIsNull(reportFn), done, report);
  ir.SetInsertPoint(report);
  std::vector<llvm::Constant *> messageStrings;
  for (const std::string &m : messages)
    messageStrings.push_back(b.string(m));
  llvm::Value *message;
  if (messageStrings.empty()) {
    message = b.string("a run-time check failed");
  } else {
    auto *type = llvm::ArrayType::get(b.ptr, messageStrings.size());
    auto *table = new llvm::GlobalVariable(module, type, true, llvm::GlobalValue::PrivateLinkage,
                                           llvm::ConstantArray::get(type, messageStrings),
                                           "tcc_check_messages");
    llvm::Value *index =
        ir.CreateZExt(ir.CreateSub(status, llvm::ConstantInt::get(b.i32, 1)), b.i64);
    index = ir.CreateSelect(
        ir.CreateICmpULT(index, llvm::ConstantInt::get(b.i64, messageStrings.size())), index,
        llvm::ConstantInt::get(b.i64, 0));
    message = ir.CreateLoad(b.ptr, ir.CreateGEP(type, table, {ir.getInt64(0), index}));
  }
  llvm::Value *reportContext =
      ir.CreateLoad(b.ptr, ir.CreateStructGEP(importType, imports, abi::kImport_context));
  ir.CreateCall(llvm::FunctionType::get(llvm::Type::getVoidTy(context), {b.ptr, b.ptr}, false),
                reportFn, {reportContext, message});
  ir.CreateBr(done);
  ir.SetInsertPoint(done);
  llvm::PHINode *result = ir.CreatePHI(b.i32, 3);
  result->addIncoming(llvm::ConstantInt::get(b.i32, 0), entry);
  result->addIncoming(llvm::ConstantInt::get(b.i32, 1), failed);
  result->addIncoming(llvm::ConstantInt::get(b.i32, 1), report);
  ir.CreateRet(result);
  return {workspace, shapes, run};
}

llvm::Function *tcc::package::buildComputeSymbols(llvm::Module &module,
                                                  const ModelInterface &interface,
                                                  llvm::ArrayRef<size_t> computed,
                                                  std::string &error) {
  llvm::LLVMContext &context = module.getContext();
  IRBuilding b(module);
  llvm::IRBuilder<> ir(context);
  size_t numSymbols = interface.symbols.size();
  llvm::Function *dataSymbols = module.getFunction("data_symbols");
  size_t numInputs = interface.inputs.size();
  if (!dataSymbols || dataSymbols->arg_size() != numSymbols + 5 * numInputs) {
    error = "internal error: @data_symbols does not have the expected signature";
    return nullptr;
  }
  // int32_t compute_symbols(int64_t *symbol_values, void *const *inputs)
  llvm::Function *compute = b.function("tcc_compute_symbols", b.i32, {b.ptr, b.ptr});
  ir.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", compute));
  std::vector<llvm::Value *> callArgs = loadSymbols(ir, compute->getArg(0), numSymbols);
  for (size_t i = 0; i < numInputs; ++i) {
    llvm::Value *pointer =
        ir.CreateLoad(b.ptr, ir.CreateConstGEP1_64(b.ptr, compute->getArg(1), i));
    for (llvm::Value *field :
         {pointer, pointer, static_cast<llvm::Value *>(ir.getInt64(0)),
          static_cast<llvm::Value *>(ir.getInt64(0)), static_cast<llvm::Value *>(ir.getInt64(1))})
      callArgs.push_back(field);
  }
  llvm::Value *values = ir.CreateCall(dataSymbols, callArgs);
  for (auto [k, s] : llvm::enumerate(computed))
    ir.CreateStore(computed.size() == 1 ? values : ir.CreateExtractValue(values, k),
                   ir.CreateConstGEP1_64(b.i64, compute->getArg(0), s));
  ir.CreateRet(llvm::ConstantInt::get(b.i32, 0));
  return compute;
}
