import { Extension, Node, textblockTypeInputRule } from '@tiptap/react';
import { MAX_INDENT } from './document.js';

/**
 * The API's flat blocks as editor nodes: no nesting, a list item is a block
 * with an indent (0..6), as in the block document. Headings, code, divider,
 * paragraphs and marks come from StarterKit (configured in `extensions.ts`).
 */

const indentAttribute = {
  default: 0,
  parseHTML: (element: HTMLElement) => Number(element.dataset.indent ?? 0) || 0,
  renderHTML: (attributes: Record<string, unknown>) => {
    const indent = Number(attributes.indent) || 0;
    return indent === 0 ? {} : { 'data-indent': indent, style: `margin-left: ${indent * 1.5}rem` };
  },
};

function flatBlock(name: string, className: string, extra: Record<string, object> = {}) {
  return Node.create({
    name,
    group: 'block',
    content: 'inline*',
    defining: true,
    addAttributes: () => ({ indent: indentAttribute, ...extra }),
    parseHTML: () => [{ tag: `div[data-type="${name}"]` }],
    renderHTML: ({ HTMLAttributes }) => [
      'div',
      { ...HTMLAttributes, 'data-type': name, class: className },
      0,
    ],
  });
}

export const BulletedList = flatBlock('bulletedList', 'pm-bulleted').extend({
  addInputRules() {
    return [textblockTypeInputRule({ find: /^\s*[-+*]\s$/, type: this.type })];
  },
});

export const NumberedList = flatBlock('numberedList', 'pm-numbered').extend({
  addInputRules() {
    return [textblockTypeInputRule({ find: /^\d+\.\s$/, type: this.type })];
  },
});

export const Quote = flatBlock('quote', 'pm-quote').extend({
  addInputRules() {
    return [textblockTypeInputRule({ find: /^>\s$/, type: this.type })];
  },
});

export const Callout = flatBlock('callout', 'pm-callout', {
  icon: {
    default: null,
    renderHTML: (attributes: Record<string, unknown>) =>
      typeof attributes.icon === 'string' ? { 'data-icon': attributes.icon } : {},
  },
});

export const Todo = flatBlock('todo', 'pm-todo', {
  checked: {
    default: false,
    renderHTML: (attributes: Record<string, unknown>) => ({
      'data-checked': attributes.checked === true,
    }),
  },
}).extend({
  addInputRules() {
    return [
      textblockTypeInputRule({
        find: /^\[( |x|X)?\]\s$/,
        type: this.type,
        getAttributes: (match) => ({ checked: /x/i.test(match[1] ?? '') }),
      }),
    ];
  },
  addNodeView() {
    // A real checkbox beside the text, so it can be clicked and read by a screen reader.
    return ({ node, getPos, editor }) => {
      const dom = document.createElement('div');
      dom.className = 'pm-todo';
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.contentEditable = 'false';
      box.setAttribute('aria-label', 'Done');
      box.className = 'pm-todo-box';
      const text = document.createElement('div');
      text.className = 'pm-todo-text';
      dom.append(box, text);
      const paint = (current: typeof node) => {
        box.checked = current.attrs.checked === true;
        const indent = Number(current.attrs.indent) || 0;
        dom.style.marginLeft = indent === 0 ? '' : `${indent * 1.5}rem`;
        dom.dataset.checked = String(box.checked);
      };
      paint(node);
      box.addEventListener('change', () => {
        const pos = getPos();
        if (typeof pos !== 'number' || !editor.isEditable) return;
        editor.view.dispatch(editor.state.tr.setNodeAttribute(pos, 'checked', box.checked));
      });
      return {
        dom,
        contentDOM: text,
        update: (updated) => {
          if (updated.type.name !== 'todo') return false;
          paint(updated);
          return true;
        },
        ignoreMutation: (mutation) => mutation.target === box || mutation.target === dom,
      };
    };
  },
});

/** An image block: a file of the workspace, shown from the files API, with its caption kept. */
export const ImageBlock = Node.create<{ src: (fileId: string) => string }>({
  name: 'image',
  group: 'block',
  atom: true,
  addOptions: () => ({ src: (fileId: string) => fileId }),
  addAttributes: () => ({ fileId: { default: null }, caption: { default: null } }),
  parseHTML: () => [{ tag: 'figure[data-file-id]' }],
  renderHTML({ node }) {
    const fileId = String(node.attrs.fileId);
    const caption = Array.isArray(node.attrs.caption)
      ? node.attrs.caption.map((inline: { text?: string }) => inline.text ?? '').join('')
      : '';
    return [
      'figure',
      { 'data-file-id': fileId, class: 'pm-image' },
      ['img', { src: this.options.src(fileId), alt: caption }],
      ['figcaption', {}, caption],
    ];
  },
});

/** Indent for the blocks that take one, and a client id kept on every block. */
export const BlockAttributes = Extension.create({
  name: 'blockAttributes',
  addGlobalAttributes: () => [
    { types: ['paragraph'], attributes: { indent: indentAttribute } },
    {
      types: [
        'paragraph',
        'heading',
        'bulletedList',
        'numberedList',
        'todo',
        'quote',
        'callout',
        'codeBlock',
        'horizontalRule',
        'image',
      ],
      attributes: { blockId: { default: null, rendered: false, keepOnSplit: false } },
    },
  ],
});

export { MAX_INDENT };
