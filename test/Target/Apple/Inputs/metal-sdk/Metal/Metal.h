// The part of Metal's interface that runtime/src/metal/metal_device.m uses, declared for a
// syntax check of that file off macOS (test/Target/Apple/metal-backend-syntax.test). Declarations only,
// written from Apple's documentation (macOS 13 SDK); nothing here runs.
#ifndef TCC_TEST_METAL_SDK_METAL_H
#define TCC_TEST_METAL_SDK_METAL_H

#import <Foundation/Foundation.h>

typedef uint64_t MTLGPUAddress;

typedef struct {
  NSUInteger width, height, depth;
} MTLSize;
static inline MTLSize MTLSizeMake(NSUInteger width, NSUInteger height, NSUInteger depth) {
  MTLSize size = {width, height, depth};
  return size;
}

typedef enum MTLGPUFamily : NSInteger { MTLGPUFamilyMetal3 = 5001 } MTLGPUFamily;
typedef enum MTLResourceOptions : NSUInteger {
  MTLResourceStorageModeShared = 0
} MTLResourceOptions;
typedef enum MTLResourceUsage : NSUInteger {
  MTLResourceUsageRead = 1,
  MTLResourceUsageWrite = 2
} MTLResourceUsage;
typedef enum MTLCommandBufferStatus : NSUInteger {
  MTLCommandBufferStatusCompleted = 4,
  MTLCommandBufferStatusError = 5
} MTLCommandBufferStatus;
typedef enum MTLLanguageVersion : NSUInteger { MTLLanguageVersion3_0 = 196608 } MTLLanguageVersion;

@protocol MTLResource <NSObject>
@end

@protocol MTLBuffer <MTLResource>
- (void *)contents;
@property(readonly) NSUInteger length;
@property(readonly) MTLGPUAddress gpuAddress;
@end

@protocol MTLFunction <NSObject>
@end

@protocol MTLLibrary <NSObject>
- (id<MTLFunction>)newFunctionWithName:(NSString *)functionName;
@end

@protocol MTLComputePipelineState <NSObject>
@property(readonly) NSUInteger maxTotalThreadsPerThreadgroup;
@end

@protocol MTLComputeCommandEncoder <NSObject>
- (void)endEncoding;
- (void)setComputePipelineState:(id<MTLComputePipelineState>)state;
- (void)setBytes:(const void *)bytes length:(NSUInteger)length atIndex:(NSUInteger)index;
- (void)dispatchThreadgroups:(MTLSize)threadgroupsPerGrid
       threadsPerThreadgroup:(MTLSize)threadsPerThreadgroup;
- (void)useResource:(id<MTLResource>)resource usage:(MTLResourceUsage)usage;
- (void)useResources:(const id<MTLResource> *)resources
               count:(NSUInteger)count
               usage:(MTLResourceUsage)usage;
@end

@protocol MTLCommandBuffer <NSObject>
- (id<MTLComputeCommandEncoder>)computeCommandEncoder;
- (void)commit;
- (void)waitUntilCompleted;
@property(readonly) MTLCommandBufferStatus status;
@property(readonly) NSError *error;
@end

@protocol MTLCommandQueue <NSObject>
- (id<MTLCommandBuffer>)commandBuffer;
@end

@interface MTLCompileOptions : NSObject
@property(readwrite) BOOL fastMathEnabled __attribute__((deprecated));
@property(readwrite) MTLLanguageVersion languageVersion;
@end

@protocol MTLDevice <NSObject>
@property(readonly) NSString *name;
@property(readonly) NSUInteger maxBufferLength;
- (BOOL)supportsFamily:(MTLGPUFamily)gpuFamily;
- (id<MTLBuffer>)newBufferWithLength:(NSUInteger)length options:(MTLResourceOptions)options;
- (id<MTLCommandQueue>)newCommandQueue;
- (id<MTLLibrary>)newLibraryWithSource:(NSString *)source
                               options:(MTLCompileOptions *)options
                                 error:(NSError **)error;
- (id<MTLComputePipelineState>)newComputePipelineStateWithFunction:(id<MTLFunction>)function
                                                             error:(NSError **)error;
@end

id<MTLDevice> MTLCreateSystemDefaultDevice(void);

#endif
