import { createServer } from 'node:net';

/**
 * A loopback port nothing listens on now: for a server that must be told
 * its port before it starts (or starts again on it), so not 0.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
