//===- Passes.td - fusion and kernel formation: linalg ops grouped into kernels ----------===//
#ifndef TCC_FUSE_PASSES
#define TCC_FUSE_PASSES

include "mlir/Pass/PassBase.td"

def FuseElementwise : Pass<"tcc-fuse-elementwise", "mlir::ModuleOp"> {
  let summary = "Fuse pointwise producers into their linalg.generic consumers";
  let description = [{
    On tensors, after lowering to linalg: an all-parallel `linalg.generic` whose result is
    read by another `linalg.generic` is merged into it (upstream's elementwise fusion, by
    the indexing maps), so chains of pointwise ops, broadcasts feeding them, and pointwise
    producers of reductions (softmax's `x - max`, layer norm's centring) become one loop
    nest and no full-size intermediate is written. A producer is fused when it has one
    user that reads each of its elements once (not through a broadcast), or when it is
    pure data movement or one arith op other than a division on stored values (a bias add,
    a cast), which are recomputed per user instead of stored while the fused body stays
    within 24 ops — except a contraction's only reader (a convolution's bias add), which
    stays its epilogue. Contractions (a
    multiply-accumulate body with a reduction) are not consumers: they keep the form the
    contraction tiler recognizes, and their epilogues are fused at kernel formation. With
    `byte-operands` (CPUs, whose tiler converts the bytes it loads), one exception: a
    conversion of 8-bit integers to float32 read by a float multiply-add alone is fused into
    it (`out + uitofp(q) * w`: a quantized depthwise convolution on blocks reads the bytes,
    a quarter of the float blocks' memory traffic).

    Before fusing, a widening of 8- or 16-bit integers (extensions, conversions to float,
    additions or subtractions of constants: a quantized activation's `q - z`) read by
    several pointwise ops or reductions and no contraction is copied for each reader but
    the first: each reader fuses its own copy, and the producer of q (a convolution's
    epilogue) stores bytes instead of int32 (EfficientNet-B0 QOperator's depthwise
    convolutions, read by the squeeze-excitation's pooling and scale multiply).

    ```mlir
    %b = linalg.generic {broadcast %bias} ...           // [96] -> [1,96,112,112]
    %s = linalg.generic {addf} ins(%conv, %b) ...
    %r = linalg.generic {maximumf 0} ins(%s) ...
    // becomes one generic: addf, maximumf, reading %bias through affine_map<(n,c,h,w) -> (c)>
    ```
  }];
  let options = [
    Option<"byteOperands", "byte-operands", "bool", /*default=*/"false",
           "Conversions of bytes to float32 fused into the multiply-add contractions reading "
           "them (the target's tiler converts on load)">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def SplitReductions : Pass<"tcc-split-reductions", "mlir::ModuleOp"> {
  let summary = "Split long contractions over few output tiles into partial sums along k";
  let description = [{
    On tensors, before elementwise fusion, for GPU targets (TargetInfo::splitReductionSlice):
    a multiply-add contraction with one static reduction dim K, rows, and static columns
    (output dims only the second input reads) of at most `max-columns` becomes partial
    products over S slices of the reduction and their elementwise sum:

        P[s, m.., n] = sum_{k < K/S} X[m.., s, k] Y[s, k, n]   (fill 0; X and Y viewed with
        C[m.., n]    = init + P[0, m.., n] + ... + P[S - 1, m.., n]          K as [S, K/S])

    S is the largest power of two up to `max-splits` whose slices keep at least `slice`
    positions and a multiple of 4. The partials are a block-tiled contraction with S times
    the tiles; the sum reads each partial once in a fixed order (every run gives the same
    bits) and elementwise fusion merges it with the epilogue. Static contractions of fewer
    than 2^18 outputs (split lanes on a GPU) are left alone.

    ```mlir
    %c = linalg.generic {mul, add} ins(%a, %b : tensor<?x1024xf32>, tensor<1024x256xf32>)
         outs(%fill : tensor<?x256xf32>)
    // becomes, with slice = 256:
    %a4 = tensor.expand_shape %a [[0], [1, 2]] : tensor<?x1024xf32> into tensor<?x4x256xf32>
    %b4 = tensor.expand_shape %b [[0, 1], [2]] : tensor<1024x256xf32> into tensor<4x256x256xf32>
    %p = linalg.generic {mul, add} (s, m, n, k) ins(%a4 [m, s, k], %b4 [s, k, n])
         outs(%zeros : tensor<4x?x256xf32>)
    %c = linalg.generic {addf x3} ins(%p [0, m, n], %p [1, m, n], %p [2, m, n], %p [3, m, n])
    ```
  }];
  let options = [
    Option<"slice", "slice", "int64_t", /*default=*/"0",
           "0 (off), or the fewest reduction positions a slice keeps">,
    Option<"maxSplits", "max-splits", "int64_t", /*default=*/"4",
           "The most slices (a power of two)">,
    Option<"maxColumns", "max-columns", "int64_t", /*default=*/"512",
           "The most columns (static) a split contraction has">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def SplitStridedConvolutions : Pass<"tcc-split-strided-convolutions", "mlir::ModuleOp"> {
  let summary = "Strided convolutions as sums of unit-stride ones over column phases";
  let description = [{
    On prim, after tcc-unfold-convolutions, for x86 CPU targets
    (TargetInfo::splitStridedConvolutions). The tiler vectorizes a convolution along its
    output rows; with a column stride s each vector of outputs gathers every s-th input
    column: two loads and a two-source permute per vector at 512 bits, more at 256, for
    every reduction point. Split by the window column's remainder r = kx mod s, the input's
    columns s x' + r (phase r, copied out once) make each part a unit-stride convolution
    with the window's columns r, r + s, ...:

        xp = pad(x) along the columns
        p_r[n, c, y, x'] = xp[n, c, y, s x' + r]                 (x' < OW + T_r - 1)
        w_r[o, c, ky, q] = w[o, c, ky, s q + r]                  (q < T_r = ceil((KW - r) / s))
        out = sum_r conv(p_r, w_r; strides (sy, 1), the rows' padding and dilation)

    The phases together copy the padded input once; the products are the same ones, added
    phase by phase (the bits may differ from the strided form's). Measured on the Zen 5
    here (one-convolution models, scripts/conv_shapes.py): at 256 bits ResNet's stride-2
    convolutions take 0.73-0.88 of the strided form's time (conv1's 7x7 window included); at
    512 bits those whose output rows fit one vector (14 points: 0.74 of the time) gain, wider
    ones do not (28 points: 0.94-1.09), so `all-widths` is set at 256 bits only. One group
    (depthwise convolutions read too little per copied column: 1.1-1.9x slower split), 2-D,
    static input columns, filter and output row length, unit column dilation, KW >= s.

    ```mlir
    %y = prim.convolution %x, %w {strides = [2, 2], padding_low = [1, 1], padding_high = [1, 1]}
         : (tensor<1x128x28x28xf32>, tensor<256x128x3x3xf32>) -> tensor<1x256x14x14xf32>
    // becomes: pad the columns to 1x128x28x30; phase 0 = columns 0, 2, ... (15 of them) with
    // w[:, :, :, 0::2] (3x2), phase 1 = columns 1, 3, ... (14) with w[:, :, :, 1::2] (3x1);
    // two convolutions with strides [2, 1] and padding [1, 0], and their sum
    ```
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"0",
           "0 (off), or the width of the target's vectors in bits">,
    Option<"allWidths", "all-widths", "bool", /*default=*/"false",
           "Split whatever the output row length; else only rows that fit one vector">,
  ];
  let dependentDialects = ["::tcc::prim::PrimDialect"];
}

def PairBf16Contractions : Pass<"tcc-pair-bf16-contractions", "mlir::ModuleOp"> {
  let summary = "float32 contractions as dot products of bf16 pairs (--precision=bf16)";
  let description = [{
    On linalg tensors, for CPU targets with AVX512-BF16 under `--precision=bf16`
    (TargetInfo::bf16Pairs). vdpbf16ps adds to each float32 lane the products of a pair of
    bf16 values from each operand: twice the multiply-adds of an FMA, its inputs rounded to
    bf16, its sums float32. A float32 multiply-add contraction (matrix products,
    convolutions of one group) over a reduction dim r of static extent (at least
    `min-extent`) that both inputs read as a plain index takes the pair from r:

        x'[..., r', ..., p] = bf16(x[..., 2 r' + p, ...])       (the same for the other input;
                                                                  0 past x's extent)
        out[...] += f32(a'[..., r', ..., p]) * f32(b'[..., r', ..., p])   (p: a new last
                                                                            reduction dim)

    Of the dims that qualify, the longest of even extent (a convolution's input channels, a
    matrix product's inner dim), else the longest odd one, whose last pair a zero completes
    (ResNet's stem: 3 channels as 2 pairs). Constant inputs (weights) are packed and rounded
    here, while compiling; a zero-padded input is packed before its padding (the padding
    moves after it: kernel formation computes the packed values into the padded buffer);
    pairs along an input's last dim are its own order (a rounding, which fuses with its
    producer, and a view); others get a packing generic. The products are exact in float32
    (8-bit significands), so the result differs from float32's by the inputs' rounding
    (relative 2^-9 each) and the order of the sums. Dynamic reduction extents, grouped
    (depthwise) convolutions, whose reductions are the window's, and integer or float64
    contractions are left as they are.

    ```mlir
    linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x64x58x58xf32>, tensor<64x64x3x3xf32>)
    // becomes: %w' = a constant tensor<64x32x3x3x2xbf16>; %x' = pad(pack(x)) :
    // tensor<1x32x58x58x2xbf16>; a generic over (n, o, y, x, c', ky, kx, p) reading
    // %x'[n, c', y + ky, x + kx, p] and %w'[o, c', ky, kx, p]
    ```
  }];
  let options = [
    Option<"minExtent", "min-extent", "int64_t", /*default=*/"3",
           "The shortest reduction extent that is paired">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def RequantizeClamps : Pass<"tcc-requantize-clamps", "mlir::ModuleOp"> {
  let summary = "Quantize(Clip(Dequantize(q))) with one scale and zero point as a clamp of q";
  let description = [{
    On prim, for every target: a QDQ model's activation (Relu, Clip, ReLU6) between a
    DequantizeLinear and a QuantizeLinear of the same scale s > 0 and zero point z

        y = saturate(round_half_even(clip(v, lo, hi) / s) + z),   v = (q - z) s

    is computed on the 8-bit values q: Q(v) = saturate(round_half_even(v / s) + z) is
    monotone (s > 0), so it commutes with max and min, and Q((q - z) s) = q exactly (the
    quotient ((q - z) s) / s is within a few ulps of the integer q - z), so

        y = min(max(q, Q(lo)), Q(hi))

    with the bounds' Q computed while compiling in float32 as the run would. The max and
    min keep their order (a Relu is one max). This is what ONNX Runtime does when it drops a
    Relu or Clip from a QDQ group; the results are the same bits, minus a division and a
    rounding per element.

    ```mlir
    %v = prim.mul (prim.convert (prim.sub (prim.convert %q), 53)), 0.02
    %y = prim.convert (prim.add (prim.round_even (prim.div (prim.min (prim.max %v, 0), 6), 0.02)), 53)
    // becomes: prim.convert (prim.min (prim.max (prim.convert %q : i32), 53), 254)
    ```

    A max pooling (prim.reduce_window max) under the QuantizeLinear, of such clamps or of
    the dequantized values themselves (QuantizeLinear(MaxPool(DequantizeLinear(q))), ResNet's
    stem), becomes the same pooling of the 8-bit values (after their clamps): Q is monotone,
    so the largest dequantized value quantizes to the largest q, and the pooling's padding,
    the 8-bit type's least value, is what the float padding -inf quantizes to (saturated).
    Measured (Zen 4, torch-quantized ResNet-18, batch 1, 1 thread): the stem's output is
    written as bytes for the pooling, not as dequantized floats, 9.62 -> 9.42 ms; outputs
    the same bits.
  }];
  let dependentDialects = ["::tcc::prim::PrimDialect", "::mlir::arith::ArithDialect"];
}

def IntegerContractions : Pass<"tcc-integer-contractions", "mlir::ModuleOp"> {
  let summary = "Quantized contractions as products of uint8 activations and int8 weights";
  let description = [{
    On prim, before the weights are folded, for CPU targets whose integer dot products
    multiply uint8 by int8 (TargetInfo::int8Quads: AVX512-VNNI's vpdpbusd). Two rewrites of
    convolutions of one group and matrix products without batch dims, where one side (the
    weights) is computed from constants alone:

    1. QDQ: a float32 contraction of dequantized operands is an integer one, scaled. With x
       = (qx - zx) sx (sx uniform) and w = (qw - zw) sw (sw uniform or one per output
       channel), both from 8-bit integers and at most 65793 products per sum (so that the
       int32 sum cannot overflow):

           sum_k x[k] w[k] = sx sw[o] sum_k (qx[k] - zx) (qw[k] - zw)

       which is what ONNX Runtime computes for a QDQ group (QLinearConv); here the float
       result differs from the float32 sum of dequantized products by the latter's rounding.
       A depthwise convolution (a [C, 1, KH, KW] filter, at most 256 taps) has no quads: it
       becomes the float32 convolution of the same integers (every partial sum below 2^24,
       so exact) times sx sw[c], the form QLinearConv's decomposition gives it, whose
       activation tcc-channel-vector-convolutions reads as bytes (MobileNetV2's QDQ and
       torch-quantized forms: outputs bit-identical to before here).

    2. Zero points out of the sum: an int32 contraction of an 8-bit activation less a
       uniform zero point z with int32 weights w becomes one of the activation's own values:

           sum_k (q[k] - z) w[k] = sum_k u[k] w[k] - z' sum_k w[k]

       u = q for uint8; for int8, u = q + 128 (a uint8) and z' = z + 128. A convolution's zero
       padding of (q - z) is padding u with z' (a uint8), so the correction z' sum_k w[k] is
       one constant per output channel (per weight column of a product), which
       tcc-fold-weights computes. tcc-quad-int8-contractions then packs u and w into quads.

    ```mlir
    %y = prim.convolution (convert(qx) - 128) * 0.03, convert(qw) * sw {padding 1}
    // becomes: convert(convolution(convert(pad(qx, 128)), convert(qw)) - 128 * sum(qw))
    //          * (0.03 * sw[o])
    ```
  }];
  let dependentDialects = ["::tcc::prim::PrimDialect", "::mlir::arith::ArithDialect"];
}

def QuadInt8Contractions : Pass<"tcc-quad-int8-contractions", "mlir::ModuleOp"> {
  let summary = "int32 contractions of uint8 and int8 values as dot products of 4-byte quads";
  let description = [{
    On linalg tensors, for CPU targets with AVX512-VNNI (TargetInfo::int8Quads). vpdpbusd
    adds to each int32 lane the four products of a quad of uint8 values from one operand and
    a quad of int8 values from the other, exactly. An int32 multiply-add contraction whose
    one input is a zero extension of 8-bit values (tcc-integer-contractions' u) and whose
    other is a constant of values in [-128, 127] (the weights), over a reduction dim r of
    static extent (at least `min-extent`) that both inputs read as a plain index, takes the
    quad from r:

        u'[..., r', ..., q] = u[..., 4 r' + q, ...]      (the same for w; 0 past the extent)
        out[...] += zext(u'[..., r', ..., q]) * sext(w'[..., r', ..., q])   (q: a new last
                                                                         reduction dim)

    The uint8 input is the op's first, the int8 its second. Of the dims that qualify, one
    that u reads as its last index with an extent that is a multiple of 4 (its quads are a
    view: the 16 channels of a channels-last block, tcc-channel-vector-convolutions' chains,
    though the blocks' dim is longer), else the longest whose extent is a multiple of 4,
    else the longest (completed by zeros of w).
    Weights are packed here, while compiling; a padded u is packed before its padding (the
    padding value moves after it); quads along u's last dim are its own order (a view);
    others get a packing generic. The result is exactly the int32 one.

    Two run-time operands (QLinearMatMul / MatMulInteger of activations: attention's Q K^T
    and P V), each ext(x) - c of bytes x (extui or extsi; c a constant or a splat, the
    conversion and the subtraction fused or not), over one reduction dim r (static or
    dynamic: a dynamic extent is padded at run time with (-r) mod 4 zeros): one is read as
    uint8, A = zext(u) - cu, the other as int8, B = sext(s) - cs, where an operand of the
    other signedness has its sign bits flipped (x ^ 0x80 = x + 128 mod 256: cu = c + 128 for
    a signed one read as uint8, cs = c - 128 for an unsigned one read as int8), the
    assignment with fewer nonzero offsets chosen. Then

        sum_r A B = sum_r zext(u) sext(s) - cs sum_r (A + cu) - cu sum_r B

    the quads giving the first term; the sums are reductions of the original int32
    operands, the corrections a generic after the contraction (tcc-fuse-elementwise makes
    it part of the epilogue). Exact in int32 as the original. BERT-like QOperator b1, one
    thread, Zen 4: 6.25 -> 4.70 ms (its P V kernels 0.24 -> 0.02 ms, Q K^T with the softmax's
    first step 0.27 -> 0.07 ms each), outputs bit-identical.
  }];
  let options = [
    Option<"minExtent", "min-extent", "int64_t", /*default=*/"3",
           "The shortest (static) reduction extent that is packed">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def ChannelVectorConvolutions : Pass<"tcc-channel-vector-convolutions", "mlir::ModuleOp"> {
  let summary = "Convolutions vectorized along their output channels";
  let description = [{
    On prim, before tcc-unfold-convolutions, for x86 CPU targets
    (TargetInfo::channelVectorConvolutions). The tiler vectorizes a convolution along its
    output points: a 7x7 map's 49 points take 4 vectors of 16 lanes per output channel
    (76.5% of the lanes), unfolded or not. With the output channels along the vectors
    instead, every lane is in use; each row of the register tile is one output point, its
    input value broadcast, and the filter, packed while compiling in blocks of 16 output
    channels, is read as vectors:

        u[n, k, y, x] = xp[n, c, y sy + ky dy, x sx + kx dx],  k = (c, ky, kx)
                        (tcc-unfold-convolutions' copy; the input itself for a pointwise
                        convolution with unit strides and no padding)
        w'[b, k, l] = w[16 b + l, k]                               (folded with the weights)
        out'[n, y, x, b, l] = sum_k u[n, k, y, x] w'[b, k, l]
        out[n, o, y, x] = out'[n, y, x, o / 16, o mod 16]          (a transposing copy)

    Each output adds the same products in the same order as the other forms (the same
    bits). The tiler stacks filter blocks as the tile's vectors and, where a stacked tile's
    share of the filter is larger than L2's share, runs the reduction in chunks with every
    image and row tile in each (a 7x7 map's 512-channel 3x3 filter is 9 MiB); threads then
    split the stacked tiles alone (8 for 512 output channels).

    Taken where the channels need at most `max-ratio` of the vectors the points need per
    reduction point (all OH x OW points at once, the form the convolution gets otherwise),
    with 512-bit vectors, whole blocks of 16 output channels, float32, one group, static
    channels, maps and filter, at least `min-reduction` products per output, and windows
    other than pointwise ones only where tcc-unfold-convolutions would unfold them anyway
    (its rule and copy limit). Measured on the Zen 5 here, ResNet-18 (1 thread): its 7x7
    3x3 convolutions 1.55 -> 1.30-1.34 ms each, the stride-2 one into layer 4
    0.85 -> 0.66-0.68 ms, layer 4 and the head 6.2-6.5 -> 5.4-5.9 ms a run with the
    transposes; whole models 1-4% faster in alternating runs (ResNet-18 and ResNet-50,
    batch 1 and 8; this VM's noise is of the same order). Not taken, by measurement: 14x14
    to 56x56 maps (the copy of the windows and the transposes cost more than the 12.5% of
    lanes gained). min-reduction was 2048 while ResNet-50's 7x7 pointwise convolutions of
    512 and 1024 input channels came here (on the Zen 5 the transposed copy of their 2048
    output channels cost more than the lanes gained); they compute in chains now. It is
    128 since 2026-12-07: MobileNetV2's and EfficientNet-B0's 7x7 pointwise convolutions
    (160 to 1152 input channels, between depthwise ones) take this form. Measured on a
    2-core Zen 4 (AVX-512 in two 256-bit halves), libraries alternating A B B A, median of
    4 rounds' minimums, ms: MobileNetV2 b1 7.24 -> 6.93 (1 thread), 4.04 -> 3.91 (2),
    b8 56.6 -> 55.4, 29.1 -> 28.0; EfficientNet-B0 b1 12.49 -> 11.99, 6.71 -> 6.63, b8
    99.1 -> 95.6, 49.8 -> 48.0 (MobileNetV2's 320 -> 1280 one 0.52 -> 0.46 ms with its
    transpose). 16 was no faster than 128.

    Chains, channels last. A convolution whose output rows have at least
    `min-channels-last-width` points (7: ResNet's layers 1 to 4), with whole blocks of
    16 input and output channels, reads and writes its activations in blocks of 16
    channels, channels last, without copying its windows:

        xb[n, y, x, cb, cl] = x[n, 16 cb + cl, y, x]   (toChannelBlocks; padded along y, x)
        w'[b, ky, kx, cb, cl, l] = w[16 b + l, 16 cb + cl, ky, kx]   (folded with the weights)
        out'[n, y, x, b, l] = sum_{ky, kx, cb, cl} xb[n, y sy + ky dy, x sx + kx dx, cb, cl]
                                                   w'[b, ky, kx, cb, cl, l]
        out = toChannelsFirst(out')                    (a transpose and a reshape)

    Then lib/Fuse/ChannelBlocks.cpp moves the elementwise ops between convolutions (bias,
    residual add, ReLU), the slices of a strided pointwise convolution, the padding, poolings
    and concatenations of whole blocks of channels along dim 1 (which join the blocks along
    dim 3) onto the blocks, so that toChannelBlocks(toChannelsFirst(z)) = z cancels (as a
    reshape-transpose pair, or a transpose pair once the reshapes between fold: prim's
    transpose folder composes transposes). A chain (the
    convolutions joined through such ops) is taken only when it has at least
    `min-convolutions-per-copy` convolutions per transposing copy it still needs (a value
    made or read outside it): ResNet-18's layers 1-4, 19 convolutions for 2 copies, and
    ResNet-50's, and SqueezeNet's from its stem to its last fire module (since 2026-12-07,
    through the concatenations: 25 convolutions, 1 copy); MobileNetV2's and EfficientNet's
    pointwise convolutions sit between depthwise convolutions, which join chains since
    2026-12-07 (below); alone, 1 copy per convolution, they were left out (taken, they made
    those models 15-50% slower). The
    tiler runs the wide filters of 14x14 and 7x7 maps in chunks of one ky row
    (tcc-tile-contractions' stacked chunks; on 7x7 maps every output row y reads a stack
    tile's filter rows, one row tile of 7 points each). The products add in the order
    (ky, kx, c), not (c, ky, kx): not the same bits as the other forms. Measured on the Zen 5 here (1 thread, `tcc-run --profile`,
    each kernel's least time over 5 alternating profiles): ResNet-18 layers 1 / 2 / 3
    5.56 / 5.07 / 4.95 -> 4.78 / 4.20 / 4.57 ms, the whole run 22.5 -> 20.5 ms (with chains
    down to 28-wide maps only: 20.9 ms); ResNet-50 48.7 -> 48.4 ms between 28 and 14. Its
    3x3 convolutions of layers 1-2 take 1.11-1.18 ms each (ORT's NCHWc: 1.10-1.13), of layer
    3 1.22-1.25 ms (ORT 1.16-1.18). On 7x7 maps (2026-12-06, with the stacked chunks
    counting the output rows as readers) the chain replaces the unfolded form above, whose
    windows' copy, padding and transpose back cost 0.07-0.1 ms a convolution at batch 1:
    ResNet-18's 7x7 3x3 convolutions 1.30-1.39 -> 1.21-1.24 ms each, layer 4 5.03 -> 4.48 ms
    (batch 8: 40.5 -> 36.9), ResNet-50's layer 4 10.8 -> 10.1 ms (least of 4 alternating
    profiles, 1 thread); without the chunks the 7-wide chain was no faster than the unfolded
    form. Unblocked ([ky, kx, c, o] filter, [n, y, x, o] result) this form was 3-10% slower
    on 28 and 56 and much slower on 14 and 7.

    Depthwise convolutions (`depthwise-chains`, on by default: one filter per channel, a
    [C, 1, KH, KW] filter, C a multiple of 16, float32) join chains too:

        w'[cb, ky, kx, l] = w[16 cb + l, 0, ky, kx]                       (folded)
        out'[n, y, x, cb, l] = sum_{ky, kx} xb[n, y sy + ky dy, x sx + kx dx, cb, l]
                                            w'[cb, ky, kx, l]

    Both operands read the lanes l: the CPU tiler takes the input as its vector operand
    with the output points as rows and loads the filter's taps as one vector per window
    point for all rows (tcc-tile-contractions' Plan::scalarVector). MobileNetV2's inverted
    residuals (pointwise, depthwise, pointwise) become chains from its 32-channel layers on
    (its 24-channel layers, not whole blocks, stay NCHW); the depthwise convolutions' own
    padded copies (0.40 ms of MobileNetV2 at batch 1) become the blocks' padding. Measured
    on a 2-core Zen 4 (2026-12-07, 1 thread, batch 1, libraries alternating A B B A,
    median of 4 rounds' minimums): MobileNetV2 7.36 -> 6.66 ms, its torch-quantized int8
    form 4.82 -> 4.29 ms (the depthwise convolutions between quantized pointwise ones run on
    dequantized floats); EfficientNet-B0 unchanged then (12.49 / 12.47: its
    squeeze-excitation scales ended the chains). Outputs: MobileNetV2 relative L2 3.8e-7
    against torch's (the same order as before); int8 identical to ONNX Runtime's.

    Squeeze-excitation (since 2026-12-07 #33): a reduction of each map (dims 2 and 3: the
    global average pooling) reads the blocks, `reduce(z, dims [1, 2])` reshaped from
    [n, cb, 16] to [n, C], and a scale per image and channel broadcast over the maps
    (`[n, C, 1, 1]`, dims [0, 1, 2, 3]) is made again on blocks as `[n, cb, 16]` along
    dims 0, 3 and 4, so the multiply computes on blocks and EfficientNet's blocks of 80 to
    320 channels (stages 4 to 7) and their 16-channel first stage chain through
    (the reduction still counts as a copy when chains are chosen: a lone convolution before
    a pooling keeps its form). Measured on a 2-core Zen 4 (1 thread, batch 1, libraries
    alternating, median of per-round minimums): EfficientNet-B0 fp32 12.44 -> 11.18 ms
    (relative L2 against torch 3.2e-7), its QOperator int8 form 10.68 -> 9.54 ms (outputs
    bit-identical, equal to ONNX Runtime's). tcc-fold-scales' scaled filter keeps the
    blocked filter's layout (its 16 output channels last).

    A quantized activation's depthwise convolution (tcc-integer-contractions' form: the
    input float(q - z) of 8-bit q and a constant zero point z, the filter integers as
    float) reads the blocks of the bytes q instead, padded with z and converted to float
    where the contraction reads them (tcc-fuse-elementwise's `byte-operands` puts the
    conversion in its body; the tiler converts the bytes it loads), and subtracts z's share:

        out'[n, y, x, cb, l] = sum_{ky, kx} float(qb[n, y sy + ky dy, x sx + kx dx, cb, l])
                                            w'[cb, ky, kx, l]  -  z sum_{ky, kx} w'[cb, ky, kx, l]

    Every partial sum is an integer below 2^24 (checked from the filter's integer range),
    so the bits are the dequantized form's; the convolution before it writes bytes, not
    float32 blocks, a quarter of the memory traffic.

    Quantized chains (`integer-quads`, on where the target computes int8 quads:
    TargetInfo::int8Quads, x86 with AVX512-VNNI). tcc-integer-contractions leaves a QDQ
    convolution as an int32 one of uint8 activations converted (padded along y and x as
    uint8 with the zero point) and int8 constant weights converted. Such a convolution joins
    chains as a float32 one does, in int32, its input made of the bytes' blocks:

        xb = convert(pad(toChannelBlocks(x)))       for an input convert(pad(x)), x uint8

    so the transposes between two convolutions (cancelled) and where a chain starts move
    bytes, and the padding is of blocks. tcc-quad-int8-contractions then takes the quads from
    the blocks' 16 channels (a view of them) and packs the weights in blocks of 16 output
    channels of quads: each tile row broadcasts one 4-byte quad of input channels and
    vpdpbusd adds it into 16 output channels, whole vectors, where the NCHW form has rows of
    16 points with 14 of 56, 28, 14 and 7 in use (87.5%, 76.5% at 7x7 after the unfolding's
    copies). The requantization between convolutions (convert, scale, round, saturate)
    computes on the blocks; a residual's dequantization of bytes whose blocks a convolution
    reads (the chain's entry, ResNet's first residual) is made again on those blocks
    (ChannelBlocks.cpp's blockedOperand) rather than ending the chain. Not Winograd (the
    int32 products are exact; F(2x2, 3x3) would need fractions) and not stems (ResNet's
    3-channel stem stays in NCHW quads). Integer sums: the same bits as the NCHW form.
    Measured on a 2-core Zen 4 (2026-12-07, torch FX-quantized models, batch 1, default
    flags): ResNet-18 12.1 -> 9.6 ms (1 thread), its 3x3 convolutions 0.60-0.73 ->
    0.51-0.56 ms each (ORT's 0.52-0.60); tcc/ORT in the same run ResNet-18 1.18 / 1.08 ->
    0.93 / 0.90 and ResNet-50 1.23 / 1.16 -> 1.02 / 0.99 (1 / 2 threads).

    Stems. A convolution of at most `max-stem-channels` input channels (an image's 3) with
    whole blocks of 16 output channels and rows of `min-channels-last-width` points or more
    may start a chain: it reads its input channels first as it is and writes blocks,

        w'[b, ky, kx, c, l] = w[16 b + l, c, ky, kx]                 (folded with the weights)
        out'[n, y, x, b, l] = sum_{ky, kx, c} xp[n, c, y sy + ky dy, x sx + kx dx]
                                              w'[b, ky, kx, c, l]

    so each tile row broadcasts one input value to the vectors of 4 output-channel blocks.
    It joins a chain by its output alone, through a window reduction over the maps (a max
    or average pooling, a window of one along images and channels), which computes on the
    blocks too (the same window on their y and x). The few channels are the innermost
    reduction loop: with kx innermost LLVM unrolled it and kept the input values that
    neighbouring windows share (stride 2) in registers, spilling the tile's accumulators
    (ResNet-18's 7x7 stem 1.73 ms against 1.07). Measured on the Zen 5 here (1 thread,
    2026-12-07): ResNet-18's stem convolution 1.22-1.45 -> 1.07-1.10 ms (ORT's NCHWc 1.25),
    its max pooling and the transposing copy into layer 1 0.26-0.48 -> 0.11-0.13 ms (ORT
    0.21); whole runs (tcc-run --benchmark 10, libraries alternating A B B A, median of
    the rounds' minimums) ResNet-18 b1 18.06 -> 17.60 ms (2 threads 11.02 -> 10.42), b8
    152.3 -> 146.8, ResNet-50 b1 42.3 -> 40.7, SqueezeNet b1 4.53 -> 4.39 (its stem, pooling
    and first squeeze and expand convolutions form a chain up to the concatenation).

    Winograd. A chain's 3x3 convolution with unit strides and dilations whose output rows
    have at least `min-winograd-width` points (14: ResNet's layers 1 to 3) takes Winograd's
    F(2x2, 3x3) form (Lavin and Gray, cross-correlation), 16 products over the channels per
    2x2 output tile instead of 36:

        V[n, a, b, ty, tx, cb, cl] = sum_{i, j} BT[a, i] BT[b, j] xp[n, 2 ty + i, 2 tx + j, cb, cl]
        U[a, b, ob, cb, cl, ol] = sum_{ky, kx} G[a, ky] G[b, kx] w[16 ob + ol, 16 cb + cl, ky, kx]
        M[n, a, b, ty, tx, ob, ol] = sum_{cb, cl} V[n, a, b, ty, tx, cb, cl] U[a, b, ob, cb, cl, ol]
        out'[n, y, x, ob, ol] = sum_{a, b} AT[y mod 2, a] AT[x mod 2, b]
                                           M[n, a, b, y floordiv 2, x floordiv 2, ob, ol]

        BT = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1]   G = [1 0 0; .5 .5 .5; .5 -.5 .5; 0 0 1]
        AT = [1 1 1 0; 0 1 -1 -1]

    xp is the blocked input padded as the convolution pads it and to whole 4x4 windows (an
    odd map's last tile). The three sums are linalg.generic contractions the CPU tiler
    vectorizes along the 16 lanes of a block (the transforms' constant matrices as the
    broadcast operand); U is 16 products of the filter's 9 taps with a row of G (x) G, each
    no larger than the filter, so tcc-fold-weights folds them (the library keeps both
    filters, the AVX2 level's direct one and U: 16/9 of the 3x3 weights more, ResNet-18's
    library 94 -> 123 MB). The epilogue (bias, residual add, ReLU) fuses with the output
    transform, which writes the next convolution's padded input. The results are not the
    same bits as the direct form (other sums); against torch's fp32 outputs ResNet-18's
    relative L2 error is 4.1e-7 (direct: 4.9e-7), ResNet-50's 7.4e-7 (7.9e-7).
    Measured on the Zen 5 here (2026-12-07, `tcc-run --profile`, least of alternating
    profiles, 1 thread): ResNet-18's layers 1 / 2 / 3 4.41 / 3.95 / 4.15 -> 3.03 / 2.66 /
    3.06 ms; its 7x7 layer 4 4.52 -> 4.75 (the padded last tiles and the transforms cost more
    than the products saved), hence min-winograd-width 14; ResNet-50's layers 1-3 6.35 /
    9.77 / 14.56 -> 5.67 / 8.71 / 13.65 ms. Whole runs are in docs/targets.md.

    ```mlir
    %y = prim.convolution %x, %w {padding_low = [1, 1], padding_high = [1, 1], ...}
         : (tensor<1x512x7x7xf32>, tensor<512x512x3x3xf32>) -> tensor<1x512x7x7xf32>
    // becomes: the windows' copy 1x4608x7x7, the filter packed as 32x4608x16, one
    // linalg.generic into 1x7x7x32x16, reshaped to 1x7x7x512 and transposed to 1x512x7x7
    ```
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"0",
           "0 (off), or the width of the target's vectors in bits">,
    Option<"splitWideFma", "split-wide-fma", "bool", /*default=*/"false",
           "A full-width FMA issues as two halves: a short tail costs half a vector">,
    Option<"maxRatio", "max-ratio", "double", /*default=*/"0.9",
           "The most vectors the channel form may take, as a fraction of the other forms'">,
    Option<"minReduction", "min-reduction", "int64_t", /*default=*/"128",
           "The fewest products per output (C x KH x KW)">,
    Option<"minChannelsLastWidth", "min-channels-last-width", "int64_t", /*default=*/"7",
           "0 (off), or the narrowest output row computed channels last">,
    Option<"minConvolutionsPerCopy", "min-convolutions-per-copy", "double", /*default=*/"2",
           "The fewest channels-last convolutions a chain has per transposing copy it needs">,
    Option<"maxStemChannels", "max-stem-channels", "int64_t", /*default=*/"4",
           "0 (off), or the most input channels of a convolution that starts a chain">,
    Option<"minWinogradWidth", "min-winograd-width", "int64_t", /*default=*/"14",
           "0 (off), or the narrowest output row of a chain's 3x3 convolution with unit "
           "strides computed in Winograd's F(2x2, 3x3) form">,
    Option<"depthwiseChains", "depthwise-chains", "bool", /*default=*/"true",
           "Depthwise convolutions (a filter per channel) join chains, on blocks">,
    Option<"integerQuads", "integer-quads", "bool", /*default=*/"false",
           "Quantized convolutions (int32 of uint8 and int8 constants) join chains: the "
           "target computes them in int8 quads (tcc-quad-int8-contractions)">,
  ];
  let dependentDialects = ["::tcc::prim::PrimDialect", "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect"];
}

def UnfoldConvolutions : Pass<"tcc-unfold-convolutions", "mlir::ModuleOp"> {
  let summary = "Convolutions on narrow maps as one matrix product over all output points";
  let description = [{
    On prim, before lowering to linalg, for CPU targets (TargetInfo::unfoldConvolutions).
    The tiler vectorizes a convolution along its output rows: a 7x7 map takes seven
    vectors per output channel and reduction point, each with 7 of its 16 lanes (AVX-512)
    in use. Copied out as channels (im2col), the window's KH x KW views of the padded input
    make the convolution a 1x1 one, a matrix product over all OH x OW points at once:

        u[n, (c, ky, kx), y, x] = xp[n, c, y sy + ky dy, x sx + kx dx]
        out[n, o, y, x] = sum_{(c, ky, kx)} w[o, (c, ky, kx)] u[n, (c, ky, kx), y, x]

    The products are added in the row form's order (c, then ky, then kx), so the results
    are the same bits, and the output is the convolution's own (its epilogue stays fused).
    The copy is KH x KW times the output map per input channel, small where the pass
    applies: when the matrix product needs at most 3/4 of the row form's vectors
    (`vector-bits` wide; with `split-wide-fma`, a tail of at most half a vector counts
    half), and the copy is at most 8 MiB per image. 2-D, one group, float elements, static
    channels, spatial extents and filter (the batch may be dynamic); any strides, padding
    and dilations; not 1x1 windows, which are matrix products already.

    Chains on wider maps, channels last. A convolution whose output rows have at least
    `min-channels-last-width` points (28: ResNet's layers 1 and 2), with whole blocks of
    16 input and output channels, reads and writes its activations in blocks of 16
    channels, channels last, without copying its windows:

        xb[n, y, x, cb, cl] = x[n, 16 cb + cl, y, x]   (toChannelBlocks; padded along y, x)
        w'[b, ky, kx, cb, cl, l] = w[16 b + l, 16 cb + cl, ky, kx]   (folded with the weights)
        out'[n, y, x, b, l] = sum_{ky, kx, cb, cl} xb[n, y sy + ky dy, x sx + kx dx, cb, cl]
                                                   w'[b, ky, kx, cb, cl, l]
        out = toChannelsFirst(out')                    (a transpose and a reshape)

    Then lib/Fuse/ChannelBlocks.cpp moves the elementwise ops between convolutions (bias,
    residual add, ReLU), the slices of a strided pointwise convolution, the padding, poolings
    and concatenations of whole blocks of channels along dim 1 (which join the blocks along
    dim 3) onto the blocks, so that toChannelBlocks(toChannelsFirst(z)) = z cancels (as a
    reshape-transpose pair, or a transpose pair once the reshapes between fold: prim's
    transpose folder composes transposes). A chain (the
    convolutions joined through such ops) is taken only when it has at least
    `min-convolutions-per-copy` convolutions per transposing copy it still needs (a value
    made or read outside it): ResNet-18's layers 1-2, 9 convolutions for 3 copies, and
    ResNet-50's, 24 for 3; MobileNetV2's, EfficientNet's and SqueezeNet's pointwise
    convolutions sit between depthwise convolutions or concatenations, 1 copy per
    convolution, and are left alone (taken, they made those models 15-50% slower). The
    products add in the order (ky, kx, c), not (c, ky, kx): not the same bits as the other
    forms. Measured on the Zen 5 here (1 thread, `tcc-run --profile`): ResNet-18's 3x3
    convolutions of layers 1-2 1.31-1.47 -> 1.11-1.18 ms each (ORT's NCHWc: 1.10-1.13),
    the stride-2 one into layer 2 0.74 -> 0.57 ms; whole models in alternating runs
    (3 pairs, 15 runs each): ResNet-18 b1 20.3 -> 19.9 ms (1 thread), 12.5 -> 11.6 ms
    (2 threads); ResNet-50 b1 46.7 -> 44.4 ms, 27.4 -> 26.2 ms. On 14-wide maps the same
    form was slower (1.51 against 1.28-1.34 ms: the tiler's rows run along one output row),
    and unblocked ([ky, kx, c, o] filter, [n, y, x, o] result) it was 3-10% slower on
    28 and 56 and much slower on 14 and 7.

    ```mlir
    %y = prim.convolution %x, %w {padding_low = [1, 1], padding_high = [1, 1], ...}
         : (tensor<1x512x7x7xf32>, tensor<512x512x3x3xf32>) -> tensor<1x512x7x7xf32>
    // becomes: pad to 1x512x9x9, one linalg.generic copying its windows out as
    // 1x512x3x3x7x7, reshaped to 1x4608x7x7, and a 1x1 convolution with the filter as
    // 512x4608x1x1
    ```
    (The copy is a `linalg.generic` among the prim ops: prim has no op for overlapping
    windows.)
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"0",
           "0 (off), or the width of the target's vectors in bits">,
    Option<"splitWideFma", "split-wide-fma", "bool", /*default=*/"false",
           "A full-width FMA issues as two halves: a short tail costs half a vector">,
  ];
  let dependentDialects = ["::tcc::prim::PrimDialect", "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect"];
}

def MatchAttention : Pass<"tcc-match-attention", "mlir::ModuleOp"> {
  let summary = "Replace decomposed scaled dot-product attention by one kernel.attention";
  let description = [{
    On prim, right after decomposition (the first pass of tcc-prim-to-kernel, for targets
    that compute `kernel.attention`). The exporters' attention (dynamo, legacy, and
    com.microsoft Attention / MultiHeadAttention) meets the same prim form once decomposed,
    and this pass recognizes it at the second product (the ONNX Attention op's safe softmax
    and GroupQueryAttention's grouped product are not this form yet):

        s = dot_general(q, k)                 q [B.., M, D], k [B.., N, D] or [B.., D, N]
        s = s * c | s / c | c * s             optional, c a scalar constant: scale
        s = s + broadcast_in_dim(bias)        optional (either order): additive bias / mask
        p = exp(s - bcast(max(s))) / bcast(sum(exp(...)))      prim's Softmax, last dim
        p = select(is_nan(p), 0, p)           optional: nan_to_zero (dynamo's SDPA)
        o = dot_general(p, v)                 v [B.., N, E]

    with the batch dims of both products `[0, rank - 2)`, identity broadcasts looked through,
    f32, and every intermediate used only inside the block (a block whose probabilities are
    also an output stays as it is; with `max-width`, a value depth that is dynamic or
    larger stays too). The block becomes `kernel.attention` (q, k, v, bias) and
    the intermediates die. A bias proved to be a causal mask (CausalMask.cpp: computed from
    iotas, 0 where key j <= query i + t, at most -1e30 elsewhere, t >= 0) becomes the op's
    `causal = t` instead (explain=true: a remark says why another bias is kept); a bias
    shown not to vary along the query rows (NarrowBias.cpp: broadcasts over them, elementwise
    ops, splats, `index >= 0`) is rebuilt with extent 1 there, read as one row. Anything else stays the generic path, which is always correct.
    `explain=true` emits a remark at each product that reads a softmax but was not
    replaced, saying why, and one at the function with the count matched.

    ```mlir
    %s = prim.dot_general %q, %k contracting = [3] x [2] batching = [0, 1] x [0, 1] ...
    ... softmax ...
    %o = prim.dot_general %p, %v contracting = [3] x [2] batching = [0, 1] x [0, 1] ...
    // becomes
    %o = kernel.attention %q, %k, %v outs(%init : ...) {key_transposed, scale = 1.0 : f32} ...
    ```
  }];
  let options = [
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Emit a remark for each attention block replaced or left, and why">,
    Option<"maxWidth", "max-width", "int64_t", /*default=*/"0",
           "0, or the largest static value depth (E) to fuse: the target's attention kernel "
           "keeps E accumulators per thread (GPUs: 128); other blocks stay decomposed">,
    Option<"depthMultiple", "depth-multiple", "int64_t", /*default=*/"0",
           "0, or what the query and value depths (D, E) must be static multiples of for the "
           "target's kernel (Vulkan without subgroups: 4); other blocks stay decomposed">,
    Option<"minKeys", "min-keys", "int64_t", /*default=*/"0",
           "0, or the fewest keys (N, when static) to fuse: a target whose kernel loses to "
           "the decomposed products on short sequences sets it for --attention=auto; blocks "
           "with a dynamic N are fused">,
  ];
  let dependentDialects = ["::tcc::kernel::KernelDialect", "::mlir::tensor::TensorDialect"];
}

def FoldScales : Pass<"tcc-fold-scales", "mlir::ModuleOp"> {
  let summary = "Move a per-channel scale of a contraction's input into its weights";
  let description = [{
    On tensors, after fusion. A contraction (`out + a * b`) whose input is an all-parallel
    `x * s` with one user, where the scale `s` is constant along every dim of `x` that the
    weights do not read (a squeeze-excitation's per-image, per-channel scale before a 1x1
    convolution), reads `x` and scaled weights `W'[n,o,c] = W[o,c] s[n,c]` (the scale's own
    dims first, then W's in W's order: a blocked filter keeps its 16 output channels last)
    instead, when
    `W'` has fewer elements than the map it avoids (`o < h w`, static extents): the
    full pass over the map becomes a pass over the (smaller) weights.

    ```mlir
    %m = linalg.generic {x * s, s: (n,c,h,w) -> (n,c,0,0)} ins(%s, %x)
    %y = linalg.generic {out + a * b, a: (n,o,h,w,c) -> (n,c,h,w), b: -> (o,c)} ins(%m, %W)
    // becomes
    %w = linalg.generic {W * s: (n,o,c) -> (o,c), (n,c,0,0)} ins(%W, %s)   // [n, o, c]
    %y = linalg.generic {out + a * b, a: -> (n,c,h,w), b: -> (n,o,c)} ins(%x, %w)
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def AccumulateResiduals : Pass<"tcc-accumulate-residuals", "mlir::ModuleOp"> {
  let summary = "A residual added in a contraction's epilogue becomes its starting value";
  let description = [{
    On tensors, after fusion (CPU targets: TargetInfo::accumulateResiduals). A float
    contraction that starts from a fill of +0.0, whose only reader is an all-parallel
    epilogue computing `f((c + terms) + r)` with `r` read at the output's own point (the
    identity map, the contraction's type) and nowhere else in the body, starts from `r`
    instead: `c' = r + sum_k a b`, `y = f(c' + terms)` (the same terms, reassociated).
    Taken when `r` is a linalg op's result in the same block that every other reader reads
    before the epilogue (the contraction moves just before it), none through a view: the
    contraction then accumulates in `r`'s buffer (bufferization writes it in place) and the
    kernel reads and writes one buffer instead of reading `r` and writing a second one
    (ONNX Runtime fuses a residual Sum into its NCHWc convolutions the same way). The CPU
    tiles still sum the products from zero and add the buffer's values after the sum
    (tcc-tile-contractions): started from `r`, every product would round at `r`'s scale.
    Not taken where `r` is padded for a 3x3 convolution (ResNet-18's blocks: kernel
    formation writes `r` into its padded buffer). Measured on the Zen 5 here, ResNet-50 b1,
    1 thread, least of 4 alternating profiles: its 56x56 conv3 + add kernels
    0.66-0.67 -> 0.55-0.57 ms, the first block's (the downsample's output as `r`)
    0.81 -> 0.62, layer 1 7.57 -> 6.86 ms; whole runs (median of 20 rounds' minimums)
    45.1 -> 43.3-43.8 ms on 1 thread, 24.1 -> 23.5 on 2; batch 8 365 -> 345 and
    186 -> 180 ms. ResNet-18, MobileNetV2, EfficientNet-B0 and the BERT-like encoder: no
    change beyond the noise.

    ```mlir
    %c = linalg.generic {out + a * b} ins(%a, %b) outs(%zero)    // %zero = fill(0.0)
    %y = linalg.generic {max((c + bias) + r, 0)} ins(%c, %bias, %r) outs(%e)
    // becomes
    %c = linalg.generic {out + a * b} ins(%a, %b) outs(%r)
    %y = linalg.generic {max(c + bias, 0)} ins(%c, %bias) outs(%e)
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::arith::ArithDialect"];
}

def OutlineKernels : Pass<"tcc-outline-kernels", "mlir::ModuleOp"> {
  let summary = "Form kernels from the compute ops of @main and outline them";
  let description = [{
    Every linalg op (and tensor.pad, tensor.insert_slice, scf.for without linalg ops) at the
    top level of @main, or in a host loop, becomes part of a private function
    `@kernel_<k>_<node>` named after the tail of its ONNX node's name, marked
    `kernel.kernel = #kernel.kernel<kind, epilogue, nodes>` (its kind, whether it applies an
    epilogue, the ONNX nodes it computes), called from @main. Kernel formation groups a contraction with the fill of its
    accumulator and its pointwise epilogue (the result's only user, reading it once in order;
    the kernel's `epilogue` is true), and a pooling window with its fill; other ops are
    kernels alone. Pads become fill + insert_slice; a group whose result is only padded (rows
    of at least `min-in-place-pad-row`, a number the target's info gives; a row is the
    innermost padded dim with the whole dims inside it: a map's columns, a phase padded
    along its rows only with its rows, bf16 pairs [.., w, 2] twice w) computes into the
    padded buffer's interior (extract_slice ... insert_slice of the same sizes), so no copy
    remains; so does one whose result is also read elsewhere (a residual branch): those
    readers read the interior, and their kernels take the padded buffer and make that view
    themselves (`tcc.padded_interior`), since a view passed to a kernel would be copied to a
    buffer of its own layout at the call. A contraction whose epilogue writes into a real
    destination (a model output, or its slice of a concatenation's buffer, as
    eliminate-empty-tensors leaves a concatenation's operands) accumulates there from the
    start; where that destination is a slice that the epilogue's result is inserted back
    into, the kernel takes the whole buffer with the slice and the insert, so it writes its
    part in place and no copy kernel moves it (SqueezeNet's fire modules). Destinations (`outs`) are arguments, so after
    bufferization a kernel writes into buffers its caller provides and allocates nothing; the
    host function is left with calls, views and shape arithmetic. Scalar constants are cloned
    into the kernel; tensors (weights included) are passed.

    ```mlir
    %r = linalg.generic ... ins(%a) outs(%e) {...}
    // becomes
    %r = call @kernel_0_relu(%a, %e) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let options = [
    Option<"minInPlacePadRow", "min-in-place-pad-row", "int64_t", /*default=*/"24",
           "the narrowest row of a padded result that is computed in place (narrower ones "
           "are computed contiguously, so vector code can merge rows, and copied)">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect", "::tcc::kernel::KernelDialect"];
}

#endif // TCC_FUSE_PASSES
