import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { contractDigest } from '../../src/http/contract.js';
import { ERROR_CODES } from '../../src/http/error-codes.js';
import { useApp } from '../fixtures/app.js';

const REGENERATE =
  'the API changed: run `npm run openapi` and commit openapi.json and packages/client/src/generated/api.ts';

const t = useApp();
let committedText: string;

beforeAll(async () => {
  committedText = await readFile(new URL('../../openapi.json', import.meta.url), 'utf8');
});

describe('the committed contract', () => {
  it('is exactly the description the server serves', async () => {
    const served = await t.http.get('/openapi.json');
    expect(served.status).toBe(200);
    expect(served.body, REGENERATE).toEqual(JSON.parse(committedText));
  });

  it('has its generated types made from this very description', async () => {
    const types = await readFile(
      new URL('../../packages/client/src/generated/api.ts', import.meta.url),
      'utf8',
    );
    const recorded = /^\/\/ openapi\.json sha256: ([0-9a-f]{64})$/m.exec(types)?.[1];
    expect(recorded, REGENERATE).toBe(contractDigest(committedText));
  });

  it('lists every error code of the catalog, with its meaning, in the Error schema', () => {
    const document = JSON.parse(committedText);
    const code = document.components.schemas.Error.properties.error.properties.code;
    expect(code.enum).toEqual(Object.keys(ERROR_CODES));
    for (const [name, { status, meaning }] of Object.entries(ERROR_CODES)) {
      expect(code.description).toContain(`\`${name}\` (${status}): ${meaning}`);
    }
  });
});
