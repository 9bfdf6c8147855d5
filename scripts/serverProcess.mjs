// How the compiled server is started, by `npm start` and by the benchmarks alike.

/**
 * Node's options: a small young generation for the request thread (its garbage is short-lived
 * requests and rows; the default 16 MB semi-spaces stay resident after the first burst).
 */
export const serverNodeArgs = ['--max-semi-space-size=2'];

/**
 * glibc gives every thread that allocates its own malloc arena (64 MB reserved, much of it touched):
 * one arena for the whole process costs nothing measurable on two cores and keeps RSS down. A fixed
 * mmap threshold keeps large blocks (an upload, a reading thread's heap) out of the arena, so they go
 * back to the system when freed: by default glibc raises the threshold after the first such free and
 * the arena keeps the next ones for good. At 32 KB it also takes the compilers' work memory (V8 zone
 * segments, while PGlite's WebAssembly is compiled at start): in the arena, its freed pages stayed
 * resident between live blocks, ~45 MB of the idle server's 240.
 */
export const serverEnv = {
  MALLOC_ARENA_MAX: '1',
  MALLOC_MMAP_THRESHOLD_: '32768',
  MALLOC_TRIM_THRESHOLD_: '131072',
};
