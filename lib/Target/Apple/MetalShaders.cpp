//===- MetalShaders.cpp - SPIR-V entry points as Metal Shading Language ---------------===//
#include "MetalShaders.h"

#include <spirv_cross_c.h>

#include <memory>

using namespace mlir;

namespace {
/// A SPIRV-Cross context, destroyed with everything made in it.
struct ContextDeleter {
  void operator()(spvc_context_s *context) const { spvc_context_destroy(context); }
};
using Context = std::unique_ptr<spvc_context_s, ContextDeleter>;

void recordError(void *userdata, const char *message) {
  *static_cast<std::string *>(userdata) = message ? message : "";
}
} // namespace

FailureOr<std::string> tcc::metal::translateEntryPoint(llvm::ArrayRef<uint32_t> words,
                                                       llvm::StringRef entryPoint,
                                                       std::string &function, std::string &error) {
  spvc_context raw = nullptr;
  if (spvc_context_create(&raw) != SPVC_SUCCESS) {
    error = "SPIRV-Cross: cannot create a context";
    return failure();
  }
  Context context(raw);
  std::string message;
  spvc_context_set_error_callback(raw, recordError, &message);
  auto fail = [&](llvm::StringRef step) -> FailureOr<std::string> {
    error = ("SPIRV-Cross: " + step + ": " + (message.empty() ? "failed" : message)).str();
    return failure();
  };

  spvc_parsed_ir ir = nullptr;
  if (spvc_context_parse_spirv(raw, words.data(), words.size(), &ir) != SPVC_SUCCESS)
    return fail("parsing the SPIR-V module");
  spvc_compiler compiler = nullptr;
  if (spvc_context_create_compiler(raw, SPVC_BACKEND_MSL, ir, SPVC_CAPTURE_MODE_TAKE_OWNERSHIP,
                                   &compiler) != SPVC_SUCCESS)
    return fail("creating the MSL compiler");
  std::string name = entryPoint.str();
  if (spvc_compiler_set_entry_point(compiler, name.c_str(), SpvExecutionModelGLCompute) !=
      SPVC_SUCCESS)
    return fail("selecting entry point '" + name + "'");

  // Metal 3 (macOS 13, the GPU family whose buffers have GPU addresses).
  spvc_compiler_options options = nullptr;
  if (spvc_compiler_create_compiler_options(compiler, &options) != SPVC_SUCCESS ||
      spvc_compiler_options_set_uint(options, SPVC_COMPILER_OPTION_MSL_VERSION,
                                     SPVC_MAKE_MSL_VERSION(3, 0, 0)) != SPVC_SUCCESS ||
      spvc_compiler_options_set_uint(options, SPVC_COMPILER_OPTION_MSL_PLATFORM,
                                     SPVC_MSL_PLATFORM_MACOS) != SPVC_SUCCESS ||
      spvc_compiler_install_compiler_options(compiler, options) != SPVC_SUCCESS)
    return fail("setting the MSL options");

  // The push constants (the parameter slots) are buffer 0, which the runtime sets with
  // setBytes (model_abi.h, TCC_IMAGE_MSL).
  spvc_msl_resource_binding binding;
  spvc_msl_resource_binding_init(&binding);
  binding.stage = SpvExecutionModelGLCompute;
  binding.desc_set = SPVC_MSL_PUSH_CONSTANT_DESC_SET;
  binding.binding = SPVC_MSL_PUSH_CONSTANT_BINDING;
  binding.msl_buffer = 0;
  if (spvc_compiler_msl_add_resource_binding(compiler, &binding) != SPVC_SUCCESS)
    return fail("binding the push constants to buffer 0");

  const char *source = nullptr;
  if (spvc_compiler_compile(compiler, &source) != SPVC_SUCCESS || !source)
    return fail("translating entry point '" + name + "' to MSL");
  const char *cleansed = spvc_compiler_get_cleansed_entry_point_name(compiler, name.c_str(),
                                                                     SpvExecutionModelGLCompute);
  if (!cleansed || !*cleansed)
    return fail("naming entry point '" + name + "' in MSL");
  function = cleansed;
  return std::string(source);
}
