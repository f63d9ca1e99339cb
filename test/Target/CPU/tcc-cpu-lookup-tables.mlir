// RUN: tcc-opt %s --tcc-cpu-lookup-tables=min-ops=8 --mlir-print-elementsattrs-with-hex-if-larger=1000 | FileCheck %s
// RUN: tcc-opt %s --tcc-cpu-lookup-tables | FileCheck %s --check-prefix=DEFAULT

// A dequantize, a bounded activation y / (1 + |y|) and a requantize of one uint8 value,
// then its dequantized result: a function of the byte alone, 19 ops. Its 256 results are
// folded into a private constant table; the body keeps the byte's extension, the index and
// the load. Entry k is computed from the byte k: 0 and 255 saturate to 0 and 255 after the
// zero point 128 (k = 0: y = -25.6, y / (1 + |y|) = -0.962..., / 0.0078125 = -123.1 ->
// -123 + 128 = 5 -> (5 - 128) * 0.0078125 = -0.9609375), and 128 is 0.
// CHECK: memref.global "private" constant @kernel_0_table_0 : memref<256xf32> = dense<[-0.9609375, -0.9609375,
// CHECK-SAME: -0.1640625, 0.000000e+00, 0.1640625,
// CHECK-LABEL: func.func private @kernel_0
// CHECK: %[[TABLE:.*]] = memref.get_global @kernel_0_table_0 : memref<256xf32>
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%[[Q:.*]]: i8, %{{.*}}: f32):
// CHECK-NEXT: %[[W:.*]] = arith.extui %[[Q]] : i8 to i32
// CHECK-NEXT: %[[I:.*]] = arith.index_cast %[[W]] : i32 to index
// CHECK-NEXT: %[[Y:.*]] = memref.load %[[TABLE]][%[[I]]] : memref<256xf32>
// CHECK-NEXT: linalg.yield %[[Y]] : f32
// 19 ops are fewer than the default 24: the body stays.
// DEFAULT-NOT: memref.global
// DEFAULT-LABEL: func.func private @kernel_0
// DEFAULT: arith.divf
#id = affine_map<(i) -> (i)>
func.func private @kernel_0(%q: memref<64xi8>, %y: memref<64xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  %zp = arith.constant 128 : i32
  %scale = arith.constant 0.2 : f32
  %one = arith.constant 1.0 : f32
  %out_scale = arith.constant 0.0078125 : f32
  %out_zp = arith.constant 128.0 : f32
  %hi = arith.constant 256.0 : f32
  %lo = arith.constant -1.0 : f32
  %c255 = arith.constant -1 : i8
  %c0 = arith.constant 0 : i8
  %c128 = arith.constant 128 : i32
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%q : memref<64xi8>) outs(%y : memref<64xf32>) {
  ^bb0(%in: i8, %o: f32):
    %0 = arith.extui %in : i8 to i32
    %1 = arith.subi %0, %zp : i32
    %2 = arith.sitofp %1 : i32 to f32
    %3 = arith.mulf %2, %scale : f32
    %4 = math.absf %3 : f32
    %5 = arith.addf %4, %one : f32
    %6 = arith.divf %3, %5 : f32
    %7 = arith.divf %6, %out_scale : f32
    %8 = math.roundeven %7 : f32
    %9 = arith.addf %8, %out_zp : f32
    %10 = arith.fptoui %9 : f32 to i8
    %11 = arith.cmpf oge, %9, %hi : f32
    %12 = arith.cmpf ole, %9, %lo : f32
    %13 = arith.select %11, %c255, %10 : i8
    %14 = arith.select %12, %c0, %13 : i8
    %15 = arith.extui %14 : i8 to i32
    %16 = arith.subi %15, %c128 : i32
    %17 = arith.sitofp %16 : i32 to f32
    %18 = arith.mulf %17, %out_scale : f32
    linalg.yield %18 : f32
  }
  return
}

// The chain reads a float input too (a residual): no op after the first that reads it is a
// function of the byte alone, and the 6 ops before it are too few.
// CHECK-LABEL: func.func private @kernel_1
// CHECK-NOT: memref.load
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
func.func private @kernel_1(%q: memref<64xi8>, %r: memref<64xf32>, %y: memref<64xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  %zp = arith.constant 128 : i32
  %scale = arith.constant 0.2 : f32
  %one = arith.constant 1.0 : f32
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%q, %r : memref<64xi8>, memref<64xf32>) outs(%y : memref<64xf32>) {
  ^bb0(%in: i8, %res: f32, %o: f32):
    %0 = arith.extui %in : i8 to i32
    %1 = arith.subi %0, %zp : i32
    %2 = arith.sitofp %1 : i32 to f32
    %3 = arith.mulf %2, %scale : f32
    %4 = arith.addf %3, %res : f32
    %5 = math.absf %4 : f32
    %6 = arith.addf %5, %one : f32
    %7 = arith.divf %4, %6 : f32
    %8 = arith.mulf %7, %7 : f32
    %9 = arith.addf %8, %one : f32
    linalg.yield %9 : f32
  }
  return
}

// math.exp in a body that reads bytes becomes tcc-approximate-math's polynomial here (the
// ops the run would compute later), so it folds with the rest: y = (1 + (1 / (e^x + 1))^4)^2,
// x = (k - 128) * 0.2; entry 0 (x = -25.6): (1 + 1)^2 = 4; entry 128 (x = 0): (1 + 1/16)^2 =
// 1.12890625; entry 255: 1.
// CHECK: memref.global "private" constant @kernel_2_table_0 : memref<256xf32> = dense<[4.000000e+00,
// CHECK-SAME: 1.19114494, 1.12890625, 1.083820e+00,
// CHECK-SAME: 1.000000e+00]>
// CHECK-LABEL: func.func private @kernel_2
// CHECK: linalg.generic
// CHECK-NOT: math.exp
// CHECK: memref.load
// CHECK-NEXT: linalg.yield
func.func private @kernel_2(%q: memref<64xi8>, %y: memref<64xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  %zp = arith.constant 128 : i32
  %scale = arith.constant 0.2 : f32
  %one = arith.constant 1.0 : f32
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%q : memref<64xi8>) outs(%y : memref<64xf32>) {
  ^bb0(%in: i8, %o: f32):
    %0 = arith.extui %in : i8 to i32
    %1 = arith.subi %0, %zp : i32
    %2 = arith.sitofp %1 : i32 to f32
    %3 = arith.mulf %2, %scale : f32
    %4 = math.exp %3 : f32
    %5 = arith.addf %4, %one : f32
    %6 = arith.divf %one, %5 : f32
    %7 = arith.mulf %6, %6 : f32
    %8 = arith.mulf %7, %6 : f32
    %9 = arith.mulf %8, %6 : f32
    %10 = arith.addf %9, %one : f32
    %11 = arith.mulf %10, %10 : f32
    linalg.yield %11 : f32
  }
  return
}

// A requantize to another scale that saturates: (q - 128) * 0.2 / 0.05 + 128, 12 ops, an i8
// result. Gathers load 32-bit lanes, so the table holds the bytes zero-extended to i32 and
// the load is truncated. Out of range fptoui is poison in the run and 0 here: the selects
// replace it either way (byte 0: -384 -> 0; 128: 128, the byte 0x80 = 128; 160: 256, not
// below 256 -> 255; 255: 636 -> 255).
// CHECK: memref.global "private" constant @kernel_3_table_0 : memref<256xi32> = dense<[0, 0,
// CHECK-SAME: 96, 100, 104, 108, 112, 116, 120, 124, 128, 132, 136,
// CHECK-SAME: 248, 252, 255, 255,
// CHECK-LABEL: func.func private @kernel_3
// CHECK: %[[TABLE:.*]] = memref.get_global @kernel_3_table_0 : memref<256xi32>
// CHECK: %[[I:.*]] = arith.index_cast
// CHECK-NEXT: %[[W:.*]] = memref.load %[[TABLE]][%[[I]]] : memref<256xi32>
// CHECK-NEXT: %[[B:.*]] = arith.trunci %[[W]] : i32 to i8
// CHECK-NEXT: linalg.yield %[[B]] : i8
func.func private @kernel_3(%q: memref<64xi8>, %y: memref<64xi8>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  %zp = arith.constant 128 : i32
  %scale = arith.constant 0.2 : f32
  %out_scale = arith.constant 0.05 : f32
  %out_zp = arith.constant 128.0 : f32
  %hi = arith.constant 256.0 : f32
  %lo = arith.constant -1.0 : f32
  %c255 = arith.constant -1 : i8
  %c0 = arith.constant 0 : i8
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%q : memref<64xi8>) outs(%y : memref<64xi8>) {
  ^bb0(%in: i8, %o: i8):
    %0 = arith.extui %in : i8 to i32
    %1 = arith.subi %0, %zp : i32
    %2 = arith.sitofp %1 : i32 to f32
    %3 = arith.mulf %2, %scale : f32
    %4 = arith.divf %3, %out_scale : f32
    %5 = math.roundeven %4 : f32
    %6 = arith.addf %5, %out_zp : f32
    %7 = arith.fptoui %6 : f32 to i8
    %8 = arith.cmpf oge, %6, %hi : f32
    %9 = arith.cmpf ole, %6, %lo : f32
    %10 = arith.select %8, %c255, %7 : i8
    %11 = arith.select %9, %c0, %10 : i8
    linalg.yield %11 : i8
  }
  return
}

// A quantized erf (a GELU's, between a dequantization and a requantization): its math.erf
// becomes tcc-approximate-math's polynomial here, so the whole body is a function of the
// byte: entry k = Q(erf((k - 128) * 0.05)) with the output step 1/128 and zero point 128,
// e.g. k = 138: erf(0.5) = 0.5205 -> 66.6 -> 67 + 128 = 195; k = 148: erf(1) -> 236.
// CHECK: memref.global "private" constant @kernel_4_table_0 : memref<256xi32> = dense<[0, 0,
// CHECK-SAME: 73, 79, 86, 93, 99, 106, 114, 121, 128, 135, 142, 150, 157, 163, 170, 177, 183, 189, 195, 200, 205, 210, 215, 219, 223, 227, 230, 233, 236, 238,
// CHECK-LABEL: func.func private @kernel_4
// CHECK: linalg.generic
// CHECK-NOT: math.erf
// CHECK: memref.load
// CHECK-NEXT: arith.trunci
// CHECK-NEXT: linalg.yield
func.func private @kernel_4(%q: memref<64xi8>, %y: memref<64xi8>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  %zp = arith.constant 128 : i32
  %scale = arith.constant 0.05 : f32
  %out_scale = arith.constant 0.0078125 : f32
  %out_zp = arith.constant 128.0 : f32
  %hi = arith.constant 256.0 : f32
  %lo = arith.constant -1.0 : f32
  %c255 = arith.constant -1 : i8
  %c0 = arith.constant 0 : i8
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%q : memref<64xi8>) outs(%y : memref<64xi8>) {
  ^bb0(%in: i8, %o: i8):
    %0 = arith.extui %in : i8 to i32
    %1 = arith.subi %0, %zp : i32
    %2 = arith.sitofp %1 : i32 to f32
    %3 = arith.mulf %2, %scale : f32
    %4 = math.erf %3 : f32
    %5 = arith.divf %4, %out_scale : f32
    %6 = math.roundeven %5 : f32
    %7 = arith.addf %6, %out_zp : f32
    %8 = arith.fptoui %7 : f32 to i8
    %9 = arith.cmpf oge, %7, %hi : f32
    %10 = arith.cmpf ole, %7, %lo : f32
    %11 = arith.select %9, %c255, %8 : i8
    %12 = arith.select %10, %c0, %11 : i8
    linalg.yield %12 : i8
  }
  return
}

// The table's byte is a float requantized in the body (an int32 accumulator scaled, as a
// convolution's epilogue does before the swish), saturated to u8 as lower::convert does:
// trunc(fptosi(min(max(x, 0), 255))). The position is that i32 itself (in [0, 255]): the
// vector code needs no byte lanes; the truncation nothing reads any more is erased.
// CHECK-LABEL: func.func private @kernel_5
// CHECK: %[[X:.*]] = arith.addf
// CHECK-NEXT: %[[MAX:.*]] = arith.maxnumf %[[X]], %{{.*}} : f32
// CHECK-NEXT: %[[MIN:.*]] = arith.minnumf %[[MAX]], %{{.*}} : f32
// CHECK-NEXT: %[[P:.*]] = arith.fptosi %[[MIN]] : f32 to i32
// CHECK-NEXT: %[[I:.*]] = arith.index_cast %[[P]] : i32 to index
// CHECK-NEXT: memref.load %{{.*}}[%[[I]]] : memref<256xf32>
func.func private @kernel_5(%acc: memref<64xi32>, %y: memref<64xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  %zp = arith.constant 128 : i32
  %scale = arith.constant 0.2 : f32
  %one = arith.constant 1.0 : f32
  %out_scale = arith.constant 0.0078125 : f32
  %out_zp = arith.constant 128.0 : f32
  %hi = arith.constant 256.0 : f32
  %lo = arith.constant -1.0 : f32
  %c255 = arith.constant -1 : i8
  %c0 = arith.constant 0 : i8
  %c128 = arith.constant 128 : i32
  %requant = arith.constant 0.01 : f32
  %zero = arith.constant 0.0 : f32
  %top = arith.constant 255.0 : f32
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%acc : memref<64xi32>) outs(%y : memref<64xf32>) {
  ^bb0(%a: i32, %o: f32):
    %f = arith.sitofp %a : i32 to f32
    %m = arith.mulf %f, %requant : f32
    %r = math.roundeven %m : f32
    %x = arith.addf %r, %out_zp : f32
    %c = arith.maxnumf %x, %zero : f32
    %d = arith.minnumf %c, %top : f32
    %w = arith.fptosi %d : f32 to i32
    %s = arith.trunci %w : i32 to i8
    %0 = arith.extui %s : i8 to i32
    %1 = arith.subi %0, %zp : i32
    %2 = arith.sitofp %1 : i32 to f32
    %3 = arith.mulf %2, %scale : f32
    %4 = math.absf %3 : f32
    %5 = arith.addf %4, %one : f32
    %6 = arith.divf %3, %5 : f32
    %7 = arith.divf %6, %out_scale : f32
    %8 = math.roundeven %7 : f32
    %9 = arith.addf %8, %out_zp : f32
    %10 = arith.fptoui %9 : f32 to i8
    %11 = arith.cmpf oge, %9, %hi : f32
    %12 = arith.cmpf ole, %9, %lo : f32
    %13 = arith.select %11, %c255, %10 : i8
    %14 = arith.select %12, %c0, %13 : i8
    %15 = arith.extui %14 : i8 to i32
    %16 = arith.subi %15, %c128 : i32
    %17 = arith.sitofp %16 : i32 to f32
    %18 = arith.mulf %17, %out_scale : f32
    linalg.yield %18 : f32
  }
  return
}

// A byte truncated from some other i32 (here a sum): the position is w & 255, which is
// zext(trunc(w)) for every w.
// CHECK-LABEL: func.func private @kernel_6
// CHECK-NOT: arith.maxnumf
// CHECK: %[[W:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[MASK:.*]] = arith.constant 255 : i32
// CHECK-NEXT: %[[P:.*]] = arith.andi %[[W]], %[[MASK]] : i32
// CHECK-NEXT: %[[I:.*]] = arith.index_cast %[[P]] : i32 to index
// CHECK-NEXT: memref.load %{{.*}}[%[[I]]] : memref<256xf32>
func.func private @kernel_6(%acc: memref<64xi32>, %y: memref<64xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  %zp = arith.constant 128 : i32
  %scale = arith.constant 0.2 : f32
  %one = arith.constant 1.0 : f32
  %out_scale = arith.constant 0.0078125 : f32
  %out_zp = arith.constant 128.0 : f32
  %hi = arith.constant 256.0 : f32
  %lo = arith.constant -1.0 : f32
  %c255 = arith.constant -1 : i8
  %c0 = arith.constant 0 : i8
  %c128 = arith.constant 128 : i32
  %bias = arith.constant 7 : i32
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%acc : memref<64xi32>) outs(%y : memref<64xf32>) {
  ^bb0(%a: i32, %o: f32):
    %w = arith.addi %a, %bias : i32
    %s = arith.trunci %w : i32 to i8
    %0 = arith.extui %s : i8 to i32
    %1 = arith.subi %0, %zp : i32
    %2 = arith.sitofp %1 : i32 to f32
    %3 = arith.mulf %2, %scale : f32
    %4 = math.absf %3 : f32
    %5 = arith.addf %4, %one : f32
    %6 = arith.divf %3, %5 : f32
    %7 = arith.divf %6, %out_scale : f32
    %8 = math.roundeven %7 : f32
    %9 = arith.addf %8, %out_zp : f32
    %10 = arith.fptoui %9 : f32 to i8
    %11 = arith.cmpf oge, %9, %hi : f32
    %12 = arith.cmpf ole, %9, %lo : f32
    %13 = arith.select %11, %c255, %10 : i8
    %14 = arith.select %12, %c0, %13 : i8
    %15 = arith.extui %14 : i8 to i32
    %16 = arith.subi %15, %c128 : i32
    %17 = arith.sitofp %16 : i32 to f32
    %18 = arith.mulf %17, %out_scale : f32
    linalg.yield %18 : f32
  }
  return
}


// Not a kernel (the host's code): left alone.
// CHECK-LABEL: func.func @host
// CHECK-NOT: memref.load
func.func @host(%q: memref<64xi8>, %y: memref<64xf32>) {
  %zp = arith.constant 128 : i32
  %scale = arith.constant 0.2 : f32
  %one = arith.constant 1.0 : f32
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%q : memref<64xi8>) outs(%y : memref<64xf32>) {
  ^bb0(%in: i8, %o: f32):
    %0 = arith.extui %in : i8 to i32
    %1 = arith.subi %0, %zp : i32
    %2 = arith.sitofp %1 : i32 to f32
    %3 = arith.mulf %2, %scale : f32
    %4 = math.absf %3 : f32
    %5 = arith.addf %4, %one : f32
    %6 = arith.divf %3, %5 : f32
    %7 = arith.mulf %6, %6 : f32
    %8 = arith.mulf %7, %6 : f32
    %9 = arith.addf %8, %one : f32
    linalg.yield %9 : f32
  }
  return
}
