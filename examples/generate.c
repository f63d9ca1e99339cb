// generate.c - greedy token generation from C with a decoder that keeps a KV cache.
//
//   tcc test/data/models/llama_small_kv/model.onnx --dim batch=1 --kv-cache 1024 -o decoder.so
//   generate decoder.so examples/generate/reference_tokens.txt [threads]
//
// The decoder is one decoding step, exported with its caches as inputs and outputs: input_ids
// [1, 1] and, per layer, the keys and values of the positions so far ("past",
// [1, heads, past, depth]) in; the next token's logits [1, 1, vocab] and the caches with this
// position appended ("present" = Concat(past, new)) out. The prompt (the file's first line)
// is fed one token at a time; then each step's most likely token (argmax of the logits) is
// the next input, until as many tokens as the file's second line holds (the reference: the
// same loop in ONNX Runtime, scripts/greedy_tokens_ort.js) have been generated. The program
// prints the tokens and exits 1 unless they are the reference's.
//
// Compiled with --kv-cache N, the library keeps the caches itself, N positions each, and
// appends each step's keys and values in place: a step's inputs are the token and the
// number of positions already cached ("past", an int64 scalar). That is the form this
// program prefers. Without --kv-cache (and --dim past=0:N instead), the caches are the
// step's inputs and outputs: the program keeps two buffers per cache, as long as the longest
// sequence, and each step's present is written into the buffer the next step reads as its
// past (the two swap), so the program copies nothing, but the model copies the whole past
// into present every step.
#define _POSIX_C_SOURCE 199309L // clock_gettime
#include <tcc/runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_TOKENS 4096
#define MAX_CACHES 64

static int fail(tcc_status status) {
  fprintf(stderr, "error: %s\n", tcc_status_message(status));
  tcc_status_free(status);
  return 1;
}

/// Reads one line of whitespace-separated token ids into `tokens`; returns the count, -1 on
/// a malformed line.
static int read_tokens(FILE *file, int64_t *tokens, int capacity) {
  char line[65536];
  if (!fgets(line, sizeof(line), file))
    return -1;
  int count = 0;
  for (char *at = strtok(line, " \t\r\n"); at; at = strtok(NULL, " \t\r\n")) {
    char *end = NULL;
    long long value = strtoll(at, &end, 10);
    if (*end != '\0' || value < 0 || count == capacity)
      return -1;
    tokens[count++] = value;
  }
  return count;
}

static DLTensor tensor(void *data, DLDataTypeCode code, uint8_t bits, int32_t ndim,
                       int64_t *shape) {
  DLTensor t;
  memset(&t, 0, sizeof(t));
  t.data = data;
  t.device.device_type = kDLCPU;
  t.ndim = ndim;
  t.dtype.code = (uint8_t)code;
  t.dtype.bits = bits;
  t.dtype.lanes = 1;
  t.shape = shape;
  return t;
}

static double seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s decoder.so reference_tokens.txt [threads]\n", argv[0]);
    return 2;
  }
  static int64_t prompt[MAX_TOKENS], expected[MAX_TOKENS], generated[MAX_TOKENS];
  FILE *file = fopen(argv[2], "r");
  if (!file) {
    fprintf(stderr, "error: cannot open %s\n", argv[2]);
    return 2;
  }
  int prompt_length = read_tokens(file, prompt, MAX_TOKENS);
  int steps = read_tokens(file, expected, MAX_TOKENS);
  fclose(file);
  if (prompt_length < 1 || steps < 1 || prompt_length + steps > MAX_TOKENS) {
    fprintf(stderr, "error: %s must hold a prompt line and a line of expected tokens\n", argv[2]);
    return 2;
  }

  tcc_model *model = NULL;
  tcc_status status = tcc_model_load(argv[1], NULL, &model);
  if (status)
    return fail(status);
  tcc_session_options options = TCC_SESSION_OPTIONS_INIT;
  options.num_threads = argc > 3 ? atoi(argv[3]) : 1;
  tcc_session *session = NULL;
  if ((status = tcc_session_create(model, &options, &session))) {
    tcc_model_release(model);
    return fail(status);
  }

  // The decoder's interface: input 0 the token; then either the cached length (--kv-cache:
  // the caches are the session's) or the caches, returned one position longer after the
  // logits (output 0), in the same order.
  tcc_tensor_info logits_info, length_info, cache_info[MAX_CACHES];
  int kept = tcc_model_num_inputs(model) == 2 && tcc_model_num_outputs(model) == 1 &&
             !tcc_model_input_info(model, 1, &length_info) && length_info.rank == 0 &&
             length_info.dtype == TCC_DTYPE_INT64;
  int32_t caches = kept ? 0 : tcc_model_num_inputs(model) - 1;
  int ok = (kept || (caches >= 1 && caches <= MAX_CACHES &&
                     tcc_model_num_outputs(model) == caches + 1)) &&
           !tcc_model_output_info(model, 0, &logits_info) && logits_info.rank == 3;
  for (int32_t c = 0; ok && c < caches; ++c)
    ok = !tcc_model_input_info(model, c + 1, &cache_info[c]) && cache_info[c].rank == 4 &&
         cache_info[c].dtype == TCC_DTYPE_FLOAT32 && cache_info[c].shape[1] > 0 &&
         cache_info[c].shape[3] > 0;
  int64_t vocab = ok ? logits_info.shape[2] : -1;
  if (!ok || vocab < 1) {
    fprintf(stderr, "error: %s is not a decoding step (input_ids, caches [1, heads, past, "
                    "depth] -> logits [1, 1, vocab], caches; or with --kv-cache: input_ids, "
                    "past -> logits)\n", argv[1]);
    return 2;
  }

  // Without --kv-cache: two buffers per cache, each as long as the whole sequence.
  int64_t longest = prompt_length + steps;
  float *buffers[MAX_CACHES][2];
  for (int32_t c = 0; c < caches; ++c)
    for (int k = 0; k < 2; ++k) {
      size_t floats = (size_t)(cache_info[c].shape[1] * longest * cache_info[c].shape[3]);
      buffers[c][k] = malloc(floats * sizeof(float));
      if (!buffers[c][k]) {
        fprintf(stderr, "error: out of memory\n");
        return 1;
      }
    }
  float *logits = malloc((size_t)vocab * sizeof(float));

  int64_t token_shape[2] = {1, 1}, logits_shape[3] = {1, 1, vocab}, cached = 0;
  int64_t past_shapes[MAX_CACHES][4], present_shapes[MAX_CACHES][4];
  DLTensor inputs[MAX_CACHES + 1], outputs[MAX_CACHES + 1];
  const DLTensor *input_list[MAX_CACHES + 1], *output_list[MAX_CACHES + 1];
  int64_t token = prompt[0];
  int generated_count = 0, current = 0;
  double decode_seconds = 0;
  for (int64_t position = 0; position + 1 < longest; ++position) {
    inputs[0] = tensor(&token, kDLInt, 64, 2, token_shape);
    outputs[0] = tensor(logits, kDLFloat, 32, 3, logits_shape);
    // With --kv-cache: how many positions the session's caches hold (this step appends one).
    cached = position;
    if (kept)
      inputs[1] = tensor(&cached, kDLInt, 64, 0, NULL);
    for (int32_t c = 0; c < caches; ++c) {
      int64_t heads = cache_info[c].shape[1], depth = cache_info[c].shape[3];
      int64_t *past = past_shapes[c], *present = present_shapes[c];
      past[0] = present[0] = 1;
      past[1] = present[1] = heads;
      past[2] = position;
      present[2] = position + 1;
      past[3] = present[3] = depth;
      // This step reads one buffer and writes the other; the next step, the other way.
      inputs[c + 1] = tensor(buffers[c][current], kDLFloat, 32, 4, past);
      outputs[c + 1] = tensor(buffers[c][1 - current], kDLFloat, 32, 4, present);
    }
    size_t num_inputs = kept ? 2 : (size_t)caches + 1, num_outputs = (size_t)caches + 1;
    for (size_t k = 0; k < num_inputs; ++k)
      input_list[k] = &inputs[k];
    for (size_t k = 0; k < num_outputs; ++k)
      output_list[k] = &outputs[k];
    double start = seconds();
    if ((status = tcc_session_run(session, input_list, num_inputs, output_list, num_outputs)))
      return fail(status);
    if (position + 1 >= prompt_length)
      decode_seconds += seconds() - start;
    current = 1 - current;
    if (position + 1 < prompt_length) {
      token = prompt[position + 1];
      continue;
    }
    int64_t best = 0;
    for (int64_t i = 1; i < vocab; ++i)
      if (logits[i] > logits[best])
        best = i;
    generated[generated_count++] = best;
    token = best;
  }

  int equal = 0;
  printf("generated:");
  for (int i = 0; i < generated_count; ++i) {
    printf(" %lld", (long long)generated[i]);
    equal += generated[i] == expected[i];
  }
  printf("\n%d of %d tokens equal the reference; %.3f ms a generated token (context %d to "
         "%lld; caches %s)\n",
         equal, steps, 1e3 * decode_seconds / generated_count, prompt_length,
         (long long)(longest - 1), kept ? "kept by the session" : "passed in and out");

  for (int32_t c = 0; c < caches; ++c) {
    free(buffers[c][0]);
    free(buffers[c][1]);
  }
  free(logits);
  tcc_session_release(session);
  tcc_model_release(model);
  return equal == steps ? 0 : 1;
}
