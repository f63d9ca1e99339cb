//===- AddressBuffers.cpp - kernel memrefs in device memory as 64-bit addresses --------===//
#include "tcc/Target/SPIRV/Passes.h"

#include "dialects/kernel/KernelDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"

namespace tcc {
#define GEN_PASS_DEF_SPIRVADDRESSBUFFERS
#include "tcc/Target/SPIRV/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// A memref in device memory as the kernel now receives it: the address of its buffer, the
/// view's offset (elements), sizes and strides; each a parameter where the type says `?`,
/// else a constant.
struct Address {
  Value base; // i64
  Value offset;
  SmallVector<Value> sizes, strides;
};

bool inDeviceMemory(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return false;
  Attribute space = memref.getMemorySpace();
  if (!space)
    return true;
  auto gpuSpace = dyn_cast<gpu::AddressSpaceAttr>(space);
  return gpuSpace && gpuSpace.getValue() == gpu::AddressSpace::Global;
}

/// Whether the kernel computes a memref's strides from its sizes (a row-major buffer without
/// offset) rather than receiving them.
bool rowMajor(MemRefType type) { return type.getLayout().isIdentity(); }

/// The strides of a row-major buffer of `sizes`: each the product of the sizes after it.
SmallVector<Value> rowMajorStrides(OpBuilder &b, Location loc, ArrayRef<Value> sizes) {
  SmallVector<Value> strides(sizes.size());
  Value stride = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t k = static_cast<int64_t>(sizes.size()) - 1; k >= 0; --k) {
    strides[k] = stride;
    if (k > 0)
      stride = arith::MulIOp::create(b, loc, stride, sizes[k]);
  }
  return strides;
}

/// The parameters that replace a memref of `type`, in order: the address (i64), then the
/// dynamic ones of offset, sizes and strides (index); a row-major buffer passes its sizes
/// alone.
SmallVector<Type> addressTypes(MemRefType type) {
  MLIRContext *ctx = type.getContext();
  SmallVector<Type> types{IntegerType::get(ctx, 64)};
  auto [strides, offset] = type.getStridesAndOffset();
  Type index = IndexType::get(ctx);
  if (ShapedType::isDynamic(offset))
    types.push_back(index);
  for (int64_t size : type.getShape())
    if (ShapedType::isDynamic(size))
      types.push_back(index);
  for (int64_t stride : strides)
    if (ShapedType::isDynamic(stride) && !rowMajor(type))
      types.push_back(index);
  return types;
}

/// Bytes one element of `type` takes in memory (i1 is a byte, as the LLVM lowering stores it).
int64_t elementBytes(Type type) {
  if (type.isInteger(1))
    return 1;
  if (type.isIndex())
    return 8;
  return type.getIntOrFloatBitWidth() / 8;
}

/// The in-memory type of a scalar element: i1 is stored as i8; floats SPIR-V lacks (bf16, the
/// 8-bit floats) are loaded and stored as integers of their width and bitcast (the SPIR-V
/// type converter represents them as those integers).
Type memoryType(Type type) {
  if (type.isInteger(1))
    return IntegerType::get(type.getContext(), 8);
  if (isa<FloatType>(type) && !type.isF16() && !type.isF32() && !type.isF64())
    return IntegerType::get(type.getContext(), type.getIntOrFloatBitWidth());
  return type;
}

struct SpirvAddressBuffersPass : tcc::impl::SpirvAddressBuffersBase<SpirvAddressBuffersPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::StringMap<gpu::GPUFuncOp> kernels;
    for (auto gpuModule : module.getOps<gpu::GPUModuleOp>())
      for (auto func : gpuModule.getOps<gpu::GPUFuncOp>())
        if (func.isKernel())
          kernels[(gpuModule.getName() + "::" + func.getName()).str()] = func;

    if (failed(checkIndexRange(module)))
      return signalPassFailure();
    // Launches first, while the kernels still have their memref parameters.
    WalkResult walk = module.walk([&](gpu::LaunchFuncOp launch) {
      std::string name =
          (launch.getKernelModuleName().getValue() + "::" + launch.getKernelName().getValue())
              .str();
      if (!kernels.count(name)) {
        launch.emitError() << "internal error: the launch's kernel " << name << " is not in the "
                           << "module";
        return WalkResult::interrupt();
      }
      rewriteLaunch(launch);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    for (auto &entry : kernels)
      if (failed(rewriteKernel(entry.second)))
        return signalPassFailure();
    // Parameters every launch gives the same value (the workspace's address, a size) are
    // passed once: push-constant space is small.
    llvm::StringMap<SmallVector<gpu::LaunchFuncOp>> launches;
    module.walk([&](gpu::LaunchFuncOp launch) {
      launches[(launch.getKernelModuleName().getValue() + "::" + launch.getKernelName().getValue())
                   .str()]
          .push_back(launch);
    });
    for (auto &entry : kernels)
      mergeParameters(entry.second, launches.lookup(entry.first()));
  }

  void mergeParameters(gpu::GPUFuncOp func, ArrayRef<gpu::LaunchFuncOp> launches) {
    if (launches.empty())
      return;
    unsigned count = func.getNumArguments();
    for (unsigned j = count; j-- > 1;) {
      for (unsigned i = 0; i < j; ++i) {
        bool same = func.getArgument(i).getType() == func.getArgument(j).getType() &&
                    llvm::all_of(launches, [&](gpu::LaunchFuncOp launch) {
                      return launch.getKernelOperands()[i] == launch.getKernelOperands()[j];
                    });
        if (!same)
          continue;
        func.getArgument(j).replaceAllUsesWith(func.getArgument(i));
        (void)func.eraseArgument(j);
        for (gpu::LaunchFuncOp launch : launches)
          launch.getKernelOperandsMutable().erase(j);
        break;
      }
    }
  }

  /// The kernels index in 32 bits (tcc-spirv-lower-kernels): a buffer whose static view
  /// spans 2^31 elements or more, or a static workspace of 2 GiB or more, is an error naming
  /// its size. (Dynamic extents are checked by the runtime at each run: device.h's
  /// index_bits.)
  LogicalResult checkIndexRange(ModuleOp module) {
    constexpr int64_t kLimit = int64_t(1) << 31;
    WalkResult walk = module.walk([&](Operation *op) {
      if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op)) {
        for (Value v : launch.getKernelOperands()) {
          auto type = dyn_cast<MemRefType>(v.getType());
          if (!type || !inDeviceMemory(type) || !type.hasStaticShape())
            continue;
          auto [strides, offset] = type.getStridesAndOffset();
          if (ShapedType::isDynamic(offset) || llvm::any_of(strides, ShapedType::isDynamic))
            continue;
          int64_t span = offset + 1;
          for (auto [size, stride] : llvm::zip(type.getShape(), strides))
            span += size > 0 ? (size - 1) * stride : 0;
          if (span >= kLimit) {
            launch.emitError() << "a kernel's buffer " << type << " spans " << span
                               << " elements; the SPIR-V and Metal kernels index in 32 bits "
                                  "(fewer than 2^31 elements a buffer)";
            return WalkResult::interrupt();
          }
        }
      }
      if (auto bytes =
              op->getAttrOfType<IntegerAttr>(tcc::kernel::KernelDialect::kWorkspaceSizeAttrName);
          bytes && bytes.getInt() >= kLimit) {
        op->emitError() << "the model's workspace has " << bytes.getInt()
                        << " bytes; the SPIR-V and Metal kernels index in 32 bits (less than "
                           "2 GiB of workspace)";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return failure(walk.wasInterrupted());
  }

  /// Each memref operand in device memory becomes its aligned pointer and the dynamic fields
  /// of its view.
  void rewriteLaunch(gpu::LaunchFuncOp launch) {
    OpBuilder b(launch);
    Location loc = launch.getLoc();
    SmallVector<Value> operands;
    for (Value v : launch.getKernelOperands()) {
      if (!inDeviceMemory(v.getType())) {
        operands.push_back(v);
        continue;
      }
      auto type = cast<MemRefType>(v.getType());
      Value pointer = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, v);
      operands.push_back(arith::IndexCastUIOp::create(b, loc, b.getI64Type(), pointer));
      auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, v);
      auto [strides, offset] = type.getStridesAndOffset();
      if (ShapedType::isDynamic(offset))
        operands.push_back(metadata.getOffset());
      // Sizes as memref.dim folds them (to the symbol an allocation or view was sized with),
      // so that equal extents of different buffers are one value, passed once.
      for (auto [k, size] : llvm::enumerate(type.getShape()))
        if (ShapedType::isDynamic(size))
          operands.push_back(b.createOrFold<memref::DimOp>(loc, v, k));
      for (auto [k, stride] : llvm::enumerate(strides))
        if (ShapedType::isDynamic(stride) && !rowMajor(type))
          operands.push_back(metadata.getStrides()[k]);
    }
    launch.getKernelOperandsMutable().assign(operands);
  }

  LogicalResult rewriteKernel(gpu::GPUFuncOp func) {
    // Stack arrays: SPIR-V's Function storage class (what upstream's alloca lowering takes).
    auto functionSpace =
        spirv::StorageClassAttr::get(func.getContext(), spirv::StorageClass::Function);
    WalkResult allocas = func.walk([&](memref::AllocaOp alloca) {
      MemRefType type = alloca.getType();
      if (type.getMemorySpace())
        return WalkResult::advance();
      for (Operation *user : alloca->getUsers())
        if (!isa<memref::LoadOp, memref::StoreOp, vector::LoadOp, vector::StoreOp>(user)) {
          user->emitError() << "tcc-spirv-address-buffers: a kernel's stack array used by "
                            << user->getName() << " (only loads and stores are lowered)";
          return WalkResult::interrupt();
        }
      alloca.getResult().setType(
          MemRefType::get(type.getShape(), type.getElementType(), type.getLayout(), functionSpace));
      return WalkResult::advance();
    });
    if (allocas.wasInterrupted())
      return failure();

    for (int64_t k = static_cast<int64_t>(func.getNumArguments()) - 1; k >= 0; --k) {
      BlockArgument arg = func.getArgument(k);
      if (!inDeviceMemory(arg.getType()))
        continue;
      auto type = cast<MemRefType>(arg.getType());
      SmallVector<Type> types = addressTypes(type);
      Location loc = arg.getLoc();
      for (auto [j, t] : llvm::enumerate(types))
        if (failed(func.insertArgument(k + 1 + j, t, DictionaryAttr::get(func.getContext()), loc)))
          return failure();
      Address address = makeAddress(func, type, k + 1);
      if (failed(rewriteUses(arg, type, address)))
        return failure();
      if (failed(func.eraseArgument(k)))
        return failure();
    }
    return success();
  }

  /// The Address of a memref whose replacing parameters start at `first`; constants for its
  /// static fields are made at the start of the kernel.
  Address makeAddress(gpu::GPUFuncOp func, MemRefType type, unsigned first) {
    OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
    Location loc = func.getLoc();
    Address address;
    unsigned next = first;
    address.base = func.getArgument(next++);
    auto [strides, offset] = type.getStridesAndOffset();
    auto field = [&](int64_t value) -> Value {
      if (ShapedType::isDynamic(value))
        return func.getArgument(next++);
      return arith::ConstantIndexOp::create(b, loc, value);
    };
    address.offset = field(offset);
    for (int64_t size : type.getShape())
      address.sizes.push_back(field(size));
    if (!rowMajor(type)) {
      for (int64_t stride : strides)
        address.strides.push_back(field(stride));
      return address;
    }
    address.strides = rowMajorStrides(b, loc, address.sizes);
    return address;
  }

  /// The PhysicalStorageBuffer pointer to element `indices` of `address`, as a pointer to
  /// `pointee`.
  Value pointerTo(OpBuilder &b, Location loc, const Address &address, ValueRange indices,
                  Type element, Type pointee) {
    Value linear = address.offset;
    for (auto [index, stride] : llvm::zip(indices, address.strides)) {
      Value term = arith::MulIOp::create(b, loc, index, stride);
      linear = arith::AddIOp::create(b, loc, linear, term);
    }
    // The element index is an index (32 bits in the SPIR-V kernels); the byte offset is
    // 64-bit, so that a buffer may pass 2 GiB as long as a tensor has fewer than 2^31
    // elements.
    Value bytes = arith::MulIOp::create(
        b, loc, arith::IndexCastOp::create(b, loc, b.getI64Type(), linear),
        arith::ConstantIntOp::create(b, loc, b.getI64Type(), elementBytes(element)));
    Value at = arith::AddIOp::create(b, loc, address.base, bytes);
    auto pointer = spirv::PointerType::get(pointee, spirv::StorageClass::PhysicalStorageBuffer);
    return spirv::ConvertUToPtrOp::create(b, loc, pointer, at);
  }

  /// The memory-access operands of a PhysicalStorageBuffer load or store (Aligned is
  /// required there): the op's alignment if it has one, else the element's size.
  std::pair<spirv::MemoryAccessAttr, IntegerAttr> access(OpBuilder &b, Type element,
                                                         std::optional<uint64_t> alignment) {
    int64_t align = alignment ? static_cast<int64_t>(*alignment) : elementBytes(element);
    return {spirv::MemoryAccessAttr::get(b.getContext(), spirv::MemoryAccess::Aligned),
            b.getI32IntegerAttr(static_cast<int32_t>(align))};
  }

  LogicalResult rewriteUses(Value memref, MemRefType type, const Address &address) {
    Type element = type.getElementType();
    for (Operation *user : llvm::make_early_inc_range(memref.getUsers())) {
      OpBuilder b(user);
      Location loc = user->getLoc();
      if (auto load = dyn_cast<memref::LoadOp>(user)) {
        Type stored = memoryType(element);
        Value ptr = pointerTo(b, loc, address, load.getIndices(), element, stored);
        auto [memoryAccess, alignment] = access(b, element, load.getAlignment());
        Value value = spirv::LoadOp::create(b, loc, ptr, memoryAccess, alignment);
        if (element.isInteger(1))
          value = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, value,
                                        arith::ConstantIntOp::create(b, loc, stored, 0));
        else if (stored != element)
          value = arith::BitcastOp::create(b, loc, element, value);
        load.replaceAllUsesWith(value);
        load.erase();
      } else if (auto store = dyn_cast<memref::StoreOp>(user)) {
        Type stored = memoryType(element);
        Value ptr = pointerTo(b, loc, address, store.getIndices(), element, stored);
        Value value = store.getValueToStore();
        if (element.isInteger(1))
          value = arith::ExtUIOp::create(b, loc, stored, value);
        else if (stored != element)
          value = arith::BitcastOp::create(b, loc, stored, value);
        auto [memoryAccess, alignment] = access(b, element, store.getAlignment());
        spirv::StoreOp::create(b, loc, ptr, value, memoryAccess, alignment);
        store.erase();
      } else if (auto load = dyn_cast<vector::LoadOp>(user)) {
        if (load.getVectorType().getRank() != 1 || memoryType(element) != element)
          return load.emitError() << "tcc-spirv-address-buffers: only 1-D vector loads of "
                                     "numbers are lowered";
        Value ptr = pointerTo(b, loc, address, load.getIndices(), element, load.getVectorType());
        auto [memoryAccess, alignment] = access(b, element, load.getAlignment());
        Value value = spirv::LoadOp::create(b, loc, ptr, memoryAccess, alignment);
        load.replaceAllUsesWith(value);
        load.erase();
      } else if (auto store = dyn_cast<vector::StoreOp>(user)) {
        if (store.getVectorType().getRank() != 1 || memoryType(element) != element)
          return store.emitError() << "tcc-spirv-address-buffers: only 1-D vector stores of "
                                      "numbers are lowered";
        Value ptr = pointerTo(b, loc, address, store.getIndices(), element, store.getVectorType());
        auto [memoryAccess, alignment] = access(b, element, store.getAlignment());
        spirv::StoreOp::create(b, loc, ptr, store.getValueToStore(), memoryAccess, alignment);
        store.erase();
      } else if (auto view = dyn_cast<memref::ViewOp>(user)) {
        // A typed view of a byte buffer (the workspace): contiguous, row-major, at a byte
        // shift from the buffer's start.
        MemRefType viewType = view.getType();
        Address inner;
        Value shift = arith::IndexCastOp::create(b, loc, b.getI64Type(), view.getByteShift());
        // The source is a byte buffer: its offset counts bytes.
        Value start = arith::IndexCastOp::create(b, loc, b.getI64Type(), address.offset);
        inner.base = arith::AddIOp::create(b, loc, address.base,
                                           arith::AddIOp::create(b, loc, shift, start));
        inner.offset = arith::ConstantIndexOp::create(b, loc, 0);
        unsigned dynamic = 0;
        for (int64_t size : viewType.getShape())
          inner.sizes.push_back(ShapedType::isDynamic(size)
                                    ? view.getSizes()[dynamic++]
                                    : arith::ConstantIndexOp::create(b, loc, size).getResult());
        inner.strides = rowMajorStrides(b, loc, inner.sizes);
        if (failed(rewriteUses(view.getResult(), viewType, inner)))
          return failure();
        view.erase();
      } else if (auto dim = dyn_cast<memref::DimOp>(user)) {
        std::optional<int64_t> index = dim.getConstantIndex();
        if (!index)
          return dim.emitError() << "tcc-spirv-address-buffers: a dimension index that is not "
                                    "a constant";
        dim.replaceAllUsesWith(address.sizes[*index]);
        dim.erase();
      } else {
        return user->emitError() << "tcc-spirv-address-buffers: a kernel's buffer used by "
                                 << user->getName()
                                 << " (loads, stores and dims are lowered; views are folded "
                                    "into them first)";
      }
    }
    return success();
  }
};
} // namespace
