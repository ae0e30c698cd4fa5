import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress.ts';
import { routeChunks } from './build/route-chunks.ts';

const clientRoot = fileURLToPath(new URL('./src/client', import.meta.url));

export default defineConfig({
  root: clientRoot,
  publicDir: fileURLToPath(new URL('./src/client/public', import.meta.url)),
  plugins: [react(), tailwindcss(), routeChunks(clientRoot), precompress()],
  resolve: { alias: { '@': clientRoot } },
  build: {
    outDir: fileURLToPath(new URL('./dist/client', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    // The entry lists every lazy chunk it may load; short names keep that list out of the
    // home page's budget. Every browser we serve supports modulepreload without a polyfill.
    modulePreload: { polyfill: false },
    rollupOptions: { output: { chunkFileNames: 'assets/[hash].js' } },
  },
  server: {
    proxy: {
      '/trpc': 'http://127.0.0.1:3000',
      '/api': 'http://127.0.0.1:3000',
    },
  },
});
