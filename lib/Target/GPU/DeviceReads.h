//===- DeviceReads.h - host code reading a value the kernels wrote -------------------------===//
//
// A GPU model's host code names device memory but cannot load from it. Where it needs a value
// the kernels computed (a NonZero count that sizes a grid, a Loop's condition),
// tcc-gpu-form-grids reads it into a host stack slot through a call of kDeviceReadFunction,
// and tcc-gpu-lower-launches makes that call imports->device_read (model_abi.h), which waits
// for the kernels queued before it.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_TARGET_GPU_DEVICEREADS_H
#define TCC_LIB_TARGET_GPU_DEVICEREADS_H

namespace tcc::gpu {

/// `func.func private @tcc_device_read(%host: index, %device: index, %bytes: index)`: copies
/// `bytes` bytes from device address `device` to host address `host` (addresses as indices,
/// from memref.extract_aligned_pointer_as_index).
inline constexpr const char *kDeviceReadFunction = "tcc_device_read";

} // namespace tcc::gpu

#endif // TCC_LIB_TARGET_GPU_DEVICEREADS_H
