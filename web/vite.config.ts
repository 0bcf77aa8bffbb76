import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Built to `web/dist`, served by the server under `/app/` (src/web/). */
export default defineConfig({
  base: '/app/',
  plugins: [react(), tailwindcss()],
  // The client package from its source (as web/tsconfig.json's `paths`), so the app needs no
  // build of it first and a change to it shows in the app at once.
  resolve: {
    alias: {
      '@sparrow/client': fileURLToPath(new URL('../packages/client/src/index.ts', import.meta.url)),
    },
  },
  // The server puts each answer's own nonce in place of this (src/web/routes.ts).
  html: { cspNonce: 'SPARROW_CSP_NONCE' },
  // The manifest (dist/.vite/manifest.json) names the entry's chunks: bench/web.ts sums the
  // first screen's JavaScript and CSS from it.
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, manifest: true },
  server: {
    // `npm run dev -w web`: everything outside /app/ goes to the server on its default port,
    // so the app and the API share this origin (start the server with PUBLIC_URL set to it).
    proxy: { '^/(?!app(/|$)).*': 'http://localhost:8080' },
  },
});
