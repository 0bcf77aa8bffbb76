import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, scanJsonText } from '../../src/http/json-body.js';
import { useApp } from '../fixtures/app.js';
import { createTestApp } from '../helpers/app.js';
import {
  createCollection,
  createField,
  createItem,
  createWorkspace,
  type TestWorkspace,
} from '../helpers/factories.js';
import { createOrg, TEST_SECRETS_KEY } from '../helpers/platform.js';
import { edgeModule, errorCode, exchange, expectError } from './edge-helpers.js';

/** Input at the edge of the contract: NUL characters, deep JSON, broken uploads, unknown query parameters. */

const t = useApp(() =>
  createTestApp({ SECRETS_KEY: TEST_SECRETS_KEY, MAX_UPLOAD_BYTES: '200000' }, [edgeModule]),
);
let port: number;
let workspace: TestWorkspace;

beforeAll(async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  workspace = await createWorkspace(t);
});

describe('NUL characters', () => {
  it('scans JSON text for NUL characters and depth, skipping strings', () => {
    expect(scanJsonText('{"a":"b\\u0000"}', 64)).toBe('nul');
    expect(scanJsonText('{"a\\u0000":1}', 64)).toBe('nul');
    expect(scanJsonText('["a\u0000"]', 64)).toBe('nul');
    // An escaped backslash followed by the text "u0000" is no NUL.
    expect(scanJsonText('["a\\\\u0000"]', 64)).toBeNull();
    expect(scanJsonText('["\\"[[[["]', 1)).toBeNull();
    expect(scanJsonText('[[1]]', 1)).toBe('too_deep');
    expect(scanJsonText('[[1],[2],{"a":[]}]', 3)).toBeNull();
    expect(scanJsonText('[[1],[2],{"a":[]}]', 2)).toBe('too_deep');
  });

  it('refuses them anywhere in a JSON body, where the same body without one is accepted', async () => {
    const token = workspace.owner.token;
    const ws = `/workspaces/${workspace.id}`;
    const text = await createField(t, workspace, { key: 'note', type: 'text', name: 'Note' });
    const list = await createCollection(t, workspace);
    const card = await createItem(t, workspace, list.id);
    const org = await createOrg(t, workspace.owner);
    const statuses = await t.http.get(`/workspaces/${workspace.id}/statuses`, { token });
    const statusId = statuses.body[0]?.id ?? '';
    let seq = 0;
    const cases: Array<
      [string, 'POST' | 'PATCH', string, (value: string) => unknown, clean?: string]
    > = [
      [
        'an option label',
        'POST',
        `${ws}/fields`,
        (value) => ({
          key: `pick${++seq}`,
          type: 'select',
          name: 'Pick',
          config: { options: [{ label: value, color: '#000000' }] },
        }),
      ],
      [
        'a view filter value',
        'POST',
        `${ws}/collections/${list.id}/views`,
        (value) => ({
          name: 'View',
          definition: { filter: { attribute: 'title', op: 'contains', value } },
        }),
      ],
      [
        'a card body',
        'POST',
        `${ws}/collections/${list.id}/items`,
        (value) => ({ title: 'Card', body: value }),
      ],
      [
        'a text property',
        'PATCH',
        `${ws}/items/${card.id}`,
        (value) => ({ properties: { [text.key]: value } }),
      ],
      [
        'a grouped-query group',
        'POST',
        `${ws}/collections/${list.id}/grouped-query`,
        (value) => ({ definition: { groupBy: { attribute: 'statusId' } }, groups: [value] }),
        statusId,
      ],
      [
        'an import',
        'POST',
        `${ws}/import`,
        (value) => ({
          items: [
            {
              externalSource: 'edge',
              externalId: `row-${++seq}`,
              collection: { id: list.id },
              title: value,
            },
          ],
        }),
      ],
      [
        "a project's features",
        'POST',
        `/api/orgs/${org.id}/projects`,
        (value) => ({
          name: `Project ${++seq}`,
          features: { 'ghcr.io/devcontainers/features/node:1': { version: value } },
        }),
      ],
    ];
    for (const [what, method, url, body, clean = 'plain text'] of cases) {
      const send = (value: string) =>
        t.http.raw({
          method,
          url,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          payload: JSON.stringify(body(value)),
        });
      const accepted = await send(clean);
      expect([what, accepted.status]).toEqual([
        what,
        accepted.status < 300 ? accepted.status : 'a 2xx',
      ]);
      const refused = await send(`${clean}\u0000`);
      expect([what, refused.status, refused.body.error.code]).toEqual([what, 400, 'nul_character']);
    }
  });

  it('refuses them in keys, and takes an escaped backslash before "u0000" as text', async () => {
    const token = workspace.owner.token;
    const list = await createCollection(t, workspace);
    const url = `/workspaces/${workspace.id}/collections/${list.id}/items`;
    const key = await t.http.raw({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: '{"title":"Card","properties":{"a\\u0000b":"x"}}',
    });
    expectError(key, 400, 'nul_character');
    const literal = await t.http.post(url, { title: 'a\\u0000b' }, { token });
    expect(literal.status).toBe(201);
    expect(literal.body).toMatchObject({ title: 'a\\u0000b' });
  });

  it('refuses them in query strings and path parameters', async () => {
    const token = workspace.owner.token;
    const search = `/workspaces/${workspace.id}/search` as const;
    expect((await t.http.get(search, { token, query: { q: 'plain' } })).status).toBe(200);
    expectError(await t.http.get(search, { token, query: { q: 'a\u0000' } }), 400, 'nul_character');
    expectError(await t.api.get(`/workspaces/%00/fields`, { token }), 400, 'nul_character');
    expectError(
      await t.http.get(`/workspaces/${workspace.id}/files/a%00b`, { token }),
      400,
      'nul_character',
    );
  });

  it('refuses them in form bodies', async () => {
    const response = await t.http.raw({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=authorization_code&code=a%00b&redirect_uri=x&code_verifier=y',
    });
    expectError(response, 400, 'nul_character');
  });
});

describe('JSON nesting', () => {
  const importUrl = () => `/workspaces/${workspace.id}/import`;

  it(`refuses a body nested deeper than ${MAX_JSON_DEPTH} levels before parsing it`, async () => {
    const send = (payload: string) =>
      t.http.raw({
        method: 'POST',
        url: importUrl(),
        headers: {
          authorization: `Bearer ${workspace.owner.token}`,
          'content-type': 'application/json',
        },
        payload,
      });
    const deep = `${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`;
    expectError(await send(deep), 400, 'json_too_deep');
    // At the limit the parser takes it; the schema refuses it.
    const atLimit = `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`;
    expectError(await send(atLimit), 400, 'validation_failed');
    // 20 MB of brackets (under the import route's body limit): refused at once.
    const huge = '['.repeat(10_000_000) + ']'.repeat(10_000_000);
    expectError(await send(huge), 400, 'json_too_deep');
  });

  it('does not count brackets inside strings', async () => {
    const list = await createCollection(t, workspace);
    const created = await t.http.post(
      `/workspaces/${workspace.id}/collections/${list.id}/items`,
      { title: `${'[{'.repeat(100)}"\\` },
      { token: workspace.owner.token },
    );
    expect(created.status).toBe(201);
  });
});

describe('multipart uploads', () => {
  const upload = () => `/workspaces/${workspace.id}/files`;
  const head = (length: number, type = 'multipart/form-data; boundary=XX') =>
    `POST ${upload()} HTTP/1.1\r\nHost: edge\r\nAuthorization: Bearer ${workspace.owner.token}\r\n` +
    `Content-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n`;
  const partHead = (name = 'file', filename = 'a.txt') =>
    `--XX\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\n\r\n`;

  it('refuses a multipart body without a boundary with 400 invalid_multipart', async () => {
    const body = `${partHead()}hello\r\n--XX--\r\n`;
    const answer = await exchange(port, [head(body.length, 'multipart/form-data') + body]);
    expect(answer.status).toBe(400);
    expect(errorCode(answer)).toBe('invalid_multipart');
  });

  it('answers 400 at once to a body that ends before its closing boundary', async () => {
    const body = `${partHead()}hello`;
    const answer = await exchange(port, [head(body.length) + body]);
    expect(answer.status).toBe(400);
    expect(errorCode(answer)).toBe('invalid_multipart');
    expect(answer.elapsedMs).toBeLessThan(3000);
  });

  it('answers 400 to a body cut short while its file is being stored', async () => {
    const first = `${partHead()}${'x'.repeat(100_000)}`;
    const second = 'y'.repeat(1000);
    const answer = await exchange(port, [
      head(first.length + second.length) + first,
      { waitMs: 300 },
      second,
    ]);
    expect(answer.status).toBe(400);
    expect(errorCode(answer)).toBe('invalid_multipart');
    expect(answer.elapsedMs).toBeLessThan(3000);
  });

  it('answers 400 in the Error schema when the client closes its side before the whole body', async () => {
    const body = `${partHead()}hello`;
    const answer = await exchange(port, [head(body.length + 100) + body, 'half-close']);
    expect(answer.status).toBe(400);
    expect(errorCode(answer)).toBe('invalid_content_length');
    expect(answer.elapsedMs).toBeLessThan(3000);
  });

  it('answers 413 to a file that grows over the limit while it is stored', async () => {
    const first = `${partHead()}${'x'.repeat(150_000)}`;
    const second = `${'y'.repeat(100_000)}\r\n--XX--\r\n`;
    const answer = await exchange(port, [
      head(first.length + second.length) + first,
      { waitMs: 300 },
      second,
    ]);
    expect(answer.status).toBe(413);
    expect(errorCode(answer)).toBe('payload_too_large');
  });

  it('keeps no file from the refused uploads', async () => {
    const files = await t.http.get(`/workspaces/${workspace.id}/files`, {
      token: workspace.owner.token,
    });
    expect(files.body).toEqual([]);
  });

  it('refuses NUL characters in names, and fields, with 400', async () => {
    const send = (body: string) =>
      t.http.raw({
        method: 'POST',
        url: upload(),
        headers: {
          authorization: `Bearer ${workspace.owner.token}`,
          'content-type': 'multipart/form-data; boundary=XX',
        },
        payload: body,
      });
    expectError(
      await send(`${partHead('file', 'a\u0000.txt')}hi\r\n--XX--\r\n`),
      400,
      'nul_character',
    );
    expectError(await send(`${partHead('fi\u0000le')}hi\r\n--XX--\r\n`), 400, 'nul_character');
    expectError(
      await send(`--XX\r\nContent-Disposition: form-data; name="note"\r\n\r\nhi\r\n--XX--\r\n`),
      400,
      'invalid_multipart',
    );
    const fine = await send(`${partHead()}hello\r\n--XX--\r\n`);
    expect(fine.status).toBe(201);
  });
});

describe('unknown query parameters', () => {
  it('are refused on routes that declare no query, on both roots and for HEAD', async () => {
    const token = workspace.owner.token;
    for (const client of [t.http, t.api]) {
      const response = await client.get('/workspaces', { token, query: { page: '2' } });
      expectError(response, 400, 'validation_failed');
      expect(response.body.error.details).toMatchObject({ location: 'querystring' });
    }
    const head = await t.http.raw({
      method: 'HEAD',
      url: '/workspaces?page=2',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(head.status).toBe(400);
    expectError(await t.http.get('/openapi.json', { query: { v: '1' } }), 400, 'validation_failed');
  });

  it('are refused on routes whose query schema does not list them', async () => {
    const response = await t.http.get(`/workspaces/${workspace.id}/search`, {
      token: workspace.owner.token,
      query: { q: 'a', sort: 'new' },
    });
    expectError(response, 400, 'validation_failed');
    expectError(
      await t.http.get('/edge/slow', { query: { ms: '0', x: '1' } }),
      400,
      'validation_failed',
    );
  });

  it('are taken where a schema says so, and by the documentation pages', async () => {
    const open = await t.http.get('/edge/open-query', { query: { a: '1', b: '2' } });
    expect(open.status).toBe(200);
    const callback = await t.http.get('/auth/idp/callback', { query: { iss: 'x', extra: '1' } });
    expect(callback.body.error.code).not.toBe('validation_failed');
    expect((await t.http.get('/api/docs/', { query: { theme: 'dark' } })).status).toBe(200);
  });
});
