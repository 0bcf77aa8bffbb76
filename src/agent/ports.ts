import type Docker from 'dockerode';
import { AgentError } from './errors.js';
import { execRun } from './exec.js';
import type { ListeningPort } from './protocol/schemas.js';

const LISTEN = '0A';

function ipv4(hex: string): string {
  // One 32-bit word in host (little-endian) order.
  const bytes = Buffer.from(hex, 'hex');
  return [bytes[3], bytes[2], bytes[1], bytes[0]].join('.');
}

function ipv6(hex: string): string {
  const groups: string[] = [];
  for (let i = 0; i < 32; i += 8) {
    // Four 32-bit words, each in host (little-endian) order.
    const word = Buffer.from(hex.slice(i, i + 8), 'hex')
      .reverse()
      .toString('hex');
    groups.push(word.slice(0, 4), word.slice(4, 8));
  }
  const short = groups.map((group) => group.replace(/^0+(?=.)/, ''));
  // Compress the longest run of two or more zero groups to "::".
  let best = -1;
  let bestLength = 0;
  for (let i = 0; i < short.length; ) {
    if (short[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < short.length && short[j] === '0') j++;
    if (j - i > bestLength) [best, bestLength] = [i, j - i];
    i = j;
  }
  if (bestLength < 2) return short.join(':');
  return `${short.slice(0, best).join(':')}::${short.slice(best + bestLength).join(':')}`;
}

/** Listening TCP sockets in the text of /proc/net/tcp or /proc/net/tcp6. */
export function parseProcNetTcp(text: string, family: 'ipv4' | 'ipv6'): ListeningPort[] {
  const ports: ListeningPort[] = [];
  for (const line of text.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    const local = fields[1];
    if (local === undefined || fields[3] !== LISTEN) continue;
    const [addressHex = '', portHex = ''] = local.split(':');
    const port = Number.parseInt(portHex, 16);
    if (!Number.isInteger(port) || port < 1 || port > 65535) continue;
    const address = family === 'ipv4' ? ipv4(addressHex) : ipv6(addressHex);
    ports.push({ port, protocol: 'tcp', family, address });
  }
  return ports;
}

const SEPARATOR = '--sparrow-tcp6--';

/** TCP ports something listens on inside the container, sorted, one entry per socket. */
export async function listeningPorts(docker: Docker, id: string): Promise<ListeningPort[]> {
  const result = await execRun(docker, id, {
    command: [
      '/bin/sh',
      '-c',
      `cat /proc/net/tcp; echo ${SEPARATOR}; cat /proc/net/tcp6 2>/dev/null`,
    ],
    timeoutMs: 30_000,
    user: '0',
  });
  if (result.exitCode !== 0 && result.stdout === '') {
    throw new AgentError('exec_failed', `reading /proc/net/tcp failed: ${result.stderr.trim()}`);
  }
  const [v4 = '', v6 = ''] = result.stdout.split(`${SEPARATOR}\n`);
  const seen = new Set<string>();
  return [...parseProcNetTcp(v4, 'ipv4'), ...parseProcNetTcp(v6, 'ipv6')]
    .filter((port) => {
      const key = `${port.family}/${port.address}/${port.port}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => a.port - b.port || a.family.localeCompare(b.family));
}
