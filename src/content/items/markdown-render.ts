import type { Block, BlockDocument, Inline, Mark, TextNode } from './block-schemas.js';

/**
 * Renders a block document as Markdown: the item's text projection (`body`),
 * which `markdown-parse.ts` reads back into the same blocks.
 * Bold is `**`, italic `_`, strikethrough `~~`, underline `<u>`, code `` ` ``.
 */

const ESCAPED = /[\\*_~`[\]<]/g;

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

const WRAPPERS: Array<[Mark, string, string]> = [
  ['strikethrough', '~~', '~~'],
  ['italic', '_', '_'],
  ['bold', '**', '**'],
  ['underline', '<u>', '</u>'],
];

function renderText(node: TextNode): string {
  const marks = node.marks ?? [];
  let out = marks.includes('code') ? codeSpan(node.text) : escapeText(node.text);
  for (const [mark, open, close] of WRAPPERS) {
    if (marks.includes(mark)) out = `${open}${out}${close}`;
  }
  return out;
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

const HREF_ESCAPES: Record<string, string> = { '(': '%28', ')': '%29', ' ': '%20' };

/** Parentheses and spaces would end the link target; they travel percent-encoded. */
export function encodeHref(href: string): string {
  return href.replace(/[() ]/g, (char) => HREF_ESCAPES[char] ?? char);
}

export function renderInlines(inlines: readonly Inline[] | undefined): string {
  const parts: string[] = [];
  let run: TextNode[] = [];
  const flush = () => {
    parts.push(...merged(run).map(renderText));
    run = [];
  };
  for (const inline of inlines ?? []) {
    if (inline.type === 'text') {
      run.push(inline);
      continue;
    }
    flush();
    parts.push(`[${merged(inline.content).map(renderText).join('')}](${encodeHref(inline.href)})`);
  }
  flush();
  return parts.join('');
}

/** Escapes what would start another block at the beginning of a line. */
function protectLines(text: string): string {
  return text
    .split('\n')
    .map((line) =>
      line.replace(/^(\s*)([#>+-]|\d+\.)/, (_match, space: string, lead: string) =>
        lead.endsWith('.') ? `${space}${lead.slice(0, -1)}\\.` : `${space}\\${lead}`,
      ),
    )
    .join('\n');
}

function indentOf(block: Block): string {
  return '  '.repeat('indent' in block ? (block.indent ?? 0) : 0);
}

function renderBlock(block: Block, number: number): string {
  const text = () => protectLines(renderInlines('content' in block ? block.content : undefined));
  const indent = indentOf(block);
  switch (block.type) {
    case 'paragraph':
      return text()
        .split('\n')
        .map((line) => indent + line)
        .join('\n');
    case 'heading1':
      return `# ${text()}`;
    case 'heading2':
      return `## ${text()}`;
    case 'heading3':
      return `### ${text()}`;
    case 'bulleted_list':
      return `${indent}- ${text()}`;
    case 'numbered_list':
      return `${indent}${number}. ${text()}`;
    case 'todo':
      return `${indent}- [${block.checked ? 'x' : ' '}] ${text()}`;
    case 'quote':
      return text()
        .split('\n')
        .map((line) => `${indent}> ${line}`)
        .join('\n');
    case 'callout':
      return `${indent}> [!callout${block.icon ? ` ${block.icon}` : ''}] ${text()}`;
    case 'code': {
      const body = block.text ?? '';
      const longest = Math.max(2, ...[...body.matchAll(/`{3,}/g)].map((match) => match[0].length));
      const fence = '`'.repeat(longest + 1);
      return `${fence}${block.language ?? ''}\n${body}\n${fence}`;
    }
    case 'divider':
      return '---';
    case 'image':
      return `![${renderInlines(block.caption)}](file:${block.fileId ?? ''})`;
  }
}

const LIST_TYPES = new Set(['bulleted_list', 'numbered_list', 'todo']);

export function renderMarkdown(document: BlockDocument): string {
  const out: string[] = [];
  let number = 0;
  let previous: Block | undefined;
  for (const block of document.blocks) {
    const sameList =
      previous !== undefined && LIST_TYPES.has(previous.type) && LIST_TYPES.has(block.type);
    number =
      block.type === 'numbered_list' &&
      previous?.type === 'numbered_list' &&
      previous.indent === block.indent
        ? number + 1
        : 1;
    if (previous !== undefined) out.push(sameList ? '\n' : '\n\n');
    out.push(renderBlock(block, number));
    previous = block;
  }
  return out.join('');
}
