/** Registers the offline/update worker that vite-plugin-pwa generates (`/sw.js`, whole-site scope). */
export async function registerWorker(): Promise<ServiceWorkerRegistration> {
  if (!('serviceWorker' in navigator)) throw new Error('Service workers are not supported in this browser');
  return navigator.serviceWorker.register('/sw.js', { scope: '/' });
}
