import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `src/main.ts` bundled for this run: the `sparrow` command the tests start as a process. */
    sparrowCommand: string;
  }
}

let bundled: Promise<string> | undefined;
let users = 0;
let folder: string | undefined;

/**
 * The tests that start `sparrow` as a process (first run, the command line,
 * agents) run it from one bundle of the source made at the start of the run
 * rather than through tsx: a process then starts in about two thirds of the
 * time, without transforming some four hundred files each time (the
 * bundle is made in about a second). Packages stay
 * external, so the bundle sits under node_modules to resolve them.
 */
export async function setup(project: TestProject): Promise<void> {
  users += 1;
  bundled ??= bundle();
  project.provide('sparrowCommand', await bundled);
}

export async function teardown(): Promise<void> {
  users -= 1;
  if (users === 0 && folder !== undefined) await rm(folder, { recursive: true, force: true });
}

async function bundle(): Promise<string> {
  const parent = join('node_modules', '.cache', 'sparrow-tests');
  await mkdir(parent, { recursive: true });
  folder = await mkdtemp(join(parent, 'command-'));
  await build({
    entryPoints: ['src/main.ts'],
    outdir: folder,
    outExtension: { '.js': '.mjs' },
    // Split, so each command still loads only what it needs (see main.ts).
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  return join(folder, 'main.mjs');
}
