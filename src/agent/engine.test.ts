import { describe, expect, it } from 'vitest';
import { EngineAddressError, parseDockerHost } from './engine.js';

describe('DOCKER_HOST parsing', () => {
  it('reads unix sockets, bare paths and tcp addresses', () => {
    expect(parseDockerHost('unix:///run/podman/podman.sock')).toEqual({
      kind: 'socket',
      socketPath: '/run/podman/podman.sock',
    });
    expect(parseDockerHost('/var/run/docker.sock')).toEqual({
      kind: 'socket',
      socketPath: '/var/run/docker.sock',
    });
    expect(parseDockerHost('tcp://127.0.0.1:2375')).toEqual({
      kind: 'tcp',
      host: '127.0.0.1',
      port: 2375,
      protocol: 'http',
    });
    expect(parseDockerHost('https://engine.internal:2376/')).toMatchObject({ protocol: 'https' });
  });

  it('falls back to a default socket when unset', () => {
    expect(parseDockerHost(undefined)).toMatchObject({ kind: 'socket' });
    expect(parseDockerHost('  ')).toMatchObject({ kind: 'socket' });
  });

  it('refuses what it cannot use, naming the value', () => {
    for (const bad of ['unix://relative.sock', 'ssh://me@host', 'tcp://host', 'tcp://h:99999']) {
      expect(() => parseDockerHost(bad)).toThrow(EngineAddressError);
    }
    expect(() => parseDockerHost('ssh://me@host')).toThrow(/ssh:\/\/me@host/);
  });
});
