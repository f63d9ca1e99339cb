// ort_profile.js - ONNX Runtime's own time per node of a model, to set beside tcc's per-kernel
// profile (perf record -o X.perf tcc-run model.so --benchmark N ...; perf report --sort symbol).
// Not a test and not a benchmark: a tool for finding which nodes tcc loses on.
//
//   NODE_PATH=~/.cache/tcc/onnxruntime-node/node_modules \
//     node scripts/ort_profile.js model.onnx input0.npy [input1.npy ...] [--threads T] [--runs N]
//
// Runs the model N times (default 200) with ORT's profiler on (all graph optimizations, one
// inter-op thread, T intra-op threads, default 1) and prints the median kernel time of each
// node in microseconds, largest first, then their sum. Inputs are .npy files in the model's
// input order (float32, int64, int32, bool).
'use strict';
const ort = require('onnxruntime-node');
const fs = require('fs');
const os = require('os');
const path = require('path');

const NPY_TYPES = {
  '<f4': ['float32', Float32Array], '<i8': ['int64', BigInt64Array],
  '<i4': ['int32', Int32Array], '|b1': ['bool', Uint8Array],
};

function readNpy(file) {
  const buf = fs.readFileSync(file);
  const headerLength = buf.readUInt16LE(8);
  const header = buf.slice(10, 10 + headerLength).toString();
  const descr = header.match(/'descr': '([^']*)'/)[1];
  if (!NPY_TYPES[descr] || /'fortran_order': True/.test(header))
    throw new Error(`${file}: unsupported .npy (dtype ${descr} or Fortran order)`);
  const shape = header.match(/'shape': \(([^)]*)\)/)[1].split(',')
                      .filter((s) => s.trim()).map(Number);
  const [type, Array] = NPY_TYPES[descr];
  const bytes = buf.slice(10 + headerLength);
  const data = new Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  return new ort.Tensor(type, type === 'bool' ? Uint8Array.from(data) : data, shape);
}

async function main() {
  const args = process.argv.slice(2);
  let threads = 1, runs = 200;
  const files = [];
  for (let i = 0; i < args.length; ++i) {
    if (args[i] === '--threads') threads = Number(args[++i]);
    else if (args[i] === '--runs') runs = Number(args[++i]);
    else files.push(args[i]);
  }
  if (files.length < 2) {
    console.error('usage: node ort_profile.js model.onnx input.npy... [--threads T] [--runs N]');
    process.exit(2);
  }
  const prefix = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ort-profile-')), 'profile');
  const session = await ort.InferenceSession.create(files[0], {
    intraOpNumThreads: threads, interOpNumThreads: 1, graphOptimizationLevel: 'all',
    enableProfiling: true, profileFilePrefix: prefix,
  });
  const feeds = {};
  session.inputNames.forEach((name, k) => { feeds[name] = readNpy(files[1 + k]); });
  for (let i = 0; i < runs; ++i) await session.run(feeds);
  await session.endProfiling();
  const dir = path.dirname(prefix);
  const profile = fs.readdirSync(dir).filter((f) => f.endsWith('.json'))[0];
  const events = JSON.parse(fs.readFileSync(path.join(dir, profile)));
  const perNode = new Map();
  for (const e of events) {
    if (e.cat !== 'Node' || !e.name.endsWith('_kernel_time')) continue;
    const name = e.name.slice(0, -'_kernel_time'.length);
    if (!perNode.has(name)) perNode.set(name, []);
    perNode.get(name).push(e.dur);
  }
  const rows = [...perNode].map(([name, d]) => {
    d.sort((a, b) => a - b);
    return [name, d[d.length >> 1]];
  }).sort((a, b) => b[1] - a[1]);
  let total = 0;
  for (const [name, us] of rows) {
    total += us;
    console.log(`${String(us).padStart(8)} us  ${name}`);
  }
  console.log(`${String(total).padStart(8)} us  total (medians summed, ${threads} thread(s), ${runs} runs)`);
  fs.rmSync(dir, {recursive: true, force: true});
}

main().catch((e) => { console.error(`ort_profile.js: error: ${e.message}`); process.exit(1); });
