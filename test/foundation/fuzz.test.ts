import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { type Fuzzer, loadOperations, seeded } from './fuzz-schemas.js';
import { JSON_TYPE, problemWith, variantsOf } from './fuzz-variants.js';

/**
 * Every operation of the committed description, sent malformed requests
 * built from its own schemas, with the session of an owner of the workspace
 * and organization its ids name: wrong types, NUL characters, huge strings,
 * deep nesting, unknown query parameters, malformed ids, bad JSON, wrong
 * content types, empty bodies. No answer may be a 500 or a 5xx the
 * operation does not document, and every 4xx must be an Error body whose
 * code the catalog gives that status. Random values come from a seeded
 * generator, so a failure replays.
 */

const operations = loadOperations();
const fuzzer: Fuzzer = { ids: {}, random: seeded(20_240_607) };
const { ids } = fuzzer;

/** A request still unanswered after this long has hung. */
const ANSWER_LIMIT_MS = 5000;

const t = useApp(() =>
  createTestApp({ SECRETS_KEY: TEST_SECRETS_KEY, WEBHOOK_ALLOW_PRIVATE: 'true' }),
);
let token: string;
let workspace: TestWorkspace;
const findings: string[] = [];
let sent = 0;
const statuses = new Map<number, number>();
let started = 0;

async function answerWithin(options: InjectOptions, limitMs: number) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), limitMs);
  });
  try {
    return await Promise.race([t.app.inject(options), late]);
  } finally {
    clearTimeout(timer);
  }
}

async function createOk(url: string, body: unknown): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${token}`, ...JSON_TYPE },
    payload: JSON.stringify(body),
  });
  if (response.statusCode >= 300)
    throw new Error(`${url}: ${response.statusCode} ${response.body}`);
  return response.json<{ id: string }>().id;
}

beforeAll(async () => {
  workspace = await createWorkspace(t);
  token = workspace.owner.token;
  const ws = `/workspaces/${workspace.id}`;
  ids.workspaceId = workspace.id;
  ids.userId = workspace.owner.user.id;
  const list = await createCollection(t, workspace);
  ids.collectionId = list.id;
  const field = await createField(t, workspace, {
    key: 'stage',
    type: 'select',
    name: 'Stage',
    config: { options: [{ label: 'Open', color: '#000000' }] },
  });
  ids.fieldId = field.id;
  ids.itemId = (await createItem(t, workspace, list.id)).id;
  const statuses = await t.http.get(`/workspaces/${workspace.id}/statuses`, { token });
  ids.statusId = statuses.body[0]?.id ?? '';
  ids.viewId = await createOk(`${ws}/collections/${list.id}/views`, {
    name: 'Board',
    definition: {},
  });
  ids.groupId = await createOk(`${ws}/collection-groups`, { name: 'Group' });
  ids.endpointId = await createOk(`${ws}/webhooks`, {
    url: 'http://127.0.0.1:9/hook',
    eventTypes: ['*'],
  });
  ids.invitationId = await createOk(`${ws}/invitations`, {
    email: 'invited@example.test',
    role: 'member',
  });
  ids.appId = await createOk('/apps', {
    name: 'App',
    redirectUris: ['https://app.example.test/callback'],
    scopes: ['items:read'],
  });
  const upload = await t.app.inject({
    method: 'POST',
    url: `${ws}/files`,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'multipart/form-data; boundary=XX',
    },
    payload:
      '--XX\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhi\r\n--XX--\r\n',
  });
  ids.fileId = upload.json<{ id: string }>().id;
  const org = await createOrg(t, workspace.owner);
  ids.orgId = org.id;
  ids.projectId = await createOk(`/api/orgs/${org.id}/projects`, { name: 'Project' });
  ids.nodeId = await createOk(`/api/orgs/${org.id}/nodes`, { name: 'node-1' });
  started = Date.now();
});

afterAll(async () => {
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `fuzz: ${operations.length} operations, ${sent} requests in ${seconds} s, ${findings.length} findings`,
    Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
  );
});

/** Whether the operation answers a Server-Sent Events stream. */
function isStream(operation: (typeof operations)[number]): boolean {
  const ok = operation.responses['200'] as { content?: Record<string, unknown> } | undefined;
  return ok?.content?.['text/event-stream'] !== undefined;
}

describe('every operation of the description, sent malformed requests', () => {
  it('covers the whole description', () => {
    expect(operations.length).toBeGreaterThan(100);
  });

  for (const operation of operations) {
    it(`${operation.method} ${operation.path}`, async () => {
      const problems: string[] = [];
      let baseline = 0;
      // A stream's well-formed request opens it and never ends (inject waits for the end):
      // its success is tested with the stream (src/events/stream.test.ts); only refusals here.
      const stream = isStream(operation);
      if (stream) baseline = 200;
      for (const variant of variantsOf(fuzzer, operation)) {
        if (stream && variant.label === 'plain request') continue;
        const options: InjectOptions = {
          method: variant.method ?? (operation.method as InjectOptions['method']),
          url: variant.url,
          headers: { authorization: `Bearer ${token}`, ...variant.headers },
        };
        if (variant.payload !== undefined) options.payload = variant.payload;
        const response = await answerWithin(options, ANSWER_LIMIT_MS);
        sent += 1;
        if (response !== null) {
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        }
        if (response === null) {
          problems.push(`${variant.label}: no answer within ${ANSWER_LIMIT_MS} ms`);
          continue;
        }
        if (baseline === 0) baseline = response.statusCode;
        const problem = problemWith(
          operation,
          variant,
          baseline,
          response.statusCode,
          response.body,
          String(response.headers['content-type'] ?? ''),
        );
        if (problem !== null) problems.push(`${variant.label}: ${problem}`);
      }
      findings.push(
        ...problems.map((problem) => `${operation.method} ${operation.path}: ${problem}`),
      );
      expect(problems).toEqual([]);
    });
  }
});
