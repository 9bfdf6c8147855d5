import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const apiTarget = process.env.API_URL ?? 'http://localhost:3000';
const apiPrefixes = ['/auth', '/api', '/payment', '/health'];

export default defineConfig({
  plugins: [
    react(),
    VitePWA({
      strategies: 'generateSW',
      // The worker machine decides when to register (production only, once stable or after 30 s).
      injectRegister: null,
      registerType: 'autoUpdate',
      includeAssets: ['favicon.svg', 'icons/*.png'],
      manifest: {
        name: 'Parley',
        short_name: 'Parley',
        description: 'Chat with AI bots, in your language.',
        theme_color: '#3b3bd6',
        background_color: '#ffffff',
        display: 'standalone',
        start_url: '/',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        navigateFallback: '/index.html',
        navigateFallbackDenylist: apiPrefixes.map((prefix) => new RegExp(`^${prefix}`)),
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
      },
    }),
  ],
  server: {
    proxy: Object.fromEntries(
      apiPrefixes.map((prefix) => [prefix, { target: apiTarget, changeOrigin: false }]),
    ),
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    manifest: true,
    // Rolldown warns when plugins take long: the PWA's precache takes seconds on a busy machine, and
    // `npm start` (which builds first) should print no warning nobody can act on.
    rolldownOptions: {
      checks: { bundlerTimings: false },
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'shell',
              test: /node_modules[\\/](wouter|react|react-dom|scheduler|xstate|@xstate)[\\/]|src[\\/]i18n[\\/](T|bidi|languages|useT)\.tsx?$/,
            },
          ],
        },
      },
    },
  },
});
