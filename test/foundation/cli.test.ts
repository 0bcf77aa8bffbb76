import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { sparrowArgs } from '../helpers/sparrow-process.js';

const run = promisify(execFile);

async function cli(args: string[], env: Record<string, string>) {
  try {
    const result = await run(process.execPath, sparrowArgs(args), {
      env: { PATH: process.env.PATH ?? '', ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout: result.stdout, stderr: result.stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('command line', () => {
  it('prints usage', async () => {
    const result = await cli(['--help'], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('serve');
    expect(result.stdout).toContain('migrate');
  });

  it('refuses an unknown command', async () => {
    const result = await cli(['dance'], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Unknown command "dance"');
  });

  it('stops on a bad variable with a message naming it', async () => {
    const result = await cli(['serve'], { PORT: 'eighty' });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('Configuration error: PORT: expected an integer, got "eighty"\n');
  });

  it('reports an unreachable database in one line, without a stack trace', async () => {
    const result = await cli(['migrate'], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^Error: Cannot connect to PostgreSQL at 127\.0\.0\.1:1\/none: .*ECONNREFUSED/,
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('migrates the embedded database, then finds it up to date', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sparrow-cli-'));
    try {
      const first = await cli(['migrate'], { DATA_DIR: dataDir });
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/applied \d+ migration/);
      const second = await cli(['migrate'], { DATA_DIR: dataDir });
      expect(second.stdout).toContain('already up to date');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
