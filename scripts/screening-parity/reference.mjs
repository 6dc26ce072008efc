// The reference side of scripts/screening-parity.sh: nsfwjs 4.4.0 itself (its bundled
// MobileNetV2, on TF.js's pure-JavaScript CPU backend) classifies images. Run alone, it
// prints one JSON line per image named on the command line:
// {"file", "scores": {Drawing, Hentai, Neutral, Porn, Sexy}}.
//
// Pixels are handed to nsfwjs as an int32 [height, width, 3] tensor, which is what
// tf.browser.fromPixels gives it in a browser: RGB, alpha dropped. Decoders: MozJPEG
// (libjpeg-turbo's decoder, as browsers use, with its smooth chroma upsampling) and
// libwebp, both compiled to WebAssembly (@jsquash/jpeg, @jsquash/webp), and pngjs.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs';
import * as nsfwjs from 'nsfwjs';
import { PNG } from 'pngjs';
import decodeJpeg, { init as initJpeg } from '@jsquash/jpeg/decode.js';
import decodeWebp, { init as initWebp } from '@jsquash/webp/decode.js';

const require = createRequire(import.meta.url);
const CLASSES = ['Drawing', 'Hentai', 'Neutral', 'Porn', 'Sexy'];

const arrayBuffer = (b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.length);

export async function rgba(file) {
  const bytes = fs.readFileSync(file);
  if (bytes[0] === 0xff && bytes[1] === 0xd8) {
    const img = await decodeJpeg(arrayBuffer(bytes));
    return { width: img.width, height: img.height, data: img.data };
  }
  if (bytes.subarray(0, 4).toString('latin1') === '\x89PNG') {
    const img = PNG.sync.read(bytes);
    return { width: img.width, height: img.height, data: img.data };
  }
  if (bytes.subarray(8, 12).toString('latin1') === 'WEBP') {
    const img = await decodeWebp(arrayBuffer(bytes));
    return { width: img.width, height: img.height, data: img.data };
  }
  throw new Error(`${file}: not a JPEG, PNG or WebP`);
}

let decoders;
/** Loads the image decoders (once). */
export function initDecoders() {
  // The WebAssembly files are read from disk: Node's fetch cannot load a file: URL.
  const wasm = (f) => WebAssembly.compile(fs.readFileSync(require.resolve(f)));
  decoders ??= Promise.all([
    wasm('@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm').then(initJpeg),
    wasm('@jsquash/webp/codec/dec/webp_dec.wasm').then(initWebp),
  ]);
  return decoders;
}

/** nsfwjs's scores for each file, in order: [{file, scores}]. */
export async function classify(files) {
  await initDecoders();
  await tf.setBackend('cpu');
  const log = console.info;
  const warn = console.warn;
  console.info = () => {}; // nsfwjs announces the model it loads
  console.warn = () => {}; // TF.js advises its native backend
  const model = await nsfwjs.load('MobileNetV2');
  console.info = log;
  console.warn = warn;
  const results = [];
  for (const file of files) {
    const { width, height, data } = await rgba(file);
    const rgb = new Int32Array(width * height * 3);
    for (let i = 0, j = 0; i < width * height; i++, j += 4) {
      rgb[3 * i] = data[j];
      rgb[3 * i + 1] = data[j + 1];
      rgb[3 * i + 2] = data[j + 2];
    }
    const img = tf.tensor3d(rgb, [height, width, 3], 'int32');
    const top = await model.classify(img, 5);
    img.dispose();
    const scores = Object.fromEntries(CLASSES.map((c) => [c, top.find((t) => t.className === c).probability]));
    results.push({ file, scores });
  }
  model.dispose();
  return results;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const r of await classify(process.argv.slice(2))) {
    process.stdout.write(JSON.stringify({ ...r, file: path.relative(process.cwd(), r.file) }) + '\n');
  }
}
