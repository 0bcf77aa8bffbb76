import { describe, expect, it } from 'vitest';
import { Backoff } from './backoff.js';
import { AgentUrlError, agentConnectUrl } from './connection.js';

describe('the agent connect URL', () => {
  it('turns a server address into the WebSocket endpoint with the token', () => {
    expect(agentConnectUrl('http://localhost:8080', 'tok')).toBe(
      'ws://localhost:8080/api/agent/connect?token=tok',
    );
    expect(agentConnectUrl('https://example.com/sparrow/', 'a b&c')).toBe(
      'wss://example.com/sparrow/api/agent/connect?token=a+b%26c',
    );
    expect(agentConnectUrl('ws://h:1/api/agent/connect', 'tok')).toBe(
      'ws://h:1/api/agent/connect?token=tok',
    );
  });

  it('refuses what is not an http or ws address', () => {
    expect(() => agentConnectUrl('localhost:8080', 't')).toThrow(AgentUrlError);
    expect(() => agentConnectUrl('ftp://h', 't')).toThrow(/unsupported scheme/);
    expect(() => agentConnectUrl('not a url', 't')).toThrow(/expected an http/);
  });
});

describe('reconnect backoff', () => {
  it('doubles up to the ceiling, with jitter between half and all of it, and resets', () => {
    const low = new Backoff({ initialMs: 100, maxMs: 1000, random: () => 0 });
    expect([low.next(), low.next(), low.next(), low.next(), low.next(), low.next()]).toEqual([
      50, 100, 200, 400, 500, 500,
    ]);
    const high = new Backoff({ initialMs: 100, maxMs: 1000, random: () => 0.999999 });
    expect([high.next(), high.next(), high.next()]).toEqual([100, 200, 400]);
    high.reset();
    expect(high.next()).toBe(100);
  });
});
