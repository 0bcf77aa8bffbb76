import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const WEB = 'web';
const BUILT = join(WEB, 'dist', 'index.html');
/** What the build is made of: when any is newer than the build, it is made again. */
const SOURCES = [
  join(WEB, 'src'),
  join(WEB, 'index.html'),
  join(WEB, 'vite.config.ts'),
  join(WEB, 'package.json'),
  join('packages', 'client', 'src'),
];

function newestChange(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path, { recursive: true, encoding: 'utf8' })
    .map((name) => statSync(join(path, name)).mtimeMs)
    .reduce((newest, time) => Math.max(newest, time), stats.mtimeMs);
}

/**
 * Builds the web app once for the run when `web/dist` is missing or older
 * than its sources: the browser tests drive the built app as the server
 * serves it, not a development server.
 */
export function setup(): void {
  const built = existsSync(BUILT) ? statSync(BUILT).mtimeMs : 0;
  const changed = Math.max(...SOURCES.filter(existsSync).map(newestChange));
  if (built >= changed) return;
  // Vitest sets NODE_ENV=test, which would make Vite build React's development copy.
  execFileSync('npm', ['run', 'build', '--workspace', WEB], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
