import { TmuxControl } from './tmux-control.js';

const STATE_FORMAT = [
  '#{pane_width}',
  '#{pane_height}',
  '#{cursor_x}',
  '#{cursor_y}',
  '#{alternate_on}',
  '#{alternate_saved_x}',
  '#{alternate_saved_y}',
].join(' ');

/** What tmux holds of a pane, to start an emulator from. */
export interface PaneCapture {
  cols: number;
  rows: number;
  /** Terminal output that draws the history and the screen as tmux has them. */
  replay: Buffer;
  /** How many `%output` notifications the capture already holds. */
  outputsBefore: number;
}

/**
 * The pane's last `scrollback` lines of history and its screen, with colours
 * (`capture-pane -e`, wrapped lines joined with `-J` so they wrap again at
 * the emulator's width), then the cursor; the normal screen under an
 * alternate one (a full-screen program) comes first, as a terminal keeps it.
 * The commands run back to back through the control client, so the capture
 * holds exactly the output read before it: what follows it in the stream
 * comes after.
 */
export async function capturePane(
  control: TmuxControl,
  name: string,
  scrollback: number,
): Promise<PaneCapture | null> {
  const target = TmuxControl.target(name);
  const { lines, failed, outputsBefore } = await control.run(
    [
      `display-message -p -t ${target} '${STATE_FORMAT}'`,
      `capture-pane -p -e -J -t ${target} -S -${scrollback}`,
      `capture-pane -p -e -J -a -q -t ${target}`,
    ].join(' ; '),
    3,
  );
  const [state, ...captured] = lines;
  if (failed || state === undefined) return null;
  const [cols = 80, rows = 24, x = 0, y = 0, alternate = 0, savedX = 0, savedY = 0] = state
    .split(' ')
    .map((value) => Number(value) || 0);
  const screen = captured.slice(0, captured.length - (alternate === 1 ? rows : 0));
  const normal = alternate === 1 ? captured.slice(-rows) : [];
  const history = screen.slice(0, Math.max(0, screen.length - rows));
  const visible = screen.slice(history.length);
  let text = history.map((line) => `${line}\r\n`).join('');
  if (alternate === 1) {
    // The cursor the program left on the normal screen, where it comes back to.
    text += `${normal.join('\r\n')}\x1b[${savedY + 1};${savedX + 1}H\x1b[?1049h\x1b[H\x1b[2J`;
  }
  text += `${visible.join('\r\n')}\x1b[${y + 1};${x + 1}H`;
  return { cols, rows, replay: Buffer.from(text, 'utf8'), outputsBefore };
}
