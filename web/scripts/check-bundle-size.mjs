#!/usr/bin/env node
// The home page's first-load JavaScript budget, measured from the built
// index.html (the file the release binary embeds and serves): every
// <script src> and <link rel="modulepreload" href> it names, plus anything
// those files import statically (Vite preloads that closure, so the two lists
// should agree; a file found only by following imports is reported, since the
// browser still fetches it before the page runs).
//
// Sizes are gzip at node zlib's default level (6): what the server's
// CompressionLayer sends (async-compression's default) and what Vite's build
// report prints. 1 KB = 1024 bytes. Exits 1 when the total is over budget.
//
//   node scripts/check-bundle-size.mjs [--dist dist] [--budget 150]
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 && args[at + 1] ? args[at + 1] : fallback;
};
const dist = resolve(here, '..', option('--dist', 'dist'));
const budgetKb = Number(option('--budget', '150'));

const indexPath = join(dist, 'index.html');
if (!existsSync(indexPath)) {
  console.error(`${indexPath} is missing: run \`npm run build\` first`);
  process.exit(2);
}
const html = readFileSync(indexPath, 'utf8');

/** Attribute value of one tag, or undefined. */
const attr = (tag, name) => tag.match(new RegExp(`\\s${name}\\s*=\\s*["']([^"']+)["']`, 'i'))?.[1];

const named = [];
for (const tag of html.match(/<script\b[^>]*>/gi) ?? []) {
  const src = attr(tag, 'src');
  if (src) named.push(src);
}
for (const tag of html.match(/<link\b[^>]*>/gi) ?? []) {
  const rel = attr(tag, 'rel')?.toLowerCase().split(/\s+/) ?? [];
  const href = attr(tag, 'href');
  if (href && rel.includes('modulepreload')) named.push(href);
}

/** Site path (/assets/x.js) to a file under dist. */
const fileOf = (url) => join(dist, url.replace(/^https?:\/\/[^/]+/, '').replace(/^\//, '').split(/[?#]/)[0]);

// Static imports only: `import … from "./x.js"`, `export … from "./x.js"`
// and bare `import "./x.js"`; `import("./x.js")` is a later, lazy load.
const staticImport = /(?:\bimport|\bexport)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+\.js)["']/g;

const seen = new Map(); // site path -> { bytes, gzip, how }
const queue = named.map((url) => ({ url, how: 'index.html' }));
while (queue.length > 0) {
  const { url, how } = queue.shift();
  if (seen.has(url)) continue;
  const path = fileOf(url);
  if (!existsSync(path)) {
    console.error(`index.html names ${url}, but ${path} does not exist`);
    process.exit(2);
  }
  const code = readFileSync(path);
  seen.set(url, { bytes: code.length, gzip: gzipSync(code).length, how });
  for (const [, spec] of code.toString('utf8').matchAll(staticImport)) {
    if (!spec.startsWith('.') && !spec.startsWith('/')) continue;
    const target = spec.startsWith('/') ? spec : posix.join(posix.dirname(url), spec);
    queue.push({ url: target, how: `imported by ${posix.basename(url)}` });
  }
}

const kb = (n) => (n / 1024).toFixed(1);
const rows = [...seen.entries()].sort((a, b) => b[1].gzip - a[1].gzip);
const width = Math.max(...rows.map(([url]) => url.length));
console.log(`First-load JavaScript named by ${posix.join(posix.basename(dist), 'index.html')} (gzip level 6, 1 KB = 1024 B):`);
for (const [url, { bytes, gzip, how }] of rows) {
  const note = how === 'index.html' ? '' : `  (${how}, not preloaded)`;
  console.log(`  ${url.padEnd(width)}  ${kb(bytes).padStart(7)} KB raw  ${kb(gzip).padStart(6)} KB gz${note}`);
}
const total = rows.reduce((sum, [, { gzip }]) => sum + gzip, 0);
const raw = rows.reduce((sum, [, { bytes }]) => sum + bytes, 0);
console.log(`  ${'total'.padEnd(width)}  ${kb(raw).padStart(7)} KB raw  ${kb(total).padStart(6)} KB gz  (budget ${budgetKb} KB)`);

if (total > budgetKb * 1024) {
  console.error(
    `The home page's first load is ${kb(total)} KB gzipped, over the ${budgetKb} KB budget: ` +
      'load what only a later screen needs with that screen (see web/README.md, "First-load budget").',
  );
  process.exit(1);
}
