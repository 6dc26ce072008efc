#!/usr/bin/env bash
# Regenerates models/nsfw_mobilenet_v2.tflite (the screening classifier) and its licence
# from the npm package it comes from, nsfwjs 4.4.0 (MIT), then checks it against
# models/SHA256SUMS.
#
# nsfwjs ships its MobileNetV2 as a TF.js layers model (Keras 2.2.4 topology, weights
# quantized to uint8) wrapped in two JavaScript files. The steps:
#   1. npm pack nsfwjs@4.4.0; unwrap dist/models/mobilenet_v2/{model,group1-shard1of1}.min.js
#      into model.json + the binary weight shard (node);
#   2. tensorflowjs_converter (PyPI tensorflowjs 4.22.0) --input_format=tfjs_layers_model
#      --output_format=keras: a Keras HDF5 file with the weights dequantized to float32;
#   3. tf.lite.TFLiteConverter.from_keras_model (PyPI tensorflow 2.18.0), builtin
#      operators only, no optimisations: a float32 TFLite file. Batch normalisation is
#      folded into the convolutions and each ZeroPadding2D + VALID convolution becomes a
#      SAME one (Keras pads 0/1, as TFLite's SAME does at stride 2).
# Everything happens in a throwaway folder and virtual environment (about 2 GB of
# wheels); only the .tflite and the licence are written to models/.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
tmp="${WORK:-$(mktemp -d)}"
cd "$tmp"
npm pack --silent nsfwjs@4.4.0 >/dev/null
tar xzf nsfwjs-4.4.0.tgz
node - package/dist/models/mobilenet_v2 tfjs <<'JS'
const fs = require('fs'), path = require('path');
const [src, out] = process.argv.slice(2);
const model = require(path.resolve(src, 'model.min.js'));
const shard = require(path.resolve(src, 'group1-shard1of1.min.js'));
fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, 'model.json'), JSON.stringify(model));
fs.writeFileSync(path.join(out, 'group1-shard1of1'), Buffer.from(shard, 'base64'));
JS
[ -x venv/bin/python ] || python3 -m venv venv
# tensorflowjs's own requirements do not resolve in pip (it backtracks through every jax
# release), so its converter's imports are pinned one by one; ydf 0.9.0 is the last one
# built against protobuf 5, which tensorflow 2.18 needs.
venv/bin/pip install --quiet tensorflow-cpu==2.18.0 tensorflow==2.18.0 tf_keras==2.18.0 \
  tensorflow-decision-forests==1.11.0 ydf==0.9.0 tensorflow-hub==0.16.1 \
  jax==0.4.30 jaxlib==0.4.30 'packaging~=23.1' importlib_resources six
venv/bin/pip install --quiet --no-deps tensorflowjs==4.22.0
export TF_USE_LEGACY_KERAS=1 TF_CPP_MIN_LOG_LEVEL=2
venv/bin/tensorflowjs_converter --input_format=tfjs_layers_model --output_format=keras \
  tfjs/model.json mobilenet_v2.h5
venv/bin/python - mobilenet_v2.h5 "$root/models/nsfw_mobilenet_v2.tflite" <<'PY'
import sys
import tensorflow as tf
import tf_keras
model = tf_keras.models.load_model(sys.argv[1], compile=False)
converter = tf.lite.TFLiteConverter.from_keras_model(model)
converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS]
open(sys.argv[2], "wb").write(converter.convert())
PY
cp package/LICENSE "$root/models/LICENSE.nsfwjs-mit.txt"
[ -n "${WORK:-}" ] || rm -rf "$tmp"
cd "$root/models" && sha256sum -c SHA256SUMS
