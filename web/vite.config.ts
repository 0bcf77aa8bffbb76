import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Built to `web/dist`, served by the server under `/app/` (src/web/). */
export default defineConfig({
  base: '/app/',
  plugins: [react(), tailwindcss()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: {
    // `npm run dev -w web`: everything outside /app/ goes to the server on its default port,
    // so the app and the API share this origin (start the server with PUBLIC_URL set to it).
    proxy: { '^/(?!app(/|$)).*': 'http://localhost:8080' },
  },
});
