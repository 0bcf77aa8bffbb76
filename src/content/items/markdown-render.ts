import type { Block, BlockDocument, Inline, TextNode } from './block-schemas.js';
import { renderMarkedRun } from './markdown-marks.js';

/**
 * Renders a block document as Markdown: the item's text projection (`body`),
 * which `markdown-parse.ts` reads back into the same blocks.
 * Bold is `**`, italic `*`, strikethrough `~~`, underline `<u>`, code `` ` ``.
 * A nested block is indented to its parent item's text, as CommonMark nests.
 */

const ESCAPED = /[\\*_~`[\]<&]/g;

function escapeText(text: string): string {
  return text.replace(ESCAPED, (char) => `\\${char}`);
}

function codeSpan(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad =
    text.startsWith('`') ||
    text.endsWith('`') ||
    (text.startsWith(' ') && text.endsWith(' ') && text.trim() !== '');
  return pad ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`;
}

function sameMarks(a: TextNode, b: TextNode): boolean {
  const left = [...(a.marks ?? [])].sort().join();
  return left === [...(b.marks ?? [])].sort().join();
}

/** Joins neighbouring text nodes with the same marks, so `**a****b**` never appears. */
function merged(nodes: readonly TextNode[]): TextNode[] {
  const out: TextNode[] = [];
  for (const node of nodes) {
    const last = out.at(-1);
    if (last !== undefined && sameMarks(last, node))
      out[out.length - 1] = { ...last, text: last.text + node.text };
    else if (node.text !== '') out.push(node);
  }
  return out;
}

/** A link target in angle brackets, where parentheses and spaces may stand as they are. */
export function encodeHref(href: string): string {
  return `<${href.replace(/[\\<>&\n]/g, (char) => (char === '\n' ? '%0A' : `\\${char}`))}>`;
}

export function renderInlines(inlines: readonly Inline[] | undefined): string {
  const parts: string[] = [];
  let run: TextNode[] = [];
  const flush = () => {
    parts.push(renderMarkedRun(merged(run), escapeText, codeSpan));
    run = [];
  };
  for (const inline of inlines ?? []) {
    if (inline.type === 'text') {
      run.push(inline);
      continue;
    }
    flush();
    const label = renderMarkedRun(merged(inline.content), escapeText, codeSpan);
    parts.push(`[${label}](${encodeHref(inline.href)})`);
  }
  flush();
  return parts.join('');
}

/**
 * Keeps each line of a text block's Markdown its own: what would start
 * another block at the beginning of a line is escaped, and spaces at either
 * end, which Markdown drops (or reads as code or a line break), are written
 * as character references.
 */
function protectLines(text: string): string {
  return text
    .split('\n')
    .map((line) =>
      line
        .replace(/^(\s*)([#>+=|-]|\d+[.)])/, (_match, space: string, lead: string) =>
          /\d/.test(lead) ? `${space}${lead.slice(0, -1)}\\${lead.slice(-1)}` : `${space}\\${lead}`,
        )
        .replace(/^[ \t]+|[ \t]+$/g, (spaces) =>
          [...spaces].map((char) => (char === '\t' ? '&#9;' : '&#32;')).join(''),
        ),
    )
    .join('\n');
}

const LIST_TYPES = new Set(['bulleted_list', 'numbered_list', 'todo']);

/** A block's marker, and the text after it (lines joined by `\n`). */
function renderBlock(block: Block, number: number): { marker: string; text: string } {
  const text = () => protectLines(renderInlines('content' in block ? block.content : undefined));
  switch (block.type) {
    case 'paragraph':
      return { marker: '', text: text() };
    case 'heading1':
      return { marker: '# ', text: text() };
    case 'heading2':
      return { marker: '## ', text: text() };
    case 'heading3':
      return { marker: '### ', text: text() };
    case 'bulleted_list':
      return { marker: '- ', text: text() };
    case 'numbered_list':
      return { marker: `${number}. `, text: text() };
    case 'todo':
      return { marker: '- ', text: `[${block.checked ? 'x' : ' '}] ${text()}` };
    case 'quote':
      return { marker: '', text: quoted(text()) };
    case 'callout':
      return {
        marker: '',
        text: quoted(`[!callout${block.icon ? ` ${block.icon}` : ''}] ${text()}`),
      };
    case 'code': {
      const body = block.text ?? '';
      const longest = Math.max(2, ...[...body.matchAll(/`{3,}/g)].map((match) => match[0].length));
      const fence = '`'.repeat(longest + 1);
      return { marker: '', text: `${fence}${block.language ?? ''}\n${body}\n${fence}` };
    }
    case 'divider':
      return { marker: '', text: '---' };
    case 'image':
      return { marker: '', text: `![${renderInlines(block.caption)}](file:${block.fileId})` };
  }
}

function quoted(text: string): string {
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

/**
 * Renders the blocks in order. A block with an indent is nested in the
 * list item before it (a level no item opens is not written: Markdown has
 * no indented paragraph of its own); list items follow each other on the
 * next line, every other block after a blank line.
 */
export function renderMarkdown(document: BlockDocument): string {
  const out: string[] = [];
  // prefixes[n]: what puts a line inside the list item open at level n - 1.
  let prefixes = [''];
  let numbers: number[] = [];
  let previous: Block | undefined;
  for (const block of document.blocks) {
    const wanted = 'indent' in block ? (block.indent ?? 0) : 0;
    const level = Math.min(wanted, prefixes.length - 1);
    prefixes = prefixes.slice(0, level + 1);
    const number = block.type === 'numbered_list' ? (numbers[level] ?? 0) + 1 : 0;
    numbers = numbers.slice(0, level);
    numbers[level] = number;
    const { marker, text } = renderBlock(block, number);
    const prefix = prefixes[level] ?? '';
    const inner = prefix + ' '.repeat(marker.length);
    if (LIST_TYPES.has(block.type)) prefixes.push(inner);
    const tight =
      previous !== undefined && LIST_TYPES.has(previous.type) && LIST_TYPES.has(block.type);
    if (previous !== undefined) out.push(tight ? '\n' : '\n\n');
    out.push(
      text
        .split('\n')
        .map((line, index) =>
          index === 0 ? prefix + marker + line : line === '' ? '' : inner + line,
        )
        .join('\n'),
    );
    previous = block;
  }
  return out.join('');
}
