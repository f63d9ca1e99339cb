// RUN: tcc-opt %s --split-input-file --verify-diagnostics
// Errors of the kernel dialect: each says what was expected and what was found.

// expected-error @+1 {{only a contraction has an epilogue, not a generic kernel}}
func.func private @epilogue_of_generic() attributes {kernel.kernel = #kernel.kernel<kind = generic, epilogue = true>}

// -----

// expected-error @+1 {{expects node names as strings, got 3}}
func.func private @bad_nodes() attributes {kernel.kernel = #kernel.kernel<kind = generic, nodes = [3]>}

// -----

// expected-error @+1 {{'kernel.kernel' expects a #kernel.kernel attribute, got unit}}
func.func private @unit_kernel() attributes {kernel.kernel}

// -----

func.func @not_a_function() {
  // expected-error @+1 {{'kernel.kernel' is only valid on a function, not on 'arith.constant'}}
  %c = arith.constant {kernel.kernel = #kernel.kernel<kind = fill>} 0 : index
  return
}

// -----

// expected-error @+1 {{'kernel.check_messages' expects an array of strings, got [1, 2]}}
module attributes {kernel.check_messages = [1, 2]} {}

// -----

// expected-error @+1 {{unknown attribute 'kernel.grid' of the kernel dialect}}
func.func private @unknown() attributes {kernel.grid = 1}

// -----

func.func @launch_of_nothing(%n: index) {
  // expected-error @+1 {{launches '@missing', which is not defined}}
  kernel.launch @missing() range(%n)
  return
}

// -----

func.func private @plain(%begin: index, %end: index)
func.func @launch_of_plain_function(%n: index) {
  // expected-error @+1 {{launches '@plain', which is not a kernel function (kernel.kernel)}}
  kernel.launch @plain() range(%n)
  return
}

// -----

func.func private @no_range(%a: memref<4xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>}
func.func @launch_without_range_arguments(%a: memref<4xf32>, %n: index) {
  // expected-error @+1 {{expects '@no_range' to take 3 arguments (the operands, then begin and end) and return nothing, but it has type '(memref<4xf32>) -> ()'}}
  kernel.launch @no_range(%a) range(%n) : memref<4xf32>
  return
}

// -----

func.func private @ranged(%a: memref<4xf32>, %begin: index, %end: index) attributes {kernel.kernel = #kernel.kernel<kind = generic>}
func.func @whole_launch_of_ranged_kernel(%a: memref<4xf32>) {
  // expected-error @+1 {{expects '@ranged' to take 1 arguments (the operands) and return nothing, but it has type '(memref<4xf32>, index, index) -> ()'}}
  kernel.launch @ranged(%a) : memref<4xf32>
  return
}

// -----

func.func private @typed(%a: memref<4xf32>, %begin: index, %end: index) attributes {kernel.kernel = #kernel.kernel<kind = generic>}
func.func @launch_with_wrong_operand(%a: memref<8xf32>, %n: index) {
  // expected-error @+1 {{operand 0 has type 'memref<8xf32>', but '@typed' takes 'memref<4xf32>'}}
  kernel.launch @typed(%a) range(%n) : memref<8xf32>
  return
}

// -----

func.func private @float_range(%a: memref<4xf32>, %begin: f32, %end: f32) attributes {kernel.kernel = #kernel.kernel<kind = generic>}
func.func @launch_of_float_range(%a: memref<4xf32>, %n: index) {
  // expected-error @+1 {{expects the last two arguments of '@float_range' (begin, end) to be index values}}
  kernel.launch @float_range(%a) range(%n) : memref<4xf32>
  return
}

// -----

// The host function's contract with packaging.
// expected-error @+1 {{'kernel.symbol' of argument 0 expects the symbol's name as a string, got 3}}
func.func @symbol_not_a_name(%n: index {kernel.symbol = 3}) {
  return
}

// -----

// expected-error @+1 {{'kernel.workspace' of argument 0 expects no value, got "ws"}}
func.func @workspace_with_value(%ws: memref<?xi8> {kernel.workspace = "ws"}) {
  return
}

// -----

// expected-error @+1 {{'kernel.workspace_size' expects a byte count >= 0, got -64}}
func.func @negative_workspace() attributes {kernel.workspace_size = -64} {
  return
}

// -----

// expected-error @+1 {{'kernel.output_symbols' expects one array<i32> per output (a symbol index, -1 or -2 per dim), got [1, 2]}}
module attributes {kernel.output_symbols = [1, 2]} {}

// -----

// expected-error @+1 {{'kernel.batch_split' expects a symbol reference (@name), got "n"}}
module attributes {kernel.batch_split = "n"} {}

// -----

// expected-error @+1 {{'kernel.batch_split' is only valid on a module, not on 'func.func'}}
func.func @batch_on_function() attributes {kernel.batch_split = @n} {
  return
}

// -----

// expected-error @+1 {{'kernel.string_table_size' expects a byte count > 0, got 0}}
module attributes {kernel.string_table_size = 0} {}

// -----

// expected-error @+1 {{'kernel.symbol' is an argument attribute, not one of 'func.func'}}
func.func @symbol_on_function() attributes {kernel.symbol = "n"} {
  return
}

// -----

// expected-error @+1 {{'kernel.device_kernels' expects a non-empty array of kernel names, got []}}
module attributes {kernel.device_kernels = []} {}

// -----

// expected-error @+1 {{'kernel.kernel_nodes' expects {kernel = ["node", ...], ...}, got {kernel_0 = "relu"}}}
module attributes {kernel.kernel_nodes = {kernel_0 = "relu"}} {}

// -----

// expected-error @+1 {{'kernel.profiled_kernels' expects an array of kernel names, got [1]}}
module attributes {kernel.profiled_kernels = [1]} {}

// -----

// expected-error @+1 {{'kernel.profiled_kernels' is only valid on a module, not on 'func.func'}}
func.func @f() attributes {kernel.profiled_kernels = ["kernel_0"]} { return }

// -----

// expected-error @+1 {{'kernel.device_images' expects an array of {arch = "sm_NN", "gfxNNN", "vulkan1.2" or "metal3", format = "ptx", "cubin", "hsaco", "spirv" or "msl", symbol = @global}, got [{arch = "sm_90", format = "sass", symbol = @image}]}}
module attributes {kernel.device_images = [{arch = "sm_90", format = "sass", symbol = @image}]} {}

// -----

// expected-error @+1 {{'kernel.device_constants_size' expects a byte count >= 0, got -1}}
module attributes {kernel.device_constants_size = -1} {}

// -----

// expected-error @+1 {{'kernel.device_constants' of argument 0 expects no value, got 1}}
func.func @constants_with_value(%arg0: memref<?xi8> {kernel.device_constants = 1}) {
  return
}

// -----

// The training contract: each parameter entry has a name, an offset and its initial value.
// expected-error @+1 {{'kernel.parameters' expects one {name = "...", offset = N >= 0, value = <elements>} per parameter, got [{name = "w", offset = -64 : i64, value = dense<1.000000e+00> : tensor<2xf32>}]}}
module attributes {kernel.parameters = [{name = "w", offset = -64 : i64, value = dense<1.0> : tensor<2xf32>}]} {}

// -----

// expected-error @+1 {{'kernel.parameters_size' expects a byte count >= 0, got "128"}}
module attributes {kernel.parameters_size = "128"} {}

// -----

// expected-error @+1 {{'kernel.parameter' of argument 0 expects the parameter's initial value (elements), got "w"}}
func.func @parameter_without_value(%w: tensor<2xf32> {kernel.parameter = "w"}) {
  return
}

// -----

// expected-error @+1 {{'kernel.update_of' of result 0 expects the name of the parameter it updates, got 0 : i64}}
func.func @update_of_number(%w: tensor<2xf32>) -> (tensor<2xf32> {kernel.update_of = 0}) {
  return %w : tensor<2xf32>
}

// -----

// expected-error @+1 {{'kernel.update_of' is an argument or result attribute, not one of 'func.func'}}
func.func @update_of_on_function() attributes {kernel.update_of = "w"} {
  return
}

// -----

// A block of GPU threads has 1 to 1024 of them.
func.func @block_too_large(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2048 = arith.constant 2048 : index
  // expected-error @+1 {{'kernel.block_threads' expects a thread count of 1 to 1024, got 2048 : i64}}
  scf.parallel (%b, %t) = (%c0, %c0) to (%n, %c2048) step (%c1, %c1) {
    scf.reduce
  } {kernel.block_threads = 2048 : i64}
  return
}

// -----

// expected-error @+1 {{'kernel.block_threads' is only valid on an scf.parallel, not on 'func.func'}}
func.func @block_on_function() attributes {kernel.block_threads = 256 : i64} {
  return
}

// -----

func.func @attention_ranks(%q: memref<2x8x4xf32>, %k: memref<8x4xf32>, %v: memref<2x8x4xf32>, %o: memref<2x8x4xf32>) {
  // expected-error @+1 {{expects query, key, value and init of one rank >= 2, got 3, 2, 3, 3}}
  kernel.attention %q, %k, %v outs(%o : memref<2x8x4xf32>) {scale = 1.0 : f32} : memref<2x8x4xf32>, memref<8x4xf32>, memref<2x8x4xf32>
  return
}

// -----

func.func @attention_masked_rows(%q: memref<2x8x4xf32>, %k: memref<2x8x4xf32>, %v: memref<2x8x4xf32>, %o: memref<2x8x4xf32>) {
  // expected-error @+1 {{has zero_masked_rows without a bias (the rows it zeroes are the bias's)}}
  kernel.attention %q, %k, %v outs(%o : memref<2x8x4xf32>) {scale = 1.0 : f32, zero_masked_rows} : memref<2x8x4xf32>, memref<2x8x4xf32>, memref<2x8x4xf32>
  return
}

// -----

func.func @attention_depths(%q: memref<2x8x4xf32>, %k: memref<2x8x5xf32>, %v: memref<2x8x4xf32>, %o: memref<2x8x4xf32>) {
  // expected-error @+1 {{query and key depths disagree: 4 vs 5}}
  kernel.attention %q, %k, %v outs(%o : memref<2x8x4xf32>) {scale = 1.0 : f32} : memref<2x8x4xf32>, memref<2x8x5xf32>, memref<2x8x4xf32>
  return
}

// -----

func.func @attention_f16(%q: memref<2x8x4xf16>, %k: memref<2x8x4xf16>, %v: memref<2x8x4xf16>, %o: memref<2x8x4xf16>) {
  // expected-error @+1 {{expects f32 operands, got 'memref<2x8x4xf16>'}}
  kernel.attention %q, %k, %v outs(%o : memref<2x8x4xf16>) {scale = 1.0 : f32} : memref<2x8x4xf16>, memref<2x8x4xf16>, memref<2x8x4xf16>
  return
}

// -----

func.func @attention_bias(%q: memref<2x8x4xf32>, %k: memref<2x8x4xf32>, %v: memref<2x8x4xf32>, %b: memref<3x8xf32>, %o: memref<2x8x4xf32>) {
  // expected-error @+1 {{bias dim 0 (3) neither broadcasts nor equals score dim 1 (8)}}
  kernel.attention %q, %k, %v bias(%b : memref<3x8xf32>) outs(%o : memref<2x8x4xf32>) {bias_dims = array<i64: 1, 2>, scale = 1.0 : f32} : memref<2x8x4xf32>, memref<2x8x4xf32>, memref<2x8x4xf32>
  return
}

// -----

func.func @attention_result(%q: tensor<2x8x4xf32>, %o: tensor<2x8x4xf32>) {
  // expected-error @+1 {{expects one result of init's type on tensors, none on buffers}}
  kernel.attention %q, %q, %q outs(%o : tensor<2x8x4xf32>) {scale = 1.0 : f32} : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>
  return
}

// -----

func.func @attention_softcap(%q: memref<2x8x4xf32>, %k: memref<2x8x4xf32>, %v: memref<2x8x4xf32>, %o: memref<2x8x4xf32>) {
  // expected-error @+1 {{expects a softcap above 0, got -2}}
  kernel.attention %q, %k, %v outs(%o : memref<2x8x4xf32>) {scale = 1.0 : f32, softcap = -2.0 : f32} : memref<2x8x4xf32>, memref<2x8x4xf32>, memref<2x8x4xf32>
  return
}

// -----

func.func @attention_causal(%q: memref<2x8x4xf32>, %k: memref<2x8x4xf32>, %v: memref<2x8x4xf32>, %o: memref<2x8x4xf32>) {
  // expected-error @+1 {{expects a causal diagonal t >= 0 (row 0 keeps key 0), got -1}}
  kernel.attention %q, %k, %v outs(%o : memref<2x8x4xf32>) {scale = 1.0 : f32, causal = -1 : i64} : memref<2x8x4xf32>, memref<2x8x4xf32>, memref<2x8x4xf32>
  return
}

// -----

func.func @attention_heads(%q: memref<2x4x8x4xf32>, %k: memref<2x3x8x4xf32>, %v: memref<2x3x8x4xf32>, %o: memref<2x4x8x4xf32>) {
  // expected-error @+1 {{expects the key and value heads (dim 1) to equal the queries' or to be one static divisor of them, got 4 query, 3 key and 3 value heads}}
  kernel.attention %q, %k, %v outs(%o : memref<2x4x8x4xf32>) {scale = 1.0 : f32} : memref<2x4x8x4xf32>, memref<2x3x8x4xf32>, memref<2x3x8x4xf32>
  return
}

// -----

func.func @attention_value_heads(%q: memref<2x4x8x4xf32>, %k: memref<2x2x8x4xf32>, %v: memref<2x4x8x4xf32>, %o: memref<2x4x8x4xf32>) {
  // expected-error @+1 {{got 4 query, 2 key and 4 value heads}}
  kernel.attention %q, %k, %v outs(%o : memref<2x4x8x4xf32>) {scale = 1.0 : f32} : memref<2x4x8x4xf32>, memref<2x2x8x4xf32>, memref<2x4x8x4xf32>
  return
}
