// RUN: tcc-opt %s --tcc-gpu-lower-attention=subgroups=false --verify-diagnostics
// Without subgroups only the block tiles lower kernel.attention; a query depth that is not a
// multiple of 4 is an error naming the op (with subgroups the warp per row takes it).

func.func @odd_depth(%q: memref<2x8x6xf32>, %k: memref<2x8x6xf32>, %v: memref<2x8x4xf32>, %o: memref<2x8x4xf32>) {
  // expected-error @+1 {{must have static query and value depths of at most 128 and multiples of 4 when a GPU target without subgroups lowers it}}
  kernel.attention %q, %k, %v outs(%o : memref<2x8x4xf32>) {scale = 1.0 : f32} : memref<2x8x6xf32>, memref<2x8x6xf32>, memref<2x8x4xf32>
  return
}
