//===- MachineCode.cpp - LLVM IR -> optimized object code for a host machine ---------===//
#include "tcc/Target/Target.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"

using namespace mlir;

namespace {
std::unique_ptr<llvm::TargetMachine> createTargetMachine(const tcc::HostMachine &target,
                                                         std::string &error) {
  static bool initialized = [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
    return true;
  }();
  (void)initialized;
  llvm::Triple triple(target.triple);
  const llvm::Target *llvmTarget = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!llvmTarget)
    return nullptr;
  llvm::TargetOptions options;
  // Deliberately no fast-math here: the lowering sets flags per op where they are safe.
  return std::unique_ptr<llvm::TargetMachine>(llvmTarget->createTargetMachine(
      triple, target.cpu, target.features, options, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
}
} // namespace

LogicalResult tcc::emitMachineCode(llvm::Module &module, const HostMachine &target, bool assembly,
                                   llvm::SmallVectorImpl<char> &out, std::string &error,
                                   bool optimize) {
  std::unique_ptr<llvm::TargetMachine> machine = createTargetMachine(target, error);
  if (!machine)
    return failure();
  module.setTargetTriple(machine->getTargetTriple());
  module.setDataLayout(machine->createDataLayout());
  for (llvm::Function &f : module) {
    if (f.isDeclaration())
      continue;
    f.addFnAttr("target-cpu", target.cpu);
    if (!target.features.empty())
      f.addFnAttr("target-features", target.features);
    // Fixed-length SVE: vectors of sveVectorBits are SVE registers of exactly that length.
    if (target.sveVectorBits)
      f.addFnAttr(llvm::Attribute::getWithVScaleRangeArgs(
          module.getContext(), target.sveVectorBits / 128, target.sveVectorBits / 128));
  }

  // The middle end at O3.
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder builder(machine.get());
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  if (optimize) {
    llvm::ModulePassManager passes =
        builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
    passes.run(module, mam);
  }

  // The back end.
  llvm::raw_svector_ostream os(out);
  llvm::legacy::PassManager codegen;
  if (machine->addPassesToEmitFile(codegen, os, nullptr,
                                   assembly ? llvm::CodeGenFileType::AssemblyFile
                                            : llvm::CodeGenFileType::ObjectFile)) {
    error = "the target cannot emit " + std::string(assembly ? "assembly" : "object code");
    return failure();
  }
  codegen.run(module);
  return success();
}
