import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { railroadDiagrams } from './diagrams-plugin.js';
import { examplesModule } from './examples-plugin.js';

const root = fileURLToPath(new URL('.', import.meta.url));
const repo = fileURLToPath(new URL('..', import.meta.url));

/** The playground: a static page (no server code); `npm start` builds it and serves `dist/`. */
export default defineConfig({
  root,
  plugins: [railroadDiagrams(), examplesModule()],
  base: './',
  // Workers are ES modules: Monaco's and ours import the pipeline, which is ESM.
  worker: { format: 'es' },
  server: { fs: { allow: [repo] } },
  preview: { port: 4173, host: '127.0.0.1' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 4096,
    // dist/.vite/manifest.json: which chunks the entry imports and which it loads lazily (scripts/playground-size.ts reads it).
    manifest: true,
    reportCompressedSize: false,
  },
  // Monaco's ESM is plain modules; pre-bundling it in dev mode breaks its `new URL(…, import.meta.url)`.
  optimizeDeps: { exclude: ['monaco-editor'] },
});
