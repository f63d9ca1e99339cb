// The part of Foundation's interface that runtime/src/metal/metal_device.m uses, declared
// for a syntax check of that file off macOS (test/Target/Apple/metal-backend-syntax.test). Declarations
// only, written from Apple's documentation; nothing here runs.
#ifndef TCC_TEST_METAL_SDK_FOUNDATION_H
#define TCC_TEST_METAL_SDK_FOUNDATION_H

#include <stddef.h>
#include <stdint.h>

typedef unsigned long NSUInteger;
typedef long NSInteger;
typedef signed char BOOL;
#define YES ((BOOL)1)
#define NO ((BOOL)0)
#define nil ((id)0)

typedef NSUInteger NSStringEncoding;
#define NSUTF8StringEncoding ((NSStringEncoding)4)

@protocol NSObject
- (instancetype)retain;
- (oneway void)release;
- (instancetype)autorelease;
@end

__attribute__((objc_root_class))
@interface NSObject <NSObject>
+ (instancetype)alloc;
- (instancetype)init;
- (instancetype)retain;
- (oneway void)release;
- (instancetype)autorelease;
@end

@interface NSString : NSObject
- (instancetype)initWithBytes:(const void *)bytes
                       length:(NSUInteger)length
                     encoding:(NSStringEncoding)encoding;
@property(readonly) const char *UTF8String;
@end

@interface NSError : NSObject
@property(readonly, copy) NSString *localizedDescription;
@end

#endif
