import { describe, expect, it } from 'vitest';
import { Dispatcher } from './dispatcher.js';
import type { StreamHandlers, StreamSink, UnaryHandlers } from './handlers.js';
import type { AgentMessage } from './protocol/messages.js';

const info = {
  name: 'main',
  containerId: 'c1',
  command: ['sh'],
  cols: 80,
  rows: 24,
  createdAt: '2026-11-22T00:00:00.000Z',
  attachments: 1,
};

/** A dispatcher whose only stream method records what is done to it. */
function setup() {
  const sent: AgentMessage[] = [];
  const calls: string[] = [];
  let sink: StreamSink | undefined;
  const streams = {
    'terminal.attach': async () => ({
      result: info,
      start: (given: StreamSink) => {
        sink = given;
        return {
          input: (bytes: Buffer) => calls.push(`input ${bytes.toString()}`),
          resize: async (cols: number, rows: number) => {
            calls.push(`resize ${cols}x${rows}`);
          },
          close: () => calls.push('close'),
          pause: () => calls.push('pause'),
          resume: () => calls.push('resume'),
        };
      },
    }),
  } as unknown as StreamHandlers;
  const dispatcher = new Dispatcher(
    {} as UnaryHandlers,
    streams,
    (message) => sent.push(message),
    () => {},
  );
  const send = (message: unknown) => dispatcher.handle(JSON.stringify(message));
  return { dispatcher, sent, calls, send, sink: () => sink };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('the agent dispatcher', () => {
  it('answers, then streams, and routes input, resize, pause and close by stream id', async () => {
    const { dispatcher, sent, calls, send, sink } = setup();
    send({
      type: 'request',
      id: 's1',
      method: 'terminal.attach',
      params: { containerId: 'c1', name: 'main' },
    });
    await flush();
    expect(sent[0]).toEqual({ type: 'response', id: 's1', ok: true, result: info });
    sink()?.data(Buffer.from([0, 255]));
    expect(sent[1]).toEqual({ type: 'stream.data', id: 's1', data: 'AP8=' });

    send({ type: 'stream.input', id: 's1', data: Buffer.from('ls\r').toString('base64') });
    send({ type: 'stream.resize', id: 's1', cols: 100, rows: 30 });
    send({ type: 'stream.input', id: 'other', data: 'AA==' });
    // Paused by the server and by the connection: resumed only when both let go.
    send({ type: 'stream.pause', id: 's1' });
    dispatcher.pauseAll();
    send({ type: 'stream.resume', id: 's1' });
    expect(calls).toEqual(['input ls\r', 'resize 100x30', 'pause']);
    dispatcher.resumeAll();
    expect(calls.at(-1)).toBe('resume');
    send({ type: 'stream.close', id: 's1' });
    expect(calls.at(-1)).toBe('close');
    expect(dispatcher.openStreams).toBe(0);
  });

  it('sends the end once and forgets the stream', async () => {
    const { dispatcher, sent, send, sink } = setup();
    send({
      type: 'request',
      id: 's2',
      method: 'terminal.attach',
      params: { containerId: 'c1', name: 'main' },
    });
    await flush();
    sink()?.end({ exitCode: 3 });
    sink()?.end({ exitCode: 4 });
    sink()?.data(Buffer.from('late'));
    expect(sent.slice(1)).toEqual([{ type: 'stream.end', id: 's2', exitCode: 3 }]);
    expect(dispatcher.openStreams).toBe(0);
  });

  it('detaches every stream when the connection goes', async () => {
    const { dispatcher, calls, send } = setup();
    send({
      type: 'request',
      id: 's3',
      method: 'terminal.attach',
      params: { containerId: 'c1', name: 'main' },
    });
    await flush();
    dispatcher.closeAll();
    expect(calls).toEqual(['close']);
  });

  it('answers bad requests by id and ignores what it cannot answer', async () => {
    const { sent, send } = setup();
    send({ type: 'request', id: 'b1', method: 'terminal.attach', params: { containerId: 'c1' } });
    send({ type: 'request', id: 'b2', method: 'nope', params: {} });
    send({ type: 'request', id: 'b3', method: 'terminal.attach' });
    send({ type: 'stream.pause' });
    await flush();
    expect(
      sent.map((m) => (m.type === 'response' && !m.ok ? [m.id, m.error.code] : m.type)),
    ).toEqual([
      ['b1', 'invalid_params'],
      ['b2', 'unknown_method'],
      ['b3', 'invalid_request'],
    ]);
  });
});
