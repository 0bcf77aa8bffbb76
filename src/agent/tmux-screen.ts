import { TmuxControl } from './tmux-control.js';

const STATE_FORMAT = [
  '#{pane_width}',
  '#{pane_height}',
  '#{cursor_x}',
  '#{cursor_y}',
  '#{alternate_on}',
  '#{alternate_saved_x}',
  '#{alternate_saved_y}',
  '#{history_size}',
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
 * The pane's last `scrollback` lines of history (`capture-pane -e`, with
 * colours; wrapped lines joined with `-J`, so they wrap again at the
 * emulator's width), its screen row by row, and the cursor; under a
 * full-screen program the normal screen comes first, then the alternate one,
 * as a terminal keeps them. The commands run back to back through the control
 * client, so the capture holds exactly the output read before it: what
 * follows it in the stream comes after.
 */
export async function capturePane(
  control: TmuxControl,
  name: string,
  scrollback: number,
): Promise<PaneCapture | null> {
  const target = TmuxControl.target(name);
  const { blocks, failed, outputsBefore } = await control.run(
    [
      `display-message -p -t ${target} '${STATE_FORMAT}'`,
      `capture-pane -p -e -J -t ${target} -S -${scrollback} -E -1`,
      `capture-pane -p -e -t ${target}`,
      `capture-pane -p -e -a -q -t ${target}`,
    ].join(' ; '),
    4,
  );
  const [[state] = [], history = [], screen = [], normal = []] = blocks;
  if (failed || state === undefined) return null;
  const [cols = 80, rows = 24, x = 0, y = 0, alternate = 0, savedX = 0, savedY = 0, size = 0] =
    state.split(' ').map((value) => Number(value) || 0);
  // With no history, tmux answers the history capture with the screen's first line.
  let text = size === 0 ? '' : history.map((line) => `${line}\r\n`).join('');
  if (alternate === 1) {
    // The cursor the program left on the normal screen, where it comes back to.
    text += `${normal.join('\r\n')}\x1b[${savedY + 1};${savedX + 1}H\x1b[?1049h\x1b[H\x1b[2J`;
    text += screen.map((line, row) => `\x1b[${row + 1};1H${line}`).join('');
  } else {
    text += screen.join('\r\n');
  }
  text += `\x1b[${y + 1};${x + 1}H`;
  return { cols, rows, replay: Buffer.from(text, 'utf8'), outputsBefore };
}
