// RUN: tcc-opt %s --tcc-tile-contractions="vector-bits=512 vector-registers=32 word-permutes=true" --canonicalize --cse | FileCheck %s
// RUN: tcc-opt %s --tcc-tile-contractions="vector-bits=512 vector-registers=32" --canonicalize --cse | FileCheck %s --check-prefix=GATHER

#ea = affine_map<(i, j, k) -> (i, k)>
#eb = affine_map<(i, j, k) -> (k, j)>
#ec = affine_map<(i, j, k) -> (i, j)>
#eid = affine_map<(i, j) -> (i, j)>

// A table of tcc-cpu-lookup-tables in an epilogue: the accumulators saturated to a byte's
// position, a byte's table (entries zero-extended to i32, truncated after the load). With
// word permutes (AVX512-BW) the 256 entries are eight registers of 32 words, entry
// 32r + i in lane i of register r (t[k] = 3k mod 256 here: register 1 starts at t[32] = 96);
// each vector of 16 positions becomes words repeated to 32 lanes, four vpermi2w over the
// register pairs and three selects on bits 6 and 7 of the position, its first 16 lanes
// zero-extended to i32. No gather, no memory read at the positions.
// CHECK-LABEL: func.func private @byte_table
// CHECK-DAG: %[[C128:.*]] = arith.constant dense<128> : vector<32xi16>
// CHECK-DAG: %[[C64:.*]] = arith.constant dense<64> : vector<32xi16>
// CHECK-DAG: %[[T0:.*]] = arith.constant dense<[0, 3, 6, {{.*}}]> : vector<32xi16>
// CHECK-DAG: %[[T1:.*]] = arith.constant dense<[96, 99, 102, {{.*}}]> : vector<32xi16>
// CHECK-DAG: %[[T2:.*]] = arith.constant dense<[192, 195, 198, {{.*}}]> : vector<32xi16>
// CHECK-DAG: %[[T3:.*]] = arith.constant dense<[32, 35, 38, {{.*}}]> : vector<32xi16>
// CHECK-DAG: %[[T4:.*]] = arith.constant dense<[128, 131, 134, {{.*}}]> : vector<32xi16>
// CHECK-DAG: %[[T5:.*]] = arith.constant dense<[224, 227, 230, {{.*}}]> : vector<32xi16>
// CHECK-DAG: %[[T6:.*]] = arith.constant dense<[64, 67, 70, {{.*}}]> : vector<32xi16>
// CHECK-DAG: %[[T7:.*]] = arith.constant dense<[160, 163, 166, {{.*}}]> : vector<32xi16>
// CHECK-NOT: vector.gather
// CHECK: vector.fma
// CHECK: %[[POS:.*]] = arith.fptosi %{{.*}} : vector<16xf32> to vector<16xi32>
// CHECK: %[[WORDS:.*]] = arith.trunci %[[POS]] : vector<16xi32> to vector<16xi16>
// CHECK: %[[INDEX:.*]] = vector.shuffle %[[WORDS]], %[[WORDS]] [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] : vector<16xi16>, vector<16xi16>
// CHECK-DAG: %[[M6:.*]] = arith.andi %[[INDEX]], %[[C64]] : vector<32xi16>
// CHECK-DAG: %[[BIT6:.*]] = arith.cmpi ne, %[[M6]], %{{.*}} : vector<32xi16>
// CHECK-DAG: %[[M7:.*]] = arith.andi %[[INDEX]], %[[C128]] : vector<32xi16>
// CHECK-DAG: %[[BIT7:.*]] = arith.cmpi ne, %[[M7]], %{{.*}} : vector<32xi16>
// CHECK-DAG: %[[A:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpermi2var.hi.512"(%[[T0]], %[[INDEX]], %[[T1]]) : (vector<32xi16>, vector<32xi16>, vector<32xi16>) -> vector<32xi16>
// CHECK-DAG: %[[B:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpermi2var.hi.512"(%[[T2]], %[[INDEX]], %[[T3]])
// CHECK-DAG: %[[C:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpermi2var.hi.512"(%[[T4]], %[[INDEX]], %[[T5]])
// CHECK-DAG: %[[D:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpermi2var.hi.512"(%[[T6]], %[[INDEX]], %[[T7]])
// CHECK-DAG: %[[LOW:.*]] = arith.select %[[BIT6]], %[[B]], %[[A]] : vector<32xi1>, vector<32xi16>
// CHECK-DAG: %[[HIGH:.*]] = arith.select %[[BIT6]], %[[D]], %[[C]] : vector<32xi1>, vector<32xi16>
// CHECK: %[[PICKED:.*]] = arith.select %[[BIT7]], %[[HIGH]], %[[LOW]] : vector<32xi1>, vector<32xi16>
// CHECK: %[[PART:.*]] = vector.extract_strided_slice %[[PICKED]] {offsets = [0], sizes = [16], strides = [1]} : vector<32xi16> to vector<16xi16>
// (The entries' extension to i32 and the epilogue's truncation to bytes fold into one.)
// CHECK: %[[BYTE:.*]] = arith.trunci %[[PART]] : vector<16xi16> to vector<16xi8>
// CHECK: vector.store %[[BYTE]], %arg0
// Without the option: a gather.
// GATHER-LABEL: func.func private @byte_table
// GATHER-NOT: llvm.call_intrinsic
// GATHER: vector.gather
memref.global "private" constant @byte_table_table_0 : memref<256xi32> = dense<[0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45, 48, 51, 54, 57, 60, 63, 66, 69, 72, 75, 78, 81, 84, 87, 90, 93, 96, 99, 102, 105, 108, 111, 114, 117, 120, 123, 126, 129, 132, 135, 138, 141, 144, 147, 150, 153, 156, 159, 162, 165, 168, 171, 174, 177, 180, 183, 186, 189, 192, 195, 198, 201, 204, 207, 210, 213, 216, 219, 222, 225, 228, 231, 234, 237, 240, 243, 246, 249, 252, 255, 2, 5, 8, 11, 14, 17, 20, 23, 26, 29, 32, 35, 38, 41, 44, 47, 50, 53, 56, 59, 62, 65, 68, 71, 74, 77, 80, 83, 86, 89, 92, 95, 98, 101, 104, 107, 110, 113, 116, 119, 122, 125, 128, 131, 134, 137, 140, 143, 146, 149, 152, 155, 158, 161, 164, 167, 170, 173, 176, 179, 182, 185, 188, 191, 194, 197, 200, 203, 206, 209, 212, 215, 218, 221, 224, 227, 230, 233, 236, 239, 242, 245, 248, 251, 254, 1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 34, 37, 40, 43, 46, 49, 52, 55, 58, 61, 64, 67, 70, 73, 76, 79, 82, 85, 88, 91, 94, 97, 100, 103, 106, 109, 112, 115, 118, 121, 124, 127, 130, 133, 136, 139, 142, 145, 148, 151, 154, 157, 160, 163, 166, 169, 172, 175, 178, 181, 184, 187, 190, 193, 196, 199, 202, 205, 208, 211, 214, 217, 220, 223, 226, 229, 232, 235, 238, 241, 244, 247, 250, 253]>
func.func private @byte_table(%y: memref<6x16xi8>, %out: memref<6x16xf32>, %a: memref<6x32xf32>, %b: memref<32x16xf32>) attributes {kernel.kernel = #kernel.kernel<kind = contraction, epilogue = true>} {
  %table = memref.get_global @byte_table_table_0 : memref<256xi32>
  %zero = arith.constant 0.0 : f32
  %top = arith.constant 255.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<6x16xf32>)
  linalg.generic {indexing_maps = [#ea, #eb, #ec], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<6x32xf32>, memref<32x16xf32>) outs(%out : memref<6x16xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %0 = arith.mulf %x, %w : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#eid, #eid], iterator_types = ["parallel", "parallel"]}
      ins(%out : memref<6x16xf32>) outs(%y : memref<6x16xi8>) {
  ^bb0(%in: f32, %o: i8):
    %0 = arith.maxnumf %in, %zero : f32
    %1 = arith.minnumf %0, %top : f32
    %2 = arith.fptosi %1 : f32 to i32
    %3 = arith.index_cast %2 : i32 to index
    %4 = memref.load %table[%3] : memref<256xi32>
    %5 = arith.trunci %4 : i32 to i8
    linalg.yield %5 : i8
  }
  return
}

// An entry past 16 bits (70000 at 200): the table stays a gather.
// CHECK-LABEL: func.func private @wide_table
// CHECK-NOT: llvm.call_intrinsic
// CHECK: vector.gather
memref.global "private" constant @wide_table_table_0 : memref<256xi32> = dense<[0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45, 48, 51, 54, 57, 60, 63, 66, 69, 72, 75, 78, 81, 84, 87, 90, 93, 96, 99, 102, 105, 108, 111, 114, 117, 120, 123, 126, 129, 132, 135, 138, 141, 144, 147, 150, 153, 156, 159, 162, 165, 168, 171, 174, 177, 180, 183, 186, 189, 192, 195, 198, 201, 204, 207, 210, 213, 216, 219, 222, 225, 228, 231, 234, 237, 240, 243, 246, 249, 252, 255, 2, 5, 8, 11, 14, 17, 20, 23, 26, 29, 32, 35, 38, 41, 44, 47, 50, 53, 56, 59, 62, 65, 68, 71, 74, 77, 80, 83, 86, 89, 92, 95, 98, 101, 104, 107, 110, 113, 116, 119, 122, 125, 128, 131, 134, 137, 140, 143, 146, 149, 152, 155, 158, 161, 164, 167, 170, 173, 176, 179, 182, 185, 188, 191, 194, 197, 200, 203, 206, 209, 212, 215, 218, 221, 224, 227, 230, 233, 236, 239, 242, 245, 248, 251, 254, 1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 34, 37, 40, 43, 46, 49, 52, 55, 58, 61, 64, 67, 70, 73, 76, 79, 82, 85, 70000, 91, 94, 97, 100, 103, 106, 109, 112, 115, 118, 121, 124, 127, 130, 133, 136, 139, 142, 145, 148, 151, 154, 157, 160, 163, 166, 169, 172, 175, 178, 181, 184, 187, 190, 193, 196, 199, 202, 205, 208, 211, 214, 217, 220, 223, 226, 229, 232, 235, 238, 241, 244, 247, 250, 253]>
func.func private @wide_table(%y: memref<6x16xi32>, %out: memref<6x16xf32>, %a: memref<6x32xf32>, %b: memref<32x16xf32>) attributes {kernel.kernel = #kernel.kernel<kind = contraction, epilogue = true>} {
  %table = memref.get_global @wide_table_table_0 : memref<256xi32>
  %zero = arith.constant 0.0 : f32
  %top = arith.constant 255.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<6x16xf32>)
  linalg.generic {indexing_maps = [#ea, #eb, #ec], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<6x32xf32>, memref<32x16xf32>) outs(%out : memref<6x16xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %0 = arith.mulf %x, %w : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#eid, #eid], iterator_types = ["parallel", "parallel"]}
      ins(%out : memref<6x16xf32>) outs(%y : memref<6x16xi32>) {
  ^bb0(%in: f32, %o: i32):
    %0 = arith.maxnumf %in, %zero : f32
    %1 = arith.minnumf %0, %top : f32
    %2 = arith.fptosi %1 : f32 to i32
    %3 = arith.index_cast %2 : i32 to index
    %4 = memref.load %table[%3] : memref<256xi32>
    linalg.yield %4 : i32
  }
  return
}
