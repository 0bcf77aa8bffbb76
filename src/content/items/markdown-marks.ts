import type { Mark, TextNode } from './block-schemas.js';

/**
 * Renders a run of text nodes with their marks as Markdown spans: a mark
 * that several neighbours share is one span (`*a **b** c*`), a span that
 * lasts longer encloses the shorter ones, and a code node is a code span.
 * `*` and `~~` neither open before a space nor close after one, so a bold,
 * italic or struck span starts and ends on a non-space: spaces at its edges
 * are written outside it, and read back without its mark.
 */

type SpanMark = Exclude<Mark, 'code'>;

const DELIMITERS: Record<SpanMark, readonly [string, string]> = {
  bold: ['**', '**'],
  italic: ['*', '*'],
  strikethrough: ['~~', '~~'],
  underline: ['<u>', '</u>'],
};

function isFlanked(mark: Mark): boolean {
  return mark === 'bold' || mark === 'italic' || mark === 'strikethrough';
}

function spanMarks(node: TextNode): Set<SpanMark> {
  const marks = new Set<SpanMark>();
  for (const mark of node.marks ?? []) if (mark !== 'code') marks.add(mark);
  return marks;
}

/**
 * Spaces alone cannot open or close a bold, italic or struck span: they keep
 * such a mark only when both neighbours have it too.
 */
function settle(nodes: readonly TextNode[]): TextNode[] {
  return nodes.map((node, index) => {
    if (node.text.trim() !== '' || node.marks?.includes('code')) return node;
    const around = [nodes[index - 1], nodes[index + 1]];
    const marks = (node.marks ?? []).filter(
      (mark) => !isFlanked(mark) || around.every((other) => other?.marks?.includes(mark)),
    );
    return marks.length === 0 ? { type: 'text', text: node.text } : { ...node, marks };
  });
}

interface Step {
  close: SpanMark[];
  open: SpanMark[];
}

/** Where each span closes and opens: steps[i] comes before node i, the last after them all. */
function plan(spans: readonly Set<SpanMark>[]): Step[] {
  const steps: Step[] = [];
  let stack: SpanMark[] = [];
  const extent = (mark: SpanMark, from: number) => {
    let end = from;
    while (spans[end]?.has(mark)) end++;
    return end - from;
  };
  for (let index = 0; index <= spans.length; index++) {
    const wanted = spans[index] ?? new Set<SpanMark>();
    const firstGone = stack.findIndex((mark) => !wanted.has(mark));
    const close = firstGone === -1 ? [] : stack.slice(firstGone).reverse();
    stack = firstGone === -1 ? stack : stack.slice(0, firstGone);
    const open = [...wanted]
      .filter((mark) => !stack.includes(mark))
      .sort((a, b) => extent(b, index) - extent(a, index));
    stack = [...stack, ...open];
    steps.push({ close, open });
  }
  return steps;
}

export function renderMarkedRun(
  run: readonly TextNode[],
  escapeText: (text: string) => string,
  codeSpan: (text: string) => string,
): string {
  const nodes = settle(run);
  const steps = plan(nodes.map(spanMarks));
  const closing = (marks: readonly SpanMark[]) => marks.map((mark) => DELIMITERS[mark][1]).join('');
  const opening = (marks: readonly SpanMark[]) => marks.map((mark) => DELIMITERS[mark][0]).join('');
  let out = '';
  let trail = '';
  for (const [index, node] of nodes.entries()) {
    const step = steps[index] ?? { close: [], open: [] };
    const next = steps[index + 1] ?? { close: [], open: [] };
    let text = node.text;
    let lead = '';
    const code = node.marks?.includes('code') === true;
    if (!code && step.open.some(isFlanked)) {
      lead = /^\s*/.exec(text)?.[0] ?? '';
      text = text.slice(lead.length);
    }
    let after = '';
    if (!code && next.close.some(isFlanked)) {
      after = /\s*$/.exec(text)?.[0] ?? '';
      text = text.slice(0, text.length - after.length);
    }
    out += closing(step.close) + trail + lead + opening(step.open);
    out += code ? codeSpan(text) : escapeText(text);
    trail = after;
  }
  return out + closing(steps[nodes.length]?.close ?? []) + trail;
}
