import { connect } from 'node:net';
import Type from 'typebox';
import { expect } from 'vitest';
import type { AppModule } from '../../src/module.js';

/** Test-only routes for the edge tests: a slow handler, query schemas of each kind, a WebSocket echo. */
export const edgeModule: AppModule = {
  name: 'edge',
  contentRoutes(router) {
    router.get('/edge/slow', {
      config: { access: 'public' },
      schema: { querystring: Type.Object({ ms: Type.Integer({ minimum: 0, maximum: 10_000 }) }) },
      handler: async (request) => {
        const { ms } = request.query;
        await new Promise((resolve) => setTimeout(resolve, ms));
        return { slept: ms };
      },
    });
    router.post('/edge/late-reader', {
      config: { access: 'public' },
      schema: { body: Type.Object({ text: Type.String() }) },
      // The body waits unread, as behind a slow handler or a slow disk.
      preParsing: async (_request, _reply, payload) => {
        await new Promise((resolve) => setTimeout(resolve, 700));
        return payload;
      },
      handler: async (request) => ({ length: request.body.text.length }),
    });
    router.get('/edge/open-query', {
      config: { access: 'public' },
      schema: {
        querystring: Type.Object(
          { a: Type.Optional(Type.String()) },
          { additionalProperties: true },
        ),
      },
      handler: async (request) => request.query,
    });
    router.get('/edge/status/:status', {
      config: { access: 'public' },
      schema: { params: Type.Object({ status: Type.Integer() }) },
      handler: async (request) => {
        const { status } = request.params;
        throw Object.assign(new Error('a plugin error'), { statusCode: status });
      },
    });
    router.get('/edge/socket', { config: { access: 'public' }, websocket: true }, (socket) => {
      socket.on('message', (data) => socket.send(`echo ${String(data)}`));
    });
  },
};

export function expectError(
  response: { status: number; body: unknown },
  status: number,
  code: string,
) {
  expect({ status: response.status, body: response.body }).toEqual({
    status,
    body: { error: expect.objectContaining({ code, message: expect.any(String) }) },
  });
}

export interface RawAnswer {
  /** The status of the answer, null when the connection closed without one. */
  status: number | null;
  body: string;
  elapsedMs: number;
}

export type Step = string | { waitMs: number } | 'half-close';

/** The complete answers in the bytes received so far. */
function answersIn(received: string): Array<{ status: number; body: string }> {
  const answers: Array<{ status: number; body: string }> = [];
  let rest = received;
  for (;;) {
    const head = rest.indexOf('\r\n\r\n');
    const status = /^HTTP\/1\.1 (\d{3})/.exec(rest)?.[1];
    const length = /\r\ncontent-length: (\d+)\r\n/i.exec(rest.slice(0, head + 2))?.[1];
    if (head < 0 || status === undefined || length === undefined) return answers;
    const end = head + 4 + Number(length);
    if (rest.length < end) return answers;
    answers.push({ status: Number(status), body: rest.slice(head + 4, end) });
    rest = rest.slice(end);
  }
}

/**
 * Writes bytes on a real TCP connection, step by step, and resolves with the
 * `count`-th answer, or when the server closes the connection, or after
 * `limitMs` (status null when no such answer came).
 */
export function exchange(
  port: number,
  steps: readonly Step[],
  limitMs = 5000,
  count = 1,
): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const started = Date.now();
    let received = '';
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const answer = answersIn(received)[count - 1];
      resolve({
        status: answer?.status ?? null,
        body: answer?.body ?? '',
        elapsedMs: Date.now() - started,
      });
    };
    const timer = setTimeout(finish, limitMs);
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
      if (answersIn(received).length >= count) finish();
    });
    socket.on('close', finish);
    socket.on('error', () => {});
    (async () => {
      for (const step of steps) {
        if (done) return;
        if (step === 'half-close') socket.end();
        else if (typeof step === 'string') socket.write(step);
        else await new Promise((wait) => setTimeout(wait, step.waitMs));
      }
    })();
  });
}

export function errorCode(answer: RawAnswer): string | undefined {
  return (JSON.parse(answer.body) as { error: { code: string } }).error.code;
}
