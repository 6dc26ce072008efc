/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { visualizer } from 'rollup-plugin-visualizer';
import { defineConfig, type PluginOption } from 'vite';

// Everything the Rust server answers: the JSON API, the auth API, the named
// functions, media files and the health check. Only /auth/v1 goes to the
// server: /auth itself is the app's sign-in page.
const SERVER = process.env.PRETTYSCORE_API_URL ?? 'http://127.0.0.1:8080';
const proxied = ['/api', '/auth/v1', '/functions', '/media', '/healthz'];

// `ANALYZE=1 npm run build` also writes bundle-stats.html beside this file (a
// treemap of every chunk with gzipped sizes; ANALYZE=json writes the raw data
// as bundle-stats.json), not into dist: the server embeds dist.
const analyse: PluginOption[] = process.env.ANALYZE
  ? [
      visualizer(
        process.env.ANALYZE === 'json'
          ? { filename: 'bundle-stats.json', template: 'raw-data', gzipSize: true }
          : { filename: 'bundle-stats.html', template: 'treemap', gzipSize: true },
      ),
    ]
  : [];

export default defineConfig({
  plugins: [react(), tailwindcss(), ...analyse],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: SERVER, changeOrigin: false }])),
  },
  preview: {
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: SERVER, changeOrigin: false }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries in their own long-lived chunks: the app's own code changes
        // far more often, and each page is already a chunk of its own. Only
        // libraries that load as a whole, with one screen, get a group: a group
        // collects every matching module of every page into one chunk, so a
        // group of all Radix parts put the dialogs, tabs and menus of later
        // screens into the home page's first load. Radix, sonner and the
        // class-name helpers now split with the screens that use them.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'router', test: /node_modules[\\/](react-router|cookie|set-cookie-parser)[\\/]/ },
            // auth-js alone (it has its own tslib under @supabase): tslib at the top is
            // also Radix's, and a group with it was imported by the home page's bundle.
            { name: 'auth', test: /node_modules[\\/]@supabase[\\/]/ },
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/ },
          ],
        },
      },
    },
  },
  test: {
    // happy-dom sets up in about half jsdom's time; the few files that rely
    // on jsdom's cookies, storage quota or FormData say so in their first line.
    environment: 'happy-dom',
    globals: true,
    setupFiles: ['./src/testing/setup-tests.ts'],
    include: ['src/**/*.test.{ts,tsx}', 'eslint-rules/**/*.test.ts'],
    restoreMocks: true,
    // Only a test that hangs fails on time (see src/testing/setup-tests.ts).
    testTimeout: 30_000,
  },
});
