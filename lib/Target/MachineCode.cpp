//===- MachineCode.cpp - LLVM IR -> optimized object code for a host machine ---------===//
//
// The middle end (O3) runs on the whole module; a library's back end may then run in
// parallel (tcc -j): the optimized module is split into a number of parts that depends on the
// module alone (its functions, round robin), each part is compiled to an object in a context
// of its own on a thread, and the objects are kept in part order, so that the library is the
// same bytes whatever the number of threads.
//
//===----------------------------------------------------------------------------------===//
#include "tcc/Target/Target.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/Transforms/Utils/SplitModule.h"

#include <algorithm>

using namespace mlir;

namespace {
std::unique_ptr<llvm::TargetMachine> createTargetMachine(const tcc::HostMachine &target,
                                                         std::string &error) {
  static bool initialized = [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
    // Module-level assembly: the ELF weights object's sections (tcc::buildWeightsModule).
    llvm::InitializeAllAsmParsers();
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

/// Sets the module's target and each function's CPU attributes, then runs the middle end.
void prepareAndOptimize(llvm::Module &module, llvm::TargetMachine &machine,
                        const tcc::HostMachine &target, bool optimize) {
  module.setTargetTriple(machine.getTargetTriple());
  module.setDataLayout(machine.createDataLayout());
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
  if (!optimize)
    return;
  // The middle end at O3.
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder builder(&machine);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager passes =
      builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  passes.run(module, mam);
}

/// The back end: `module` to an object file or assembly.
LogicalResult generate(llvm::Module &module, llvm::TargetMachine &machine, bool assembly,
                       llvm::SmallVectorImpl<char> &out, std::string &error) {
  llvm::raw_svector_ostream os(out);
  llvm::legacy::PassManager codegen;
  if (machine.addPassesToEmitFile(codegen, os, nullptr,
                                  assembly ? llvm::CodeGenFileType::AssemblyFile
                                           : llvm::CodeGenFileType::ObjectFile)) {
    error = "the target cannot emit " + std::string(assembly ? "assembly" : "object code");
    return failure();
  }
  codegen.run(module);
  return success();
}

/// The number of parts a library's object code is split into: one per dozen functions, at
/// most 8 (a function of the module alone, never of the thread count).
unsigned partsFor(const llvm::Module &module) {
  unsigned functions = 0;
  for (const llvm::Function &f : module)
    functions += !f.isDeclaration();
  return std::clamp(functions / 12, 1u, 8u);
}

/// Makes every local symbol of `module` a hidden global named `prefix` + its name (unnamed
/// ones numbered), so that parts of the module can refer to each other's.
void externalizeLocals(llvm::Module &module, llvm::StringRef prefix) {
  unsigned unnamed = 0;
  auto externalize = [&](llvm::GlobalValue &value) {
    if (!value.hasLocalLinkage())
      return;
    std::string name =
        value.hasName() ? value.getName().str() : "unnamed." + std::to_string(unnamed++);
    value.setLinkage(llvm::GlobalValue::ExternalLinkage);
    value.setVisibility(llvm::GlobalValue::HiddenVisibility);
    value.setName(prefix + name);
  };
  for (llvm::Function &f : module)
    if (!f.isDeclaration())
      externalize(f);
  for (llvm::GlobalVariable &g : module.globals())
    if (!g.isDeclaration() && !g.getName().starts_with("llvm."))
      externalize(g);
  for (llvm::GlobalAlias &a : module.aliases())
    externalize(a);
}

} // namespace

LogicalResult tcc::emitMachineCode(llvm::Module &module, const HostMachine &target, bool assembly,
                                   llvm::SmallVectorImpl<char> &out, std::string &error,
                                   bool optimize) {
  std::unique_ptr<llvm::TargetMachine> machine = createTargetMachine(target, error);
  if (!machine)
    return failure();
  prepareAndOptimize(module, *machine, target, optimize);
  return generate(module, *machine, /*assembly=*/assembly, out, error);
}

LogicalResult tcc::emitMachineCodeParts(llvm::Module &module, const HostMachine &target,
                                        unsigned jobs, llvm::StringRef symbolPrefix,
                                        std::vector<llvm::SmallVector<char, 0>> &objects,
                                        std::string &error) {
  std::unique_ptr<llvm::TargetMachine> machine = createTargetMachine(target, error);
  if (!machine)
    return failure();
  prepareAndOptimize(module, *machine, target, /*optimize=*/true);
  unsigned parts = partsFor(module);
  if (parts == 1)
    return generate(module, *machine, /*assembly=*/false, objects.emplace_back(), error);
  // Each part travels as bitcode into a context of its own: one LLVMContext is not shared
  // between threads.
  externalizeLocals(module, symbolPrefix);
  std::vector<llvm::SmallVector<char, 0>> bitcode;
  llvm::SplitModule(
      module, parts,
      [&](std::unique_ptr<llvm::Module> part) {
        llvm::raw_svector_ostream os(bitcode.emplace_back());
        llvm::WriteBitcodeToFile(*part, os);
      },
      /*PreserveLocals=*/true, /*RoundRobin=*/true);
  std::vector<llvm::SmallVector<char, 0>> results(bitcode.size());
  std::vector<std::string> errors(bitcode.size());
  {
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency(std::max(jobs, 1u)));
    for (size_t k = 0; k < bitcode.size(); ++k)
      pool.async([&, k] {
        llvm::LLVMContext context;
        auto part = llvm::parseBitcodeFile(
            llvm::MemoryBufferRef(llvm::StringRef(bitcode[k].data(), bitcode[k].size()), "part"),
            context);
        if (!part) {
          errors[k] = "internal error: a part of the module does not read back: " +
                      llvm::toString(part.takeError());
          return;
        }
        std::unique_ptr<llvm::TargetMachine> partMachine = createTargetMachine(target, errors[k]);
        if (partMachine)
          (void)generate(**part, *partMachine, /*assembly=*/false, results[k], errors[k]);
      });
    pool.wait();
  }
  for (size_t k = 0; k < results.size(); ++k) {
    if (!errors[k].empty()) {
      error = errors[k];
      return failure();
    }
    objects.push_back(std::move(results[k]));
  }
  return success();
}
