//===- ModelCheck.cpp - which nodes of a model tcc can compile, without compiling ----===//
#include "tcc/Pipelines/ModelCheck.h"

#include "dialects/onnx/OnnxDialect.h"
#include "tcc/Decompose/Passes.h"
#include "tcc/Support/Diagnostics.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace tcc;

namespace {

std::string domainName(onnx::NodeOp node) {
  return node.getDomain().empty() ? std::string("ai.onnx") : node.getDomain().str();
}

std::string typeText(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// "node 'NAME' (Op, opset V): reason" -> "reason".
std::string reasonOf(const std::string &message) {
  if (message.rfind("node '", 0) == 0)
    if (size_t colon = message.find("): "); colon != std::string::npos)
      return message.substr(colon + 3);
  return message;
}

tcc::NodeProblem describe(onnx::NodeOp node) {
  tcc::NodeProblem p;
  p.node = node.getNodeName();
  p.opType = node.getOpType().str();
  p.domain = domainName(node);
  p.opset = static_cast<int64_t>(node.getVersion());
  for (Value input : node.getInputs())
    if (auto tensor = dyn_cast<ShapedType>(input.getType())) {
      p.dtype = typeText(tensor.getElementType());
      break;
    }
  return p;
}

} // namespace

tcc::ModelCheckReport tcc::checkModel(ModuleOp module) {
  ModelCheckReport report;
  auto main = module.lookupSymbol<func::FuncOp>("main");
  if (!main) {
    report.modelErrors.push_back("the module has no @main function");
    return report;
  }
  for (auto node : main.getOps<onnx::NodeOp>()) {
    ++report.numNodes;
    std::string domain = domainName(node);
    ++report.opCounts[domain == "ai.onnx" ? node.getOpType().str()
                                          : domain + ":" + node.getOpType().str()];
  }
  // Every error of the decomposition, by the location it names.
  llvm::DenseMap<Location, std::string> nodeErrors;
  {
    ScopedDiagnosticHandler handler(module.getContext(), [&](Diagnostic &diag) {
      if (diag.getSeverity() != DiagnosticSeverity::Error)
        return success();
      std::string message = diag.str();
      if (getLocationNodeName(diag.getLocation()).empty())
        report.modelErrors.push_back(message);
      else if (!nodeErrors.count(diag.getLocation()))
        nodeErrors[diag.getLocation()] = message;
      return success();
    });
    PassManager pm(module.getContext());
    pm.addPass(createDecomposeOnnx());
    (void)pm.run(module);
  }
  // Nodes still there failed, or were skipped because an input failed.
  for (auto node : main.getOps<onnx::NodeOp>()) {
    NodeProblem problem = describe(node);
    auto it = nodeErrors.find(node.getLoc());
    if (it != nodeErrors.end()) {
      problem.reason = reasonOf(it->second);
      report.failures.push_back(problem);
    } else {
      problem.reason = "not checked: an input comes from a node that fails";
      report.unchecked.push_back(problem);
    }
  }
  // Errors at a location no remaining node has (e.g. inside a subgraph) still count.
  if (report.failures.empty() && report.unchecked.empty())
    for (auto &[loc, message] : nodeErrors)
      report.modelErrors.push_back(message);
  return report;
}

void tcc::printModelCheckReport(const ModelCheckReport &report, llvm::StringRef modelPath,
                                bool json, llvm::raw_ostream &os) {
  if (json) {
    auto problems = [](const std::vector<NodeProblem> &list) {
      llvm::json::Array array;
      for (const NodeProblem &p : list)
        array.push_back(llvm::json::Object{{"node", p.node},
                                           {"op_type", p.opType},
                                           {"domain", p.domain},
                                           {"opset", p.opset},
                                           {"dtype", p.dtype},
                                           {"reason", p.reason}});
      return array;
    };
    llvm::json::Object counts;
    for (auto &[op, count] : report.opCounts)
      counts[op] = count;
    llvm::json::Array modelErrors;
    for (const std::string &e : report.modelErrors)
      modelErrors.push_back(e);
    llvm::json::Object root{{"model", modelPath.str()},
                            {"ok", report.ok()},
                            {"nodes", report.numNodes},
                            {"op_counts", std::move(counts)},
                            {"failures", problems(report.failures)},
                            {"unchecked", problems(report.unchecked)},
                            {"model_errors", std::move(modelErrors)}};
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
    return;
  }
  for (const std::string &e : report.modelErrors)
    os << modelPath << ": error: " << e << "\n";
  for (const NodeProblem &p : report.failures)
    os << modelPath << ": error: node '" << p.node << "' (" << p.opType
       << (p.domain == "ai.onnx" ? "" : ", domain " + p.domain) << ", opset " << p.opset
       << (p.dtype.empty() ? "" : ", " + p.dtype) << "): " << p.reason << "\n";
  if (!report.unchecked.empty())
    os << modelPath << ": " << report.unchecked.size()
       << " more node(s) not checked: their inputs come from failing nodes\n";
  if (report.ok())
    os << modelPath << ": ok: all " << report.numNodes << " nodes compile\n";
  else
    os << modelPath << ": " << report.failures.size() << " of " << report.numNodes
       << " nodes cannot be compiled\n";
  os << "op counts:";
  for (auto &[op, count] : report.opCounts)
    os << " " << op << " " << count;
  os << "\n";
}
