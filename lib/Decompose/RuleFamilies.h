//===- RuleFamilies.h - one registration function per file of rules -----------*- C++ -*-===//
#ifndef TCC_LIB_DECOMPOSE_RULEFAMILIES_H
#define TCC_LIB_DECOMPOSE_RULEFAMILIES_H

namespace tcc::decompose {

class RuleRegistry;

void registerElementwiseRules(RuleRegistry &registry);   // Elementwise.cpp
void registerActivationRules(RuleRegistry &registry);    // Activation.cpp
void registerContractionRules(RuleRegistry &registry);   // Contraction.cpp
void registerConvolutionRules(RuleRegistry &registry);   // Convolution.cpp
void registerConvTransposeRules(RuleRegistry &registry); // ConvTranspose.cpp
void registerDeformConvRules(RuleRegistry &registry);    // DeformConv.cpp
void registerPoolingRules(RuleRegistry &registry);       // Pooling.cpp
void registerNormalizationRules(RuleRegistry &registry); // Normalization.cpp
void registerReductionRules(RuleRegistry &registry);     // Reduction.cpp
void registerShapeRules(RuleRegistry &registry);         // Shape.cpp
void registerSliceRules(RuleRegistry &registry);         // Slice.cpp
void registerIndexingRules(RuleRegistry &registry);      // Indexing.cpp
void registerPaddingRules(RuleRegistry &registry);       // Padding.cpp
void registerLossRules(RuleRegistry &registry);          // Loss.cpp
void registerRearrangeRules(RuleRegistry &registry);     // Rearrange.cpp
void registerResizeRules(RuleRegistry &registry);        // Resize.cpp
void registerQuantizationRules(RuleRegistry &registry);  // Quantization.cpp
void registerRotaryEmbeddingRules(RuleRegistry &registry); // RotaryEmbedding.cpp
void registerRecurrentRules(RuleRegistry &registry);     // Recurrent.cpp
void registerAttentionRules(RuleRegistry &registry);    // Attention.cpp
void registerContribRules(RuleRegistry &registry);      // Contrib.cpp (com.microsoft)
void registerSignalRules(RuleRegistry &registry);        // Signal.cpp
void registerSamplingRules(RuleRegistry &registry);      // Sampling.cpp
void registerCol2ImRules(RuleRegistry &registry);        // Col2Im.cpp
void registerSequenceRules(RuleRegistry &registry);      // Sequence.cpp
void registerOptionalRules(RuleRegistry &registry);      // Optional.cpp
void registerControlFlowRules(RuleRegistry &registry);   // ControlFlow.cpp
void registerDataDependentRules(RuleRegistry &registry); // DataDependent.cpp
void registerRandomRules(RuleRegistry &registry);        // Random.cpp
void registerTrainingRules(RuleRegistry &registry);      // Training.cpp (ai.onnx.preview.training)
void registerLinearAlgebraRules(RuleRegistry &registry); // LinearAlgebra.cpp
void registerLinearAttentionRules(RuleRegistry &registry); // LinearAttention.cpp
void registerFlexAttentionRules(RuleRegistry &registry); // FlexAttention.cpp (ai.onnx.preview)
void registerTextRules(RuleRegistry &registry);          // Text.cpp
void registerStringRules(RuleRegistry &registry);        // Strings.cpp

inline void registerAllRuleFamilies(RuleRegistry &registry) {
  registerElementwiseRules(registry);
  registerActivationRules(registry);
  registerContractionRules(registry);
  registerConvolutionRules(registry);
  registerConvTransposeRules(registry);
  registerDeformConvRules(registry);
  registerPoolingRules(registry);
  registerNormalizationRules(registry);
  registerReductionRules(registry);
  registerShapeRules(registry);
  registerSliceRules(registry);
  registerIndexingRules(registry);
  registerPaddingRules(registry);
  registerLossRules(registry);
  registerRearrangeRules(registry);
  registerResizeRules(registry);
  registerQuantizationRules(registry);
  registerRotaryEmbeddingRules(registry);
  registerRecurrentRules(registry);
  registerAttentionRules(registry);
  registerContribRules(registry);
  registerSignalRules(registry);
  registerSamplingRules(registry);
  registerCol2ImRules(registry);
  registerSequenceRules(registry);
  registerOptionalRules(registry);
  registerControlFlowRules(registry);
  registerDataDependentRules(registry);
  registerRandomRules(registry);
  registerTrainingRules(registry);
  registerLinearAlgebraRules(registry);
  registerLinearAttentionRules(registry);
  registerFlexAttentionRules(registry);
  registerTextRules(registry);
  registerStringRules(registry);
}

} // namespace tcc::decompose

#endif // TCC_LIB_DECOMPOSE_RULEFAMILIES_H
