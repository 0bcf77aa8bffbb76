import { Extension } from '@tiptap/react';
import { MAX_INDENT } from './document.js';

/** The list-like blocks: Enter continues them, Tab indents them. */
const LISTS = ['bulletedList', 'numberedList', 'todo'];
/** Blocks that a Backspace at their start turns back into a paragraph. */
const TURN_BACK = [...LISTS, 'quote', 'callout'];

/**
 * Keys of the flat blocks. Tab indents only inside a list item, so that
 * elsewhere Tab still leaves the editor (keyboard users are never trapped);
 * Escape leaves it too.
 */
export const BlockKeys = Extension.create({
  name: 'blockKeys',
  addKeyboardShortcuts() {
    const editor = this.editor;
    const current = () => editor.state.selection.$from.parent;
    const indentBy = (step: number) => {
      const node = current();
      if (!LISTS.includes(node.type.name)) return false;
      const level = Number(node.attrs.indent) || 0;
      const indent = Math.min(MAX_INDENT, Math.max(0, level + step));
      // At the end of the range Tab moves focus on, as anywhere else: never a trap.
      if (indent === level) return false;
      return editor.commands.updateAttributes(node.type.name, { indent });
    };
    return {
      Tab: () => indentBy(1),
      'Shift-Tab': () => indentBy(-1),
      Escape: () => {
        editor.commands.blur();
        return true;
      },
      Enter: () => {
        const node = current();
        if (!LISTS.includes(node.type.name)) return false;
        if (node.content.size === 0) return editor.commands.setNode('paragraph', { indent: 0 });
        const { $from, empty } = editor.state.selection;
        if (!empty) return false;
        const attrs = { ...node.attrs, checked: false, blockId: null };
        return editor.commands.command(({ tr }) => {
          tr.split($from.pos, 1, [{ type: node.type, attrs }]);
          return true;
        });
      },
      Backspace: () => {
        const { $from, empty } = editor.state.selection;
        const node = $from.parent;
        if (!empty || $from.parentOffset !== 0 || !TURN_BACK.includes(node.type.name)) return false;
        return editor.commands.setNode('paragraph', { indent: node.attrs.indent ?? 0 });
      },
      'Mod-Enter': () => {
        const node = current();
        if (node.type.name !== 'todo') return false;
        return editor.commands.updateAttributes('todo', { checked: node.attrs.checked !== true });
      },
    };
  },
});
