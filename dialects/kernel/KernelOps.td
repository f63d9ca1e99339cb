//===- KernelOps.td - the `kernel` dialect: kernels and their launches --------------------===//
//
// After fusion, @main's compute ops are outlined into kernel functions (tcc-outline-kernels);
// what the host code and the targets must know of a kernel is written here, typed and
// verified, instead of loose attributes: the kernel's kind, whether it applies a fused
// epilogue, the ONNX nodes it computes (#kernel.kernel on the function); the launch of a
// kernel over a range of its outermost parallel loop (kernel.launch in host code); and the
// run-time checks' messages (kernel.check_messages on the module).
//
//===-------------------------------------------------------------------------------------===//

#ifndef TCC_KERNEL_OPS
#define TCC_KERNEL_OPS

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"

def Kernel_Dialect : Dialect {
  let name = "kernel";
  let cppNamespace = "::tcc::kernel";
  let summary = "kernels formed by fusion, and their launches from the host code";
  let description = [{
    A kernel is a private `func.func` of the model module carrying `kernel.kernel`, a
    `#kernel.kernel` attribute; its results are written into destinations its caller passes
    (destination-passing style), so after bufferization it allocates nothing. Host code runs
    it by `kernel.launch` (tcc-form-launches, before any target pass); each target lowers
    launches its own way (the CPU: a range of the outermost parallel loop per chunk of the
    runtime's `parallel_for`, or a plain call; GPUs: a call of the function that holds its
    grid launches). The module's `kernel.check_messages` lists the
    messages of the run-time checks in the order of their status codes.

    The host function's contract with packaging (lib/Package writes the descriptor from it):
    `kernel.symbol = "name"` on each argument of @main that is a symbol's value,
    `kernel.workspace` on its workspace buffer, `kernel.workspace_size = N` on @main when
    the workspace is static; on the module, `kernel.output_symbols` (per output, per dim: a
    symbol index, -1, or -2 for an extent known after the run), `kernel.batch_split = @symbol`
    (images computed alone, see tcc-mark-batch-split) and `kernel.string_table_size` (the
    import-table bytes the model's string functions need).

    A device model's contract (GPU targets, lib/Target/GPU): `kernel.device_constants` on
    @main's argument that holds the device's copy of the weights, `kernel.device_status` on
    the one that holds the run's check status (device-side checks); on the module,
    `kernel.device_check_messages` (their messages, in code order),
    `kernel.device_constants_size` (its bytes), `kernel.device_kernels` (the kernel names, in
    the order of the indices the host code launches them by) and `kernel.device_images` (one
    dictionary per image: `arch` ("sm_90", "gfx942") and `format` ("ptx" or "cubin" for
    NVIDIA, "hsaco" for an AMD code object) strings and `symbol`, the LLVM global holding its
    bytes).

    The training contract (tcc --grad / --train): `kernel.parameter = <initial value>` on each
    argument of @main that is a parameter (tcc-autodiff), `kernel.update_of = "name"` on a
    result that overwrites that parameter; after tcc-entry-signature, `kernel.parameters` on
    the argument that is the session's parameter buffer, and on the module
    `kernel.parameters` (one {name, offset, value} per parameter) and
    `kernel.parameters_size` (the buffer's bytes), which packaging lays out.
  }];
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    /// The discardable attribute names this dialect verifies.
    static constexpr ::llvm::StringLiteral kKernelAttrName = "kernel.kernel";
    static constexpr ::llvm::StringLiteral kCheckMessagesAttrName = "kernel.check_messages";
    static constexpr ::llvm::StringLiteral kSymbolAttrName = "kernel.symbol";
    static constexpr ::llvm::StringLiteral kWorkspaceAttrName = "kernel.workspace";
    static constexpr ::llvm::StringLiteral kWorkspaceSizeAttrName = "kernel.workspace_size";
    static constexpr ::llvm::StringLiteral kOutputSymbolsAttrName = "kernel.output_symbols";
    static constexpr ::llvm::StringLiteral kBatchSplitAttrName = "kernel.batch_split";
    static constexpr ::llvm::StringLiteral kStringTableSizeAttrName = "kernel.string_table_size";
    static constexpr ::llvm::StringLiteral kDeviceConstantsAttrName = "kernel.device_constants";
    static constexpr ::llvm::StringLiteral kDeviceConstantsSizeAttrName =
        "kernel.device_constants_size";
    static constexpr ::llvm::StringLiteral kDeviceKernelsAttrName = "kernel.device_kernels";
    static constexpr ::llvm::StringLiteral kDeviceImagesAttrName = "kernel.device_images";
    static constexpr ::llvm::StringLiteral kDeviceStatusAttrName = "kernel.device_status";
    /// On a device model's module: its host code reads device memory (tcc-gpu-form-grids'
    /// host reads, lowered by tcc-gpu-lower-launches to imports->device_read).
    static constexpr ::llvm::StringLiteral kReadsDeviceAttrName = "kernel.reads_device";
    static constexpr ::llvm::StringLiteral kParameterAttrName = "kernel.parameter";
    static constexpr ::llvm::StringLiteral kParametersAttrName = "kernel.parameters";
    static constexpr ::llvm::StringLiteral kParametersSizeAttrName = "kernel.parameters_size";
    static constexpr ::llvm::StringLiteral kUpdateOfAttrName = "kernel.update_of";
    /// On a kernel.parameter argument: a KV cache (tcc --kv-cache), which the step updates
    /// in place where it writes (the parameter's buffer is writable during the run).
    static constexpr ::llvm::StringLiteral kCacheAttrName = "kernel.cache";
    static constexpr ::llvm::StringLiteral kDeviceCheckMessagesAttrName =
        "kernel.device_check_messages";
    /// On an scf.parallel: its last dim is the threads of one GPU block (this many), which
    /// cooperate through workgroup memory and barriers; the other dims number the blocks.
    static constexpr ::llvm::StringLiteral kBlockThreadsAttrName = "kernel.block_threads";
    /// On a module, from the kernel stage on: {kernel function name = [ONNX node names in
    /// graph order]} for every kernel (recordKernelNodes), so that the descriptor can name
    /// each kernel's nodes after the target has turned the kernels into something else.
    static constexpr ::llvm::StringLiteral kKernelNodesAttrName = "kernel.kernel_nodes";
    /// On a CPU model's module (tcc-cpu-lower-launches): the kernels its host code hands to
    /// parallel_for, in the order of the indices it gives imports->profile.
    static constexpr ::llvm::StringLiteral kProfiledKernelsAttrName = "kernel.profiled_kernels";
  }];
}

def Kernel_KindContraction : I32EnumAttrCase<"contraction", 0>;
def Kernel_KindWindow : I32EnumAttrCase<"window", 1>;
def Kernel_KindGeneric : I32EnumAttrCase<"generic", 2>;
def Kernel_KindFill : I32EnumAttrCase<"fill", 3>;
def Kernel_KindCopy : I32EnumAttrCase<"copy", 4>;
def Kernel_KindLoop : I32EnumAttrCase<"loop", 5>;
def Kernel_KindAttention : I32EnumAttrCase<"attention", 6>;
def Kernel_Kind : I32EnumAttr<"KernelKind", "what a kernel computes", [
    Kernel_KindContraction, Kernel_KindWindow, Kernel_KindGeneric, Kernel_KindFill,
    Kernel_KindCopy, Kernel_KindLoop, Kernel_KindAttention]> {
  let cppNamespace = "::tcc::kernel";
  let genSpecializedAttr = 0;
}

def Kernel_KernelAttr : AttrDef<Kernel_Dialect, "Kernel"> {
  let mnemonic = "kernel";
  let summary = "what a kernel function is: its kind, its epilogue, its ONNX nodes";
  let description = [{
    `kind`: what the kernel's main op computes: `contraction` (a matmul or convolution,
    with the fill of its accumulator and possibly an epilogue), `window` (a pooling window
    with its fill), `generic` (any other loop nest: pointwise, reductions, gathers),
    `fill` (constant fills, a padded buffer's border), `copy` (slices written into a larger
    buffer: concatenation, padding), `loop` (a host loop's body run as one kernel),
    `attention` (a `kernel.attention`).
    `epilogue`: a contraction whose pointwise epilogue (bias, activation, residual) is part
    of the kernel, applied to the accumulators before they are stored. `nodes`: the names of
    the ONNX nodes the kernel computes, the last one first (fusion merges several); `epilogue`
    and `nodes` may be left out (false, none).

    ```mlir
    func.func private @kernel_3_relu(...) attributes {
        kernel.kernel = #kernel.kernel<kind = contraction, epilogue = true, nodes = ["relu", "conv"]>}
    ```
  }];
  let parameters = (ins EnumParameter<Kernel_Kind>:$kind,
                        DefaultValuedParameter<"bool", "false">:$epilogue,
                        OptionalParameter<"::mlir::ArrayAttr">:$nodes);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

class Kernel_Op<string mnemonic, list<Trait> traits = []> : Op<Kernel_Dialect, mnemonic, traits>;

def Kernel_LaunchOp : Kernel_Op<"launch", [DeclareOpInterfaceMethods<SymbolUserOpInterface>,
                                            AttrSizedOperandSegments]> {
  let summary = "run a kernel from host code, whole or over [0, range) in chunks";
  let description = [{
    How host code runs a kernel function (`kernel.kernel`). Without `range`, the kernel runs
    once over its whole domain: `kernel(operands...)`. This is the form tcc-form-launches
    gives every kernel call at the end of the target-neutral pipeline (what `--emit=kernel`
    prints); each target then decides how to split it.

    With `range`, it calls `kernel(operands..., begin, end)` for disjoint chunks
    [begin, end) that cover [0, range) exactly once, possibly in parallel, and returns when
    all have finished. The kernel's last two arguments are `index` values bounding its
    outermost parallel loop (tcc-range-kernels gives them); it must not depend on how the
    range is split. The CPU lowers a ranged launch to the runtime's `parallel_for`
    (tcc-cpu-lower-launches) and a whole one to a call; the GPU targets call the kernel's
    host function, in which tcc-gpu-form-grids puts the grid launches.

    ```mlir
    kernel.launch @kernel_0_mm(%a, %b, %c) : memref<?x64xf32>, memref<64x32xf32>, memref<?x32xf32>
    kernel.launch @kernel_0_mm(%a, %b, %c) range(%tiles) : memref<?x64xf32>, memref<64x32xf32>, memref<?x32xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$kernel, Variadic<AnyType>:$kernel_operands,
                       Optional<Index>:$range);
  let assemblyFormat = [{
    $kernel `(` $kernel_operands `)` (`range` `(` $range^ `)`)? attr-dict
    (`:` type($kernel_operands)^)?
  }];
  let builders = [
    // A launch of the whole kernel (no range).
    OpBuilder<(ins "::mlir::FlatSymbolRefAttr":$kernel, "::mlir::ValueRange":$operands), [{
      build($_builder, $_state, kernel, operands, ::mlir::Value());
    }]>
  ];
}

def Kernel_AttentionOp : Kernel_Op<"attention", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<DestinationStyleOpInterface>]> {
  let summary = "scaled dot-product attention: softmax(Q Kᵀ · scale + bias) V, one kernel";
  let description = [{
    What tcc-match-attention makes of the decomposed attention blocks it recognizes, so that
    a target computes them in one kernel without materializing the [M × N] score matrix.
    With batch dims `B...` (any number, the same in every operand), `q: [B..., M, D]`,
    `k: [B..., N, D]` (`[B..., D, N]` with `key_transposed`), `v: [B..., N, E]`, and the
    result / `init: [B..., M, E]`:

        s[b, i, j] = scale · Σ_d q[b, i, d] · k[b, j, d]  (+ bias[..])
        out[b, i, :] = Σ_j softmax_j(s[b, i, :]) · v[b, j, :]

    `bias` (optional) is added to the scores as `prim.broadcast_in_dim` would broadcast it:
    its dim `t` is score dim `bias_dims[t]` (strictly increasing); a dim of static extent 1
    is broadcast. Softmax subtracts the row's maximum, as prim's decomposition of Softmax
    does. `nan_to_zero`: a row whose softmax is NaN (all its scores -inf, or a NaN score)
    gives zeros, as the dynamo exporter's `Where(IsNaN(p), 0, p)` does. `safe_softmax`:
    the softmax of ONNX's Attention op (opset 23): a row maximum of -inf is taken as 0 and a
    row sum of 0 as 1, so a row whose scores are all -inf gives zeros, not NaN.
    Grouped-query attention: the last batch dim (the heads, rank >= 3) of `k` and `v` may
    be a divisor of the queries' (both static, `k` and `v` alike): query head h reads key
    and value head h / G, G = heads(q) / heads(k) (`getKeyGroup()`), as an exporter's
    repeat of each key head G times in a row (Expand then Reshape) would give.
    `keys(%n)` (optional): only the first n keys and values take part (n at most their
    length): a KV cache of a fixed capacity whose first n positions are filled, read where
    it is (tcc --kv-cache), the score dim N being n.
    `zero_masked_rows` (with a bias): a row whose bias values are all -inf gives zeros,
    whatever its scores (ONNX Attention's masked rows). `softcap` c (> 0): the scaled
    products are capped before the bias is added, c · tanh(s / c) (ONNX Attention's softcap).
    `causal` t (>= 0): key j takes part in query row i's softmax only when j <= i + t (a
    causal mask computed from the indices, as if the bias were -inf above that diagonal;
    row i always keeps key 0). A target may skip the keys past a row block's diagonal.

    On tensors the op is destination-passing (`init`, one result); on buffers it has no
    result. Only f32 for now.

    ```mlir
    %o = kernel.attention %q, %k, %v bias(%mask : tensor<?x?xf32>) outs(%init : tensor<?x4x?x32xf32>)
           {scale = 1.0 : f32, key_transposed, bias_dims = array<i64: 2, 3>}
           : tensor<?x4x?x32xf32>, tensor<?x4x32x?xf32>, tensor<?x4x?x32xf32> -> tensor<?x4x?x32xf32>
    ```
  }];
  let arguments = (ins AnyShaped:$query, AnyShaped:$key, AnyShaped:$value,
                       Optional<AnyShaped>:$bias, Optional<Index>:$key_count, AnyShaped:$init,
                       F32Attr:$scale, UnitAttr:$key_transposed,
                       OptionalAttr<DenseI64ArrayAttr>:$bias_dims, UnitAttr:$nan_to_zero,
                       UnitAttr:$safe_softmax, UnitAttr:$zero_masked_rows,
                       OptionalAttr<F32Attr>:$softcap, OptionalAttr<I64Attr>:$causal);
  let results = (outs Variadic<AnyRankedTensor>:$result);
  let assemblyFormat = [{
    $query `,` $key `,` $value (`bias` `(` $bias^ `:` type($bias) `)`)?
    (`keys` `(` $key_count^ `)`)? `outs` `(` $init `:` type($init) `)` attr-dict
    `:` type($query) `,` type($key) `,` type($value) (`->` type($result)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The rank of every operand but the bias.
    int64_t getRank() { return ::llvm::cast<::mlir::ShapedType>(getQuery().getType()).getRank(); }
    /// Query heads per key head (grouped-query attention), 1 when the heads agree.
    int64_t getKeyGroup();
  }];
}

#endif // TCC_KERNEL_OPS
