import { chromium, type Page } from 'playwright-core';
import { call } from './api.js';
import { percentile, startPlatformBench } from './platform.js';
import { machine } from './server.js';

/**
 * The browser terminal's figures (issue 29, Speed), in Debian's Chromium on
 * the built server with a real agent and worker: (a) a keystroke's echo,
 * from the page's `input` frame to the `output` frame that echoes it,
 * p50/p99 (targets 10 and 50 ms); (b) `cat` of a 10 MB file of numbered
 * lines: every byte arrives, the last screen shows the last lines in order,
 * and the page's longest frame gap and long task while it runs (target: no
 * frame over 100 ms).
 */
const CHROMIUM = process.env.SPARROW_CHROMIUM ?? '/usr/bin/chromium';
const KEYSTROKES = Number(process.env.BENCH_KEYSTROKES ?? 200);
/** 10 MB: lines of 80 bytes ("line 00000001 " and dots, then a newline). */
const LINES = Number(process.env.BENCH_LINES ?? 131_072);
const log = (message: string) => process.stderr.write(`${message}\n`);

/**
 * Watches the page's sockets and frames before its code runs: the time of
 * each one-character input frame and of the first output frame after it,
 * the output bytes, the gaps between animation frames, and long tasks.
 */
function instrument() {
  const probe = {
    sent: [] as number[],
    echoed: [] as number[],
    outputBytes: 0,
    gaps: [] as number[],
    longTasks: [] as number[],
    watching: false,
  };
  Object.assign(window, { __probe: probe });
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (this: WebSocket, data) {
    if (typeof data === 'string' && data.includes('"input"')) {
      const frame = JSON.parse(data) as { type: string; data: string };
      // A printable character (not the Ctrl+U that clears the line).
      if (frame.type === 'input' && /^[ -~]$/.test(atob(frame.data))) {
        probe.sent.push(performance.now());
        this.addEventListener('message', () => probe.echoed.push(performance.now()), {
          once: true,
        });
      }
    }
    return send.call(this, data);
  };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('message', (message: MessageEvent) => {
        const text = String(message.data);
        const at = text.indexOf('"data":"');
        if (at < 0) return;
        const end = text.indexOf('"', at + 8);
        probe.outputBytes += Math.floor(((end - at - 8) * 3) / 4);
      });
    }
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (probe.watching) probe.longTasks.push(entry.duration);
  }).observe({ type: 'longtask', buffered: false });
}

interface Probe {
  sent: number[];
  echoed: number[];
  outputBytes: number;
  gaps: number[];
  longTasks: number[];
  watching: boolean;
}
const probeOf = (page: Page) =>
  page.evaluate(() => (window as unknown as { __probe: Probe }).__probe);

async function echo(page: Page) {
  const samples: number[] = [];
  for (let key = 0; key < KEYSTROKES; key++) {
    await page.keyboard.press('a');
    await page.waitForFunction(
      (count) => (window as unknown as { __probe: Probe }).__probe.echoed.length >= count,
      key + 1,
    );
    // Every few keys, the line is cleared (Ctrl+U), so the shell's line stays short.
    if (key % 20 === 19) await page.keyboard.press('Control+u');
  }
  const probe = await probeOf(page);
  for (let index = 0; index < probe.sent.length; index++) {
    const sent = probe.sent[index];
    const echoed = probe.echoed[index];
    if (sent !== undefined && echoed !== undefined) samples.push(echoed - sent);
  }
  await page.keyboard.press('Control+u');
  return {
    what: 'a keystroke, from its input frame to the output frame that echoes it, in the page',
    ms: { p50: percentile(samples, 50), p99: percentile(samples, 99), max: Math.max(...samples) },
    keystrokes: samples.length,
    target: { p50Ms: 10, p99Ms: 50 },
    met: percentile(samples, 50) <= 10 && percentile(samples, 99) <= 50,
  };
}

/** The terminal's visible rows, as text. */
const screenRows = (page: Page) =>
  page.locator('.xterm-rows > div').evaluateAll((rows) => rows.map((row) => row.textContent ?? ''));

async function bigCat(page: Page, base: string, token: string, workerPath: string) {
  const file = '/tmp/bench-10mb.txt';
  const dots = '.'.repeat(80 - 'line 00000001 '.length - 1);
  await call(
    base,
    'POST',
    `${workerPath}/exec`,
    { command: `seq -f 'line %08g ${dots}' 1 ${LINES} > ${file} && wc -c < ${file}` },
    token,
  );
  const before = (await probeOf(page)).outputBytes;
  // Frame gaps: requestAnimationFrame deltas while the cat runs (a string: the bundler's
  // helpers do not exist in the page).
  await page.evaluate(`(() => {
    const probe = window.__probe;
    probe.gaps = [];
    probe.longTasks = [];
    probe.watching = true;
    let last = 0;
    const tick = (now) => {
      if (!probe.watching) return;
      if (last > 0) probe.gaps.push(now - last);
      last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })()`);
  const started = Date.now();
  await page.keyboard.type(`cat ${file}; echo cat-done-$((6*7))\n`);
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('.xterm-rows > div')].some(
        (row) => row.textContent?.trim() === 'cat-done-42',
      ),
    undefined,
    { timeout: 300_000 },
  );
  const seconds = (Date.now() - started) / 1000;
  await page.evaluate(() => {
    (window as unknown as { __probe: Probe }).__probe.watching = false;
  });
  const probe = await probeOf(page);
  const rows = (await screenRows(page)).map((row) => row.trim());
  // In order: the numbered lines on the last screen follow one another up to the last.
  const numbers = rows
    .map((row) => /^line (\d{8}) /.exec(row)?.[1])
    .filter((value): value is string => value !== undefined)
    .map(Number);
  const inOrder =
    numbers.length > 0 &&
    numbers.at(-1) === LINES &&
    numbers.every((value, index) => index === 0 || value === (numbers[index - 1] ?? 0) + 1);
  const fileBytes = LINES * 80;
  const received = probe.outputBytes - before;
  return {
    what: `cat of a ${(fileBytes / 1e6).toFixed(1)} MB file of numbered lines in the browser terminal`,
    seconds: Math.round(seconds * 10) / 10,
    megabytesPerSecond: Math.round((fileBytes / 1e6 / seconds) * 10) / 10,
    complete: received >= fileBytes,
    bytes: { file: fileBytes, received },
    inOrder,
    longestFrameGapMs: Math.round(Math.max(0, ...probe.gaps)),
    framesOver100Ms: probe.gaps.filter((gap) => gap > 100).length,
    longestLongTaskMs: Math.round(Math.max(0, ...probe.longTasks)),
    target: { frameMs: 100 },
    met: received >= fileBytes && inOrder && Math.max(0, ...probe.gaps) <= 100,
  };
}

const bench = await startPlatformBench();
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
try {
  const { server, token } = bench;
  const workers = `/api/orgs/${bench.orgId}/projects/${bench.projectId}/workers`;
  log('spawning a worker');
  const worker = await call(server.url, 'POST', `${workers}?wait=true`, {}, token);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addCookies([{ name: 'session', value: token, url: server.url, httpOnly: true }]);
  await context.addInitScript(instrument);
  const page = await context.newPage();
  await page.goto(
    `${server.url}/app/orgs/${bench.orgId}/projects/${bench.projectId}/workers/${worker.id}/terminal?session=bench`,
  );
  await page.getByRole('status').getByText('Connected.').waitFor({ timeout: 60_000 });
  await page.locator('.xterm-helper-textarea').focus();
  log('measuring keystroke echo');
  const keystrokes = await echo(page);
  log('measuring a 10 MB cat');
  const cat = await bigCat(page, server.url, token, `${workers}/${worker.id}`);
  console.log(
    JSON.stringify(
      {
        benchmark: 'web-terminal',
        database: server.database,
        image: bench.image,
        machine: machine(),
        keystrokeEcho: keystrokes,
        cat,
      },
      null,
      2,
    ),
  );
} finally {
  await browser.close();
  await bench.stop();
}
