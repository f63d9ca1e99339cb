//===- metal_unavailable.c - the Metal backend of a runtime built off macOS -----------===//
//
// Metal exists on macOS alone: elsewhere the runtime's Metal backend (metal_device.m there)
// is this one, which lets a model compiled with `--target apple` load (its MSL image is
// checked) and says why it cannot run.
//
//===------------------------------------------------------------------------------------===//
#include "unavailable_device.h"

TCC_UNAVAILABLE_DEVICE(tcc_metal_device, kDLMetal, "metal",
                       "Metal runs on macOS only, and this runtime was built for another "
                       "system");
