// greedy_tokens_ort.js - greedy decoding of a cached decode-step model with ONNX Runtime:
// the same loop as examples/generate.c, for comparing tokens (scripts/gpu/greedy_reference.py
// gives torch's, on the GPU machine).
//
//   NODE_PATH=~/.cache/tcc/onnxruntime-node/node_modules \
//     node scripts/greedy_tokens_ort.js model.onnx TOKENS.txt [--steps N]
//
// The model is test/data/models/llama_small_kv's form: inputs input_ids [1, 1] then pairs
// of caches [1, heads, past, depth]; outputs the logits [1, 1, vocab] then the caches with
// one more position. TOKENS.txt's first line is the prompt; the prompt is fed one token at
// a time from empty caches, then N tokens are generated (argmax of the logits) and printed
// on one line, then the smallest gap between the two largest logits of a step.
'use strict';
const ort = require('onnxruntime-node');
const fs = require('fs');

async function main() {
  const args = process.argv.slice(2);
  const stepsAt = args.indexOf('--steps');
  const steps = stepsAt >= 0 ? Number(args[stepsAt + 1]) : 48;
  const prompt = fs.readFileSync(args[1], 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const session = await ort.InferenceSession.create(args[0], { intraOpNumThreads: 1 });
  const caches = session.inputNames.slice(1);
  // Empty caches of the model's heads and depth (dims 1 and 3 of each cache input).
  const dims = {};
  for (const meta of session.inputMetadata.slice(1))
    dims[meta.name] = meta.shape;
  let past = {};
  for (const name of caches)
    past[name] = new ort.Tensor('float32', new Float32Array(0), [1, dims[name][1], 0, dims[name][3]]);
  const sequence = prompt.slice();
  let smallestGap = Infinity;
  for (let step = 0; step < prompt.length + steps - 1; ++step) {
    const feeds = { [session.inputNames[0]]: new ort.Tensor('int64', BigInt64Array.from([BigInt(sequence[step])]), [1, 1]) };
    for (const name of caches)
      feeds[name] = past[name];
    const out = await session.run(feeds);
    const next = {};
    session.outputNames.slice(1).forEach((name, k) => { next[caches[k]] = out[name]; });
    past = next;
    if (step + 1 < prompt.length)
      continue;
    const logits = out[session.outputNames[0]].data;
    let best = 0;
    for (let i = 1; i < logits.length; ++i)
      if (logits[i] > logits[best]) best = i;
    let second = -Infinity;
    for (let i = 0; i < logits.length; ++i)
      if (i !== best && logits[i] > second) second = logits[i];
    smallestGap = Math.min(smallestGap, logits[best] - second);
    sequence.push(best);
  }
  console.log(sequence.slice(prompt.length).join(' '));
  console.log('smallest top-2 logit gap: ' + smallestGap.toPrecision(3));
}

main().catch((e) => { console.error(e); process.exit(1); });
