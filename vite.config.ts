import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { constants as zlib } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { chunkGroups } from './build/chunk-groups.ts';
import { directImports } from './build/direct-imports.ts';
import { serviceWorker } from './build/service-worker.ts';

const clientRoot = fileURLToPath(new URL('./src/client', import.meta.url));
const clientOutDir = fileURLToPath(new URL('./dist/client', import.meta.url));

/**
 * A brotli (.br) and a gzip (.gz) copy beside every text file the browser downloads, at the
 * strongest settings, so the server sends them as they are (@fastify/static's preCompressed)
 * instead of compressing per request. Below 512 bytes a copy saves less than its headers cost;
 * a copy that would not be smaller is not written. Source maps are left alone: only developer
 * tools fetch them.
 */
const precompressedCopies = compression({
  include: /\.(?:js|mjs|css|html|json|svg|txt|xml|webmanifest)$/,
  threshold: 512,
  skipIfLargerOrEqual: true,
  algorithms: [defineAlgorithm('brotliCompress', { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }), defineAlgorithm('gzip', { level: 9 })],
  logLevel: 'silent',
});

// `vite build --ssr`: the server's renderer of the public pages (src/client/prerender.tsx,
// decision 026), beside the browser's build; the server imports dist/ssr/prerender.js.
const ssrBuild = {
  outDir: fileURLToPath(new URL('./dist/ssr', import.meta.url)),
  emptyOutDir: true,
  sourcemap: true,
  rollupOptions: { input: fileURLToPath(new URL('./src/client/prerender.tsx', import.meta.url)) },
};

/**
 * index.html is a template: the server writes the entry's script, stylesheet and each route's
 * preloads into it from the build's manifest (src/server/spa.ts). The development server, which
 * has no manifest, gets the entry's script here.
 */
const devEntry: Plugin = {
  name: 'academy:dev-entry',
  apply: 'serve',
  transformIndexHtml: () => [{ tag: 'script', attrs: { type: 'module', src: '/main.tsx' }, injectTo: 'body' }],
};

export default defineConfig(({ isSsrBuild }) => ({
  root: clientRoot,
  publicDir: isSsrBuild ? false : fileURLToPath(new URL('./src/client/public', import.meta.url)),
  plugins: isSsrBuild ? [react(), tailwindcss()] : [devEntry, directImports(), react(), tailwindcss(), precompressedCopies, serviceWorker(clientOutDir)],
  resolve: { alias: { '@': clientRoot } },
  build: isSsrBuild ? ssrBuild : {
    outDir: clientOutDir,
    emptyOutDir: true,
    sourcemap: true,
    // .vite/manifest.json: each source module's file, its CSS and the files it imports, which the
    // server reads for the entry's tags and each route's preloads (src/server/spa.ts).
    manifest: true,
    // The entry lists every lazy chunk it may load; short names keep that list out of the
    // home page's budget. Every browser we serve supports modulepreload without a polyfill.
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: { index: path.join(clientRoot, 'index.html'), main: path.join(clientRoot, 'main.tsx') },
      output: { chunkFileNames: 'assets/[hash].js', codeSplitting: chunkGroups(clientRoot) },
      // tRPC's packages declare no `sideEffects`, so importing anything from @trpc/client kept its
      // websocket link and subscription code, which this client never uses (we only batch over
      // HTTP). Their modules only define things: unused ones may go.
      treeshake: { moduleSideEffects: (id: string) => !/\/node_modules\/@trpc\/(client|server|react-query)\//.test(id) },
    },
  },
  server: {
    proxy: {
      '/trpc': 'http://127.0.0.1:3000',
      '/api': 'http://127.0.0.1:3000',
    },
  },
}));
