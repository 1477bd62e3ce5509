import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const api = `http://127.0.0.1:${process.env.PORT || 8080}`;

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: { '/v0': api, '/docs': api },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    // scripts/build.mjs reads it to check the initial JavaScript budget.
    manifest: true,
    chunkSizeWarningLimit: 600,
  },
});
