import { describe, expect, it } from 'vitest';
import { checkParams, checkResult, decodeAgentMessage, decodeServerMessage } from './codec.js';
import { methodNames, methods } from './methods.js';

describe('agent protocol messages', () => {
  it('accepts each well-formed server message', () => {
    const messages = [
      { type: 'welcome', nodeId: 'n1', serverTime: '2026-11-22T00:00:00.000Z' },
      { type: 'request', id: 'r1', method: 'node.info', params: {} },
      { type: 'stream.input', id: 's1', data: Buffer.from([0, 255, 10]).toString('base64') },
      { type: 'stream.resize', id: 's1', cols: 120, rows: 40 },
      { type: 'stream.close', id: 's1' },
      { type: 'stream.pause', id: 's1' },
      { type: 'stream.resume', id: 's1' },
    ];
    for (const message of messages) {
      expect(decodeServerMessage(JSON.stringify(message))).toEqual({ ok: true, value: message });
    }
  });

  it('refuses what is not protocol, saying where', () => {
    expect(decodeServerMessage('{')).toEqual({ ok: false, error: 'not JSON' });
    expect(decodeServerMessage('[]')).toMatchObject({ ok: false });
    expect(decodeServerMessage('{"type":"shout"}')).toEqual({
      ok: false,
      error: 'unknown type shout',
    });
    const resize = decodeServerMessage('{"type":"stream.resize","id":"s","cols":80.5,"rows":24}');
    expect(resize).toMatchObject({ ok: false, error: expect.stringContaining('/cols') });
    const extra = decodeServerMessage('{"type":"stream.close","id":"s","why":"x"}');
    expect(extra).toMatchObject({ ok: false });
    const notBase64 = decodeServerMessage('{"type":"stream.input","id":"s","data":"**"}');
    expect(notBase64).toMatchObject({ ok: false, error: expect.stringContaining('/data') });
  });

  it('checks agent messages: responses, stream frames and hello', () => {
    const ok = { type: 'response', id: 'r1', ok: true, result: { anything: 1 } };
    expect(decodeAgentMessage(JSON.stringify(ok))).toMatchObject({ ok: true });
    const failed = { type: 'response', id: 'r1', ok: false, error: { code: 'x', message: 'y' } };
    expect(decodeAgentMessage(JSON.stringify(failed))).toMatchObject({ ok: true });
    const both = { ...failed, result: {} };
    expect(decodeAgentMessage(JSON.stringify(both))).toMatchObject({ ok: false });
    const data = { type: 'stream.data', id: 's1', data: 'AA==', channel: 'stderr' };
    expect(decodeAgentMessage(JSON.stringify(data))).toMatchObject({ ok: true });
    const badChannel = { ...data, channel: 'stdin' };
    expect(decodeAgentMessage(JSON.stringify(badChannel))).toMatchObject({ ok: false });
    const hello = {
      type: 'hello',
      protocol: 1,
      node: {},
      inventory: [],
      terminals: [],
      commands: [],
    };
    expect(decodeAgentMessage(JSON.stringify(hello))).toMatchObject({
      ok: false,
      error: expect.stringContaining('/node'),
    });
  });

  it('checks each method’s parameters and results against its own schema', () => {
    expect(methodNames).toContain('terminal.attach');
    expect(methods['terminal.attach'].stream).toBe(true);
    expect(methods['exec.run'].stream).toBe(false);
    expect(checkParams('terminal.create', { containerId: 'abc', name: 'main' }).ok).toBe(true);
    expect(checkParams('terminal.create', { containerId: 'abc', name: '../etc' })).toMatchObject({
      ok: false,
      error: expect.stringContaining('/name'),
    });
    expect(checkParams('container.create', { image: 'i', env: { 'BAD-NAME': 'x' } }).ok).toBe(
      false,
    );
    expect(checkParams('container.create', { image: 'i', env: { GOOD_NAME: 'x' } }).ok).toBe(true);
    expect(checkParams('exec.run', { containerId: 'c', command: [] }).ok).toBe(false);
    expect(checkResult('container.logs', { text: 'hi' }).ok).toBe(true);
    expect(checkResult('container.logs', { text: 'hi', leaked: 'secret' }).ok).toBe(false);
  });
});
