import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Built to `web/dist`, served by the server under `/app/` (src/web/). */
export default defineConfig({
  base: '/app/',
  plugins: [react(), tailwindcss()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: {
    // `npm run dev -w web`: the API on the server's default port, same origin for the cookie.
    proxy: { '^/(?!app/|@|src/|node_modules/).*': 'http://localhost:3000' },
  },
});
