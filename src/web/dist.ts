import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The built web app (`web/dist`), found from this module's place: the
 * nearest folder above it that holds `web/package.json` (the repository,
 * whether the server runs from `src/` with tsx, from `dist/`, or bundled
 * elsewhere inside it). Null when there is none.
 */
export function findWebDist(from: string = fileURLToPath(import.meta.url)): string | null {
  let folder = dirname(from);
  for (;;) {
    if (existsSync(join(folder, 'web', 'package.json'))) return join(folder, 'web', 'dist');
    const parent = dirname(folder);
    if (parent === folder) return null;
    folder = parent;
  }
}
