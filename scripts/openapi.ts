/**
 * Writes the committed contract: `openapi.json`, the API description the
 * server serves with default settings, and
 * `packages/client/src/generated/api.ts`, the TypeScript types generated
 * from it: the client package owns the one copy (so it builds and publishes
 * alone), and the server's tests import their types from it. Run
 * `npm run openapi` after changing a route; the contract test fails while
 * either file differs from what the code serves.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import stringify from 'json-stringify-pretty-compact';
import { contractDigest, describedApi } from '../src/http/contract.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const descriptionPath = `${root}openapi.json`;
const typesPath = `${root}packages/client/src/generated/api.ts`;

const document = await describedApi();
// A line per object or list that is short enough (a parameter, a `$ref`),
// else one per member: the file stays small and a change reads as a diff.
const text = `${stringify(document, { indent: 2, maxLength: 100 })}\n`;
await writeFile(descriptionPath, text);

// openapi-typescript needs the TypeScript 5 compiler API, which this
// project's TypeScript 7 does not ship (and its peer dependency says so): it
// is a package of its own beside this script, both pinned by its lock.
const generatorDir = `${root}scripts/openapi-typescript`;
const generator = `${generatorDir}/node_modules/.bin/openapi-typescript`;
if (!existsSync(generator)) {
  execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: generatorDir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
execFileSync(generator, [descriptionPath, '-o', typesPath], {
  stdio: ['ignore', 'ignore', 'inherit'],
});
const types = await readFile(typesPath, 'utf8');
const stamped = `// openapi.json sha256: ${contractDigest(text)}\n${types}`;
await writeFile(typesPath, stamped);
process.stdout.write(
  `openapi.json: ${Object.keys(document.paths ?? {}).length} paths; packages/client/src/generated/api.ts written\n`,
);
