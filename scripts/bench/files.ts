import sharp from 'sharp';
import { pdfOf, upload } from '../../tests/server/files/support';
import { filler, makePages } from '../../tests/server/knowledge/support';
import { signUp, type TestServer } from '../../tests/support/app';
import { startServer } from '../../tests/support/server';
import { memoryLine, memoryOf } from './serverCost';
import { ms, percentile } from './stats';
import { rssMb } from './ttft';

const pages = 200;
const rounds = 7;

/** A PDF of `images` full pages of camera-like noise (JPEG, stored as it is) and a few pages of text. */
async function heavyPdf(images: number, side: number): Promise<Buffer> {
  const pictures = await Promise.all(
    Array.from({ length: images }, () =>
      sharp({
        create: {
          width: side,
          height: side,
          channels: 3,
          background: '#808080',
          noise: { type: 'gaussian', mean: 128, sigma: 60 },
        },
      })
        .jpeg({ quality: 95 })
        .toBuffer(),
    ),
  );
  return pdfOf((document) => {
    for (const [n, picture] of pictures.entries()) {
      document.addPage({ margin: 20 });
      document.fontSize(8).text(`Plate ${n + 1}. ${filler(200, n)}`);
      document.image(picture, { fit: [500, 600] });
    }
  });
}

/**
 * Reading uploads, against the compiled server as `npm start` runs it: pages of a 200-page PDF read per
 * second (each round new bytes, so nothing is deduplicated away), and the server's memory while a
 * 20 MB PDF is read (sampled every 20 ms) and once it is done.
 */
export async function printFileFigures(): Promise<void> {
  const server = await startServer(
    { RATE_LIMIT_API_PER_MINUTE: '100000', LOG_LEVEL: 'info' },
    { compiled: true },
  );
  try {
    const user = await signUp(server as unknown as TestServer);
    const documents = await Promise.all(
      Array.from({ length: rounds + 1 }, (_, round) =>
        makePages(
          Array.from({ length: pages }, (_, n) => `Round ${round}, page ${n + 1}. ${filler(350, n)}`),
        ),
      ),
    );
    const timings: number[] = [];
    for (const [round, pdf] of documents.entries()) {
      const answer = await upload(server as unknown as TestServer, user, pdf, `book-${round}.pdf`);
      if (answer.status !== 201) throw new Error(`upload failed: ${JSON.stringify(answer.body)}`);
      // The first is the warm-up: the worker's code is read from disk once.
      if (round > 0) timings.push(answer.ms);
    }
    const median = percentile(timings, 50);
    console.log(`## Files: reading uploads (compiled server, ${rounds} rounds after a warm-up)`);
    console.log(
      `a ${pages}-page PDF (${(documents[0].length / 1e6).toFixed(1)} MB) uploaded and read: p50 ${ms(median)}, slowest ${ms(Math.max(...timings))}; ${Math.round((pages * 1000) / median)} pages per second`,
    );

    const heavy = await heavyPdf(2, 3150);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idle = rssMb(server.pid);
    const idleMemory = await memoryOf(server);
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(server.pid));
    }, 20);
    const started = performance.now();
    const answer = await upload(server as unknown as TestServer, user, heavy, 'scans.pdf');
    const took = performance.now() - started;
    clearInterval(sampler);
    // Measured as an idle server is: V8 collects the upload's garbage some seconds after the work stops.
    await new Promise((resolve) => setTimeout(resolve, 30_000));
    const after = rssMb(server.pid);
    console.log(
      `a ${(heavy.length / 1e6).toFixed(1)} MB PDF (two scanned pages): ${answer.status} in ${ms(took)}; RSS idle ${idle.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, 30 s after ${after.toFixed(0)} MB (${(((after - idle) / idle) * 100).toFixed(1)} % above idle)`,
    );
    console.log(`  idle: ${memoryLine(idleMemory)}`);
    console.log(`  after: ${memoryLine(await memoryOf(server))}`);
  } finally {
    await server.stop();
  }
}
