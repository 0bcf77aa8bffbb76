import { describe, expect, it } from 'vitest';
import { parseProcNetTcp } from './ports.js';

const TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:2382 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0 100 0 0 10 0
   1: 00000000:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 2 1 0 100 0 0 10 0
   2: 0100007F:1F90 0100007F:A2C4 01 00000000:00000000 00:00000000 00000000     0        0 3 1 0 100 0 0 10 0
`;

const TCP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000000000000:0BB8 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4 1 0 100 0 0 10 0
   1: 00000000000000000000000001000000:0050 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 5 1 0 100 0 0 10 0
   2: B80D0120000000000000000001000000:0051 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 6 1 0 100 0 0 10 0
`;

describe('/proc/net/tcp parsing', () => {
  it('keeps listening sockets only, with address and port', () => {
    expect(parseProcNetTcp(TCP, 'ipv4')).toEqual([
      { port: 9090, protocol: 'tcp', family: 'ipv4', address: '127.0.0.1' },
      { port: 8080, protocol: 'tcp', family: 'ipv4', address: '0.0.0.0' },
    ]);
  });

  it('reads IPv6 words in host order and compresses zeros', () => {
    expect(parseProcNetTcp(TCP6, 'ipv6')).toEqual([
      { port: 3000, protocol: 'tcp', family: 'ipv6', address: '::' },
      { port: 80, protocol: 'tcp', family: 'ipv6', address: '::1' },
      { port: 81, protocol: 'tcp', family: 'ipv6', address: '2001:db8::1' },
    ]);
  });

  it('ignores an empty or truncated table', () => {
    expect(parseProcNetTcp('', 'ipv4')).toEqual([]);
    expect(parseProcNetTcp('header only\n   0: garbage', 'ipv4')).toEqual([]);
  });
});
