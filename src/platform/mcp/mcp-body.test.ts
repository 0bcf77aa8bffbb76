import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBed } from '../../../test/fixtures/app.js';
import { postRaw } from '../../../test/helpers/mcp.js';
import { MAX_JSON_DEPTH } from '../../http/json-body.js';

/** A tools/list request with `depth` levels of arrays nested in a parameter. */
function nested(depth: number): string {
  const inner = `${'['.repeat(depth)}${']'.repeat(depth)}`;
  return `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"deep":${inner}}}}`;
}

/**
 * `/mcp` reads its body through the API's one JSON parser: the same depth
 * limit, NUL refusal and body limit, answered as JSON-RPC parse errors (the
 * route's convention for a body it cannot read) with the API's code in `data`.
 */
describe('the /mcp body', () => {
  const bed = useNodeBed({ BODY_LIMIT: '300000' });
  let auth: Record<string, string>;

  beforeAll(async () => {
    auth = { authorization: `Bearer ${bed.owner.token}` };
  });

  it('refuses JSON nested 100,000 levels deep, before parsing it', async () => {
    const response = await postRaw(bed.baseUrl, nested(100_000), auth);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      error: {
        code: -32700,
        message: expect.stringContaining(`${MAX_JSON_DEPTH} levels`),
        data: { code: 'json_too_deep' },
      },
      id: null,
    });
  });

  it('refuses one level past the API limit and accepts the limit itself', async () => {
    // The envelope adds three levels (message, params, _meta) around the arrays.
    const over = await postRaw(bed.baseUrl, nested(MAX_JSON_DEPTH - 2), auth);
    expect(over.status).toBe(400);
    expect(await over.json()).toMatchObject({ error: { data: { code: 'json_too_deep' } } });
    const within = await postRaw(bed.baseUrl, nested(MAX_JSON_DEPTH - 3), auth);
    expect(within.status, await within.clone().text()).toBe(200);
    expect(await within.json()).toMatchObject({ result: { tools: expect.any(Array) } });
  });

  it('refuses a NUL character as the API does', async () => {
    const response = await postRaw(
      bed.baseUrl,
      '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"x":"a\\u0000b"}}}',
      auth,
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32700, data: { code: 'nul_character' } },
    });
  });

  it('answers a body over BODY_LIMIT with the API 413', async () => {
    const big = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"x":"${'a'.repeat(310_000)}"}}}`;
    const response = await postRaw(bed.baseUrl, big, auth);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: 'payload_too_large' } });
  });

  it('still answers malformed JSON and an empty body with the JSON-RPC parse error', async () => {
    const malformed = await postRaw(bed.baseUrl, '{"jsonrpc": "2.0", "id": 1, "method":', auth);
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
    const empty = await postRaw(bed.baseUrl, '', auth);
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
  });
});
