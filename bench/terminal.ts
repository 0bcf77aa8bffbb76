import WebSocket from 'ws';
import { call } from './api.js';
import { percentile, startPlatformBench } from './platform.js';
import { machine } from './server.js';

/**
 * Terminal latency and throughput through server, agent process and
 * container: a keystroke's echo round trip (the pty echoes it), and the
 * rate of a large `cat` read to its end marker, checking every byte of
 * the file arrived. Twice: with the session held by tmux in the container
 * (the default image has it; the agent reads the program's bytes from a tmux
 * control-mode client) and held by the agent (`sparrow agent --no-tmux`);
 * every byte arrives either way. BENCH_TERMINAL_MODES=tmux or agent runs one.
 */
const KEYSTROKES = Number(process.env.BENCH_KEYSTROKES ?? 300);
const MEGABYTES = Number(process.env.BENCH_MEGABYTES ?? 64);
const MODES = (process.env.BENCH_TERMINAL_MODES ?? 'tmux,agent').split(',');

/** Output of the socket, decoded, with a way to wait for a pattern. */
function terminal(socket: WebSocket) {
  let chunks: Buffer[] = [];
  let recent = '';
  let bytes = 0;
  let waiter: { pattern: string; resolve: () => void } | null = null;
  socket.on('message', (data) => {
    const frame = JSON.parse(data.toString());
    if (frame.type !== 'output') return;
    const chunk = Buffer.from(frame.data, 'base64');
    bytes += chunk.length;
    chunks.push(chunk);
    // Only the end can hold a new match: no rescan of megabytes per frame.
    recent = (recent + chunk.toString('latin1')).slice(-4096);
    if (waiter !== null && recent.includes(waiter.pattern)) {
      const done = waiter;
      waiter = null;
      done.resolve();
    }
  });
  return {
    input: (value: string) =>
      socket.send(JSON.stringify({ type: 'input', data: Buffer.from(value).toString('base64') })),
    until: (pattern: string) =>
      new Promise<void>((resolve) => {
        if (recent.includes(pattern)) return resolve();
        waiter = { pattern, resolve };
      }),
    reset: () => {
      chunks = [];
      recent = '';
      bytes = 0;
    },
    text: () => Buffer.concat(chunks).toString('latin1'),
    get bytes() {
      return bytes;
    },
  };
}

async function measure(mode: string) {
  const bench = await startPlatformBench(mode === 'agent' ? ['--no-tmux'] : []);
  const { server, token } = bench;
  const workers = `/api/orgs/${bench.orgId}/projects/${bench.projectId}/workers`;
  try {
    const worker = await call(server.url, 'POST', `${workers}?wait=true`, {}, token);
    const file = `/tmp/bench-${MEGABYTES}.txt`;
    // Base64 text in lines of 76: what a terminal shows, and countable afterwards.
    const made = await call(
      server.url,
      'POST',
      `${workers}/${worker.id}/exec`,
      {
        command: `head -c ${MEGABYTES * 768 * 1024} /dev/urandom | base64 > ${file} && wc -c < ${file} && tr -cd 'A-Za-z0-9+/=' < ${file} | wc -c`,
      },
      token,
    );
    const [fileBytes, payloadChars] = made.stdout.trim().split('\n').map(Number);
    await call(
      server.url,
      'POST',
      `${workers}/${worker.id}/terminals`,
      { name: 'bench', command: ['/bin/bash', '--noprofile', '--norc'] },
      token,
    );
    const socket = new WebSocket(
      `${server.url.replace('http', 'ws')}/api/workers/${worker.id}/terminal?session=bench`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const term = terminal(socket);
    term.input('stty -echoctl; PS1="$ "\r');
    await term.until('$ ');

    // Keystroke echo: type a character, wait for it to come back.
    const echo: number[] = [];
    for (let i = 0; i < KEYSTROKES; i++) {
      term.reset();
      const key = String.fromCharCode(97 + (i % 26));
      const started = performance.now();
      term.input(key);
      await term.until(key);
      echo.push(performance.now() - started);
    }
    term.input('\u0015'); // erase the typed line

    // Throughput: cat the file and read to the marker.
    await new Promise((resolve) => setTimeout(resolve, 200));
    term.reset();
    const started = performance.now();
    term.input(`cat ${file}; echo __END""MARK__\r`);
    await term.until('__ENDMARK__');
    const seconds = (performance.now() - started) / 1000;
    const received =
      term
        .text()
        .replace(/^.*?\r\n/, '')
        .split('__ENDMARK__')[0] ?? '';
    // Control sequences the shell prints (bracketed paste on and off) are not payload.
    const csi = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, 'g');
    const payload = received.replace(csi, '');
    const receivedChars = payload.replace(/[^A-Za-z0-9+/=]/g, '').length;
    socket.close();
    console.log(
      JSON.stringify(
        {
          benchmark: 'terminal',
          sessionHeldBy: mode,
          database: server.database,
          machine: machine(),
          keystrokeEchoMs: {
            p50: percentile(echo, 50),
            p99: percentile(echo, 99),
            samples: echo.length,
          },
          cat: {
            fileBytes,
            bytesReceived: term.bytes,
            seconds: Math.round(seconds * 100) / 100,
            megabytesPerSecond: Math.round((term.bytes / 1024 / 1024 / seconds) * 10) / 10,
            // The program's output consumed until the end marker showed.
            fileMegabytesPerSecond: Math.round((fileBytes / 1024 / 1024 / seconds) * 10) / 10,
            payloadChars,
            payloadCharsReceived: receivedChars,
            noByteLost: receivedChars === payloadChars,
          },
          targets: {
            echoP50Under5ms: percentile(echo, 50) < 5,
            catAtLeast50MBps: term.bytes / 1024 / 1024 / seconds >= 50,
          },
        },
        null,
        2,
      ),
    );
  } finally {
    await bench.stop();
  }
}

for (const mode of MODES) await measure(mode);
