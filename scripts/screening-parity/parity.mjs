// scripts/screening-parity.sh's check: the screening classifier of the analysis crate
// (its `screen` example, whose path is the first argument) against nsfwjs itself
// (reference.mjs) on the test images. Every class score must agree within 0.01; the test
// photos of faces, hands, feet and the pet must come out Neutral in both; the nude in
// testdata/screening/ must be flagged by both (unsafe share: Porn + Hentai + Sexy, at
// least 0.5, the server's default hold threshold).
//
// The hand photos are cut-outs (transparent around the hand). They are checked as the
// analysis tests use them, laid on a plain light backdrop (written to a temporary folder
// as PNG, which both sides then read), and also as they are, alpha dropped: their
// transparent surround then reads as black, and the reference calls two of the three
// Porn. Those two are compared but expect no class.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { classify, initDecoders, rgba } from './reference.mjs';

const TOLERANCE = 0.01;
const HOLD_AT = 0.5;
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const testdata = (...p) => path.join(root, 'testdata', ...p);
const list = (dir) =>
  fs
    .readdirSync(testdata(dir))
    .filter((f) => /\.(png|jpe?g|webp)$/i.test(f))
    .map((f) => testdata(dir, f));

/** The cut-out on a plain light backdrop, 20 px around it (crates/analysis/tests/hands.rs). */
async function onBackdrop(file, dir) {
  const { width, height, data } = await rgba(file);
  const png = new PNG({ width: width + 40, height: height + 40 });
  const bg = [214, 210, 204];
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      const o = (y * png.width + x) * 4;
      const inside = x >= 20 && y >= 20 && x < width + 20 && y < height + 20;
      const i = ((y - 20) * width + (x - 20)) * 4;
      const a = inside ? data[i + 3] / 255 : 0;
      for (let c = 0; c < 3; c++) png.data[o + c] = Math.round((inside ? data[i + c] : 0) * a + bg[c] * (1 - a));
      png.data[o + 3] = 255;
    }
  }
  const out = path.join(dir, path.basename(file).replace(/\.\w+$/, '-on-backdrop.png'));
  fs.writeFileSync(out, PNG.sync.write(png));
  return out;
}

const screenBin = process.argv[2];
if (!screenBin) {
  console.error('usage: node parity.mjs PATH_TO_SCREEN_EXAMPLE');
  process.exit(2);
}
await initDecoders();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'screening-parity-'));
try {
  const handsOnBackdrop = [];
  for (const f of list('hands')) handsOnBackdrop.push(await onBackdrop(f, tmp));
  const cases = [
    ...[...list('face'), ...list('portraits'), ...list('pet'), ...list('feet'), ...handsOnBackdrop].map((file) => ({
      file,
      expect: 'Neutral',
    })),
    ...[...list('noface'), ...list('hands')].map((file) => ({ file, expect: null })),
    ...list('screening').map((file) => ({ file, expect: 'flagged' })),
  ];
  const files = cases.map((c) => c.file);
  const ours = execFileSync(screenBin, files, { encoding: 'utf8', maxBuffer: 1 << 24 })
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const reference = await classify(files);

  const classes = ['Drawing', 'Hentai', 'Neutral', 'Porn', 'Sexy'];
  const top = (s) => classes.reduce((a, b) => (s[b] > s[a] ? b : a));
  const unsafe = (s) => s.Porn + s.Hentai + s.Sexy;
  const name = (f) => (f.startsWith(tmp) ? `hands/${path.basename(f)}` : path.relative(testdata(), f));
  let passed = 0;
  let failed = 0;
  console.log(`${'image'.padEnd(44)} ${classes.map((c) => c.padEnd(15)).join(' ')} max diff  verdict`);
  console.log(`${''.padEnd(44)} ${classes.map(() => 'ours / nsfwjs  ').join(' ')}`);
  cases.forEach((c, i) => {
    const o = ours[i];
    const r = reference[i];
    const problems = [];
    if (o.file !== c.file) problems.push(`our answer is for ${o.file}`);
    const diff = Math.max(...classes.map((k) => Math.abs(o.scores[k] - r.scores[k])));
    if (!(diff <= TOLERANCE)) problems.push(`scores differ by ${diff.toFixed(4)}`);
    for (const [who, s] of [
      ['ours', o.scores],
      ['nsfwjs', r.scores],
    ]) {
      if (c.expect === 'Neutral' && top(s) !== 'Neutral') problems.push(`${who}: ${top(s)}, not Neutral`);
      if (c.expect === 'flagged' && !(unsafe(s) >= HOLD_AT)) {
        problems.push(`${who}: unsafe share ${unsafe(s).toFixed(3)}, not flagged`);
      }
    }
    const verdict = unsafe(r.scores) >= HOLD_AT ? 'flagged' : top(r.scores);
    const cells = classes.map((k) => `${o.scores[k].toFixed(4)}/${r.scores[k].toFixed(4)}`.padEnd(15));
    console.log(`${name(c.file).padEnd(44)} ${cells.join(' ')} ${diff.toExponential(1).padEnd(9)} ${verdict}`);
    for (const p of problems) console.log(`  FAILED: ${p}`);
    if (problems.length) failed++;
    else passed++;
  });
  console.log(`parity: ${passed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
