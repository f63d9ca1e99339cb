//===- model_queries.c - what a loaded model says about itself --------------------------===//
//
// The public metadata queries of a tcc_model (runtime.h): its target, inputs, outputs,
// symbols, parameters, device images and, for a fat model, its variants. They read the
// model's default variant (model.c) unless they name another.
//
//===------------------------------------------------------------------------------------===//
#include "model_internal.h"
#include "status_internal.h"

const char *tcc_model_path(const tcc_model *model) { return model ? model->path : ""; }

const char *tcc_model_tcc_version(const tcc_model *model) {
  return model ? model->descriptor->tcc_version : "";
}

const char *tcc_model_target_triple(const tcc_model *model) {
  return model ? model->descriptor->target_triple : "";
}

const char *tcc_model_cpu(const tcc_model *model) { return model ? model->descriptor->cpu : ""; }

const char *tcc_model_cpu_features(const tcc_model *model) {
  return model ? model->descriptor->cpu_features : "";
}

int32_t tcc_model_num_inputs(const tcc_model *model) {
  return model ? model->descriptor->num_inputs : 0;
}

int32_t tcc_model_num_outputs(const tcc_model *model) {
  return model ? model->descriptor->num_outputs : 0;
}

int32_t tcc_model_num_symbols(const tcc_model *model) {
  return model ? model->descriptor->num_symbols : 0;
}

int32_t tcc_model_batch_symbol(const tcc_model *model) {
  return model ? tcc_descriptor_batch_symbol(model->descriptor) : -1;
}

int32_t tcc_model_symbol_computed(const tcc_model *model, int32_t index) {
  if (!model || index < 0 || index >= model->descriptor->num_symbols)
    return 0;
  return tcc_descriptor_symbol_computed(model->descriptor, index);
}

static tcc_status tensor_info(const char *function, const tcc_model *model, int32_t index,
                              int input, tcc_tensor_info *out_info) {
  if (!model || !out_info)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: %s is null", function,
                           model ? "out_info" : "model");
  int32_t count = input ? model->descriptor->num_inputs : model->descriptor->num_outputs;
  if (index < 0 || index >= count)
    return tcc_make_status(TCC_STATUS_OUT_OF_RANGE,
                           "%s: index %d is out of range: the model has %d %s", function,
                           (int)index, (int)count, input ? "inputs" : "outputs");
  *out_info = (input ? model->inputs : model->outputs)[index].info;
  return NULL;
}

tcc_status tcc_model_input_info(const tcc_model *model, int32_t index, tcc_tensor_info *out_info) {
  return tensor_info("tcc_model_input_info", model, index, 1, out_info);
}

tcc_status tcc_model_output_info(const tcc_model *model, int32_t index, tcc_tensor_info *out_info) {
  return tensor_info("tcc_model_output_info", model, index, 0, out_info);
}

tcc_status tcc_model_symbol_info(const tcc_model *model, int32_t index, tcc_symbol_info *out_info) {
  if (!model || !out_info)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "tcc_model_symbol_info: %s is null",
                           model ? "out_info" : "model");
  if (index < 0 || index >= model->descriptor->num_symbols)
    return tcc_make_status(TCC_STATUS_OUT_OF_RANGE,
                           "tcc_model_symbol_info: index %d is out of range: the model has %d "
                           "symbols",
                           (int)index, (int)model->descriptor->num_symbols);
  const tcc_symbol_desc *symbol = &model->descriptor->symbols[index];
  out_info->name = symbol->name;
  out_info->min = symbol->min;
  out_info->max = symbol->max;
  return NULL;
}

int32_t tcc_model_device_type(const tcc_model *model) {
  return model ? tcc_descriptor_device_type(model->descriptor) : (int32_t)kDLCPU;
}

int32_t tcc_model_num_device_images(const tcc_model *model) {
  return model && tcc_descriptor_device_type(model->descriptor) != kDLCPU
             ? model->descriptor->num_device_images
             : 0;
}

tcc_status tcc_model_device_image(const tcc_model *model, int32_t index,
                                  tcc_device_image *out_image) {
  const char *function = "tcc_model_device_image";
  if (!model || !out_image)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: %s is null", function,
                           model ? "out_image" : "model");
  int32_t count = tcc_model_num_device_images(model);
  if (index < 0 || index >= count)
    return tcc_make_status(TCC_STATUS_OUT_OF_RANGE,
                           "%s: index %d is out of range: the model has %d device images", function,
                           (int)index, (int)count);
  *out_image = model->descriptor->device_images[index];
  return NULL;
}

int32_t tcc_model_num_variants(const tcc_model *model) { return model ? model->num_variants : 0; }

int32_t tcc_model_default_variant(const tcc_model *model) {
  return model ? model->default_variant : 0;
}

tcc_status tcc_model_variant_info(const tcc_model *model, int32_t index,
                                  tcc_variant_info *out_info) {
  const char *function = "tcc_model_variant_info";
  if (!model || !out_info)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: %s is null", function,
                           model ? "out_info" : "model");
  if (index < 0 || index >= model->num_variants)
    return tcc_make_status(TCC_STATUS_OUT_OF_RANGE,
                           "%s: index %d is out of range: the model has %d variants", function,
                           (int)index, (int)model->num_variants);
  const tcc_model_variant *variant = &model->variants[index];
  const tcc_model_descriptor *d = variant->descriptor;
  tcc_variant_info info = {0};
  info.device_type = tcc_descriptor_device_type(d);
  if (info.device_type != kDLCPU) {
    info.num_device_images = d->num_device_images;
    info.device_images = d->device_images;
  }
  info.target_triple = d->target_triple;
  info.cpu = d->cpu;
  info.cpu_features = d->cpu_features;
  info.unavailable = variant->unavailable;
  *out_info = info;
  return NULL;
}

int32_t tcc_model_num_parameters(const tcc_model *model) {
  return model ? model->descriptor->num_parameters : 0;
}

tcc_status tcc_model_parameter_info(const tcc_model *model, int32_t index,
                                    tcc_tensor_info *out_info) {
  const char *function = "tcc_model_parameter_info";
  if (!model || !out_info)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: %s is null", function,
                           model ? "out_info" : "model");
  if (index < 0 || index >= model->descriptor->num_parameters)
    return tcc_make_status(TCC_STATUS_OUT_OF_RANGE,
                           "%s: index %d is out of range: the model has %d parameters", function,
                           (int)index, (int)model->descriptor->num_parameters);
  *out_info = model->parameters[index].info;
  return NULL;
}
