import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AgentPeer } from '../../src/agent/peer.js';
import type { Database } from '../../src/db/schema.js';
import { newId } from '../../src/lib/ids.js';
import { BUSYBOX_IMAGE } from './engine.js';

/** busybox httpd's port in a service container, and the raw WebSocket greeter's. */
export const HTTP_PORT = 8080;
export const WS_PORT = 9000;
/** A listener that reads nothing for `SLOW_START_SECONDS`, then counts `SLOW_BYTES` bytes and says how many. */
export const SLOW_PORT = 7000;
export const SLOW_START_SECONDS = 4;
export const SLOW_BYTES = 64 * 1024 * 1024;

/**
 * A WebSocket server in busybox: answers the handshake (the accept key from
 * sha1sum, xxd and base64), sends one unmasked text frame "hello", then
 * echoes every byte it gets (raw: echoed client frames stay masked).
 */
const WS_SCRIPT = String.raw`#!/bin/sh
key=""
while IFS= read -r line; do
  line=$(printf '%s' "$line" | tr -d '\r')
  [ -z "$line" ] && break
  case "$line" in
    [Ss]ec-[Ww]eb[Ss]ocket-[Kk]ey:*) key=$(printf '%s' "$line" | cut -d: -f2- | tr -d ' ') ;;
  esac
done
accept=$(printf '%s258EAFA5-E914-47DA-95CA-C5AB0DC85B11' "$key" | sha1sum | cut -d' ' -f1 | xxd -r -p | base64)
printf 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\n' "$accept"
printf '\201\005hello'
exec cat
`;

/**
 * busybox httpd on 8080 serving `/` (the text `label`), `/cgi-bin/echo`
 * (the request body back), `/cgi-bin/env` (the CGI environment: request
 * headers as HTTP_*), `/cgi-bin/slow` (answers after 2 s), `/big.bin` (`bigBytes` random bytes, when asked), and
 * the WebSocket greeter on 9000, and a slow reader on 7000.
 */
export function serviceContainerScript(label: string, bigBytes: number): string {
  return [
    'set -e',
    'mkdir -p /www/cgi-bin',
    `printf '%s' '${label}' > /www/index.html`,
    `printf '#!/bin/sh\\nprintf "Content-Type: application/octet-stream\\\\r\\\\n\\\\r\\\\n"\\nexec cat\\n' > /www/cgi-bin/echo`,
    `printf '#!/bin/sh\\nprintf "Content-Type: text/plain\\\\r\\\\n\\\\r\\\\n"\\nexec env\\n' > /www/cgi-bin/env`,
    `printf '#!/bin/sh\nsleep 2\nprintf "Content-Type: text/plain\\r\\n\\r\\nslept"\n' > /www/cgi-bin/slow`,
    'chmod +x /www/cgi-bin/echo /www/cgi-bin/env /www/cgi-bin/slow',
    bigBytes > 0 ? `head -c ${bigBytes} /dev/urandom > /www/big.bin` : 'true',
    `cat > /ws.sh <<'EOF'\n${WS_SCRIPT}EOF`,
    'chmod +x /ws.sh',
    `printf '#!/bin/sh\\nsleep ${SLOW_START_SECONDS}\\nhead -c ${SLOW_BYTES} | wc -c\\n' > /slow.sh`,
    'chmod +x /slow.sh',
    `nc -ll -p ${SLOW_PORT} -e /slow.sh &`,
    `httpd -p ${HTTP_PORT} -h /www`,
    `exec nc -ll -p ${WS_PORT} -e /ws.sh`,
  ].join('\n');
}

/** Creates and starts a service container on the peer's node; resolves with its name. */
export async function startServiceContainer(
  peer: AgentPeer,
  options: { name: string; label: string; labels: Record<string, string>; bigBytes?: number },
): Promise<string> {
  await peer.request('container.create', {
    image: BUSYBOX_IMAGE,
    name: options.name,
    labels: options.labels,
    command: ['sh', '-c', serviceContainerScript(options.label, options.bigBytes ?? 0)],
  });
  await peer.request('container.start', { containerId: options.name });
  return options.name;
}

/** A succeeded deploy run with one replica row per container: what the deploy job writes. */
export async function insertReplicas(
  db: Database,
  service: { id: string; orgId: string; deploymentId: string },
  replicas: {
    nodeId: string;
    container: string;
    port: number | null;
    state?: 'active' | 'starting';
  }[],
): Promise<{ runId: string; ids: string[] }> {
  const runId = newId();
  await db
    .insertInto('job_runs')
    .values({
      id: runId,
      org_id: service.orgId,
      deployment_id: service.deploymentId,
      service_id: service.id,
      kind: 'deploy',
      status: 'succeeded',
      job_name: null,
      parent_id: null,
      reason: null,
      exit_code: null,
      image: BUSYBOX_IMAGE,
      scheduled_at: null,
      started_at: new Date(),
      ended_at: new Date(),
    })
    .execute();
  const ids = replicas.map(() => newId());
  await db
    .insertInto('service_replicas')
    .values(
      replicas.map((replica, index) => ({
        id: ids[index] ?? newId(),
        service_id: service.id,
        run_id: runId,
        node_id: replica.nodeId,
        container_name: replica.container,
        port: replica.port,
        state: replica.state ?? 'active',
      })),
    )
    .execute();
  return { runId, ids };
}

export interface Fetched {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One HTTP exchange with `baseUrl` under another Host (a service URL), on a connection of its own. */
export function fetchAs(
  baseUrl: string,
  host: string,
  path: string,
  options: { method?: string; body?: Buffer | string; headers?: Record<string, string> } = {},
): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${baseUrl}${path}`,
      {
        method: options.method ?? 'GET',
        agent: false,
        headers: { host, ...options.headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}
