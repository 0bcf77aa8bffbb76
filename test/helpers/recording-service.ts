import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentPeer } from '../../src/agent/peer.js';
import { WORKSPACE_IMAGE } from './engine.js';

/** The port the recording service listens on in its container. */
export const RECORDING_PORT = 8080;

/** One request as the container's HTTP parser read it. */
export interface Recorded {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body, latin1. */
  body: string;
}

/**
 * A keep-alive HTTP server (Node's, in the workspace image) that records
 * every request it reads and answers each with `{url, method, body, headers}`,
 * so a test sees both what reached the container and whose answer a client
 * got. `GET /__log` answers the record (not recorded itself); `/__slow/...`
 * answers after 300 ms, so that requests queue up on a kept-alive tunnel.
 */
const SERVER = `
const http = require('node:http');
const log = [];
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    if (req.url === '/__log') {
      res.setHeader('content-type', 'application/json');
      return res.end(JSON.stringify(log));
    }
    const entry = { method: req.method, url: req.url, headers: req.headers,
      body: Buffer.concat(chunks).toString('latin1') };
    log.push(entry);
    const send = () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(entry));
    };
    if (req.url.startsWith('/__slow/')) setTimeout(send, 300); else send();
  });
});
server.on('clientError', (error, socket) => {
  log.push({ method: 'ERROR', url: String(error.code), headers: {}, body: '' });
  socket.destroy();
});
server.keepAliveTimeout = 60000;
server.listen(${RECORDING_PORT});
`;

/** Starts the recording service in a container on the peer's node; returns a clean-up. */
export async function startRecordingContainer(
  peer: AgentPeer,
  options: { name: string; labels: Record<string, string> },
): Promise<() => Promise<void>> {
  const folder = await mkdtemp(join(tmpdir(), 'sparrow-recording-'));
  await writeFile(join(folder, 'server.js'), SERVER);
  await peer.request('container.create', {
    image: WORKSPACE_IMAGE,
    name: options.name,
    labels: options.labels,
    command: ['/usr/local/bin/node', '/srv/server.js'],
    mounts: [
      { source: await realpath(process.execPath), target: '/usr/local/bin/node', readOnly: true },
      { source: folder, target: '/srv', readOnly: true },
    ],
  });
  await peer.request('container.start', { containerId: options.name });
  return () => rm(folder, { recursive: true, force: true });
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The server closed the connection after this answer (or instead of one: status 0). */
  closed: boolean;
}

/**
 * Sends `raw` bytes on a connection of its own and reads the first answer
 * (framed by Content-Length, chunked, or the connection's end). `head` says
 * the answer has no body (a HEAD request's); `untilClosed` waits for the
 * server to close the connection after it.
 */
export function rawExchange(
  port: number,
  raw: string,
  options: { head?: boolean; timeoutMs?: number; untilClosed?: boolean } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let done = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no whole answer in time; got ${JSON.stringify(received.toString())}`));
    }, options.timeoutMs ?? 30_000);
    const finish = (answer: RawAnswer) => {
      if (done || (options.untilClosed === true && !answer.closed)) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const parse = (ended: boolean) => {
      const text = received.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) {
        if (ended) finish({ status: 0, headers: {}, body: text, closed: true });
        return;
      }
      const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const status = Number(statusLine.split(' ')[1]);
      const rest = text.slice(end + 4);
      const length = headers['content-length'];
      if (options.head === true) return finish({ status, headers, body: '', closed: ended });
      if (length !== undefined) {
        if (rest.length >= Number(length)) {
          finish({ status, headers, body: rest.slice(0, Number(length)), closed: ended });
        } else if (ended) finish({ status, headers, body: rest, closed: true });
        return;
      }
      if (headers['transfer-encoding'] === 'chunked') {
        const last = rest.indexOf('0\r\n\r\n');
        if (last >= 0) finish({ status, headers, body: rest.slice(0, last), closed: ended });
        return;
      }
      if (ended) finish({ status, headers, body: rest, closed: true });
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      parse(false);
    });
    socket.on('end', () => parse(true));
    socket.on('close', () => parse(true));
    socket.on('error', (error) => {
      if (!done) parse(true);
      if (!done) reject(error);
    });
    socket.write(raw, 'latin1');
  });
}
