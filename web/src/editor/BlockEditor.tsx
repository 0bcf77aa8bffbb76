import { EditorContent, type JSONContent, useEditor } from '@tiptap/react';
import { useEffect, useRef } from 'react';
import type { BlockDocument, EditorNode } from './document.js';
import { blockExtensions } from './extensions.js';
import { fromEditor } from './from-editor.js';
import { ImageControls } from './ImageControls.js';
import { filesOfTransfer } from './image-files.js';
import { toEditor } from './to-editor.js';
import { type ImageUploads, useImageUpload } from './useImageUpload.js';
import './editor.css';

/** TipTap's JSON as the mapping's node type (TipTap leaves `type` optional). */
function asNode(json: JSONContent): EditorNode {
  return {
    type: json.type ?? 'text',
    ...(json.attrs === undefined ? {} : { attrs: json.attrs }),
    ...(json.text === undefined ? {} : { text: json.text }),
    ...(json.marks === undefined
      ? {}
      : { marks: json.marks.map((mark) => ({ type: mark.type, attrs: mark.attrs })) }),
    ...(json.content === undefined ? {} : { content: json.content.map(asNode) }),
  };
}

interface BlockEditorProps {
  /** The document to open with; later changes of it replace the text only while it is not focused. */
  document: BlockDocument;
  onChange: (document: BlockDocument) => void;
  imageSrc: (fileId: string) => string;
  editable: boolean;
  label: string;
  /** Where inserted, pasted and dropped images are stored. */
  images: ImageUploads;
}

/** The card body: a TipTap editor that holds only what the API's block document can say. */
export function BlockEditor({
  document,
  onChange,
  imageSrc,
  editable,
  label,
  images,
}: BlockEditorProps) {
  const latest = useRef(onChange);
  latest.current = onChange;
  const shown = useRef(JSON.stringify(document));
  // The editor's paste and drop handlers are set once; they call the latest insertion.
  const insertFiles = useRef<(files: File[], at?: number) => void>(() => undefined);
  const insertButton = useRef<HTMLButtonElement>(null);
  const editor = useEditor({
    extensions: blockExtensions(imageSrc),
    content: toEditor(document),
    editable,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': label,
        class:
          'pm-body min-h-32 rounded-md px-3 py-2 text-sm leading-relaxed focus-visible:outline-2 focus-visible:outline-blue-600 dark:focus-visible:outline-blue-400',
      },
      // Files pasted or dropped in: images are uploaded and inserted, other files refused in words.
      handlePaste: (_view, event) => {
        const files = filesOfTransfer(event.clipboardData);
        if (files.length === 0) return false;
        insertFiles.current(files);
        return true;
      },
      handleDrop: (view, event, _slice, moved) => {
        const files = moved ? [] : filesOfTransfer(event.dataTransfer);
        if (files.length === 0) return false;
        event.preventDefault();
        insertFiles.current(
          files,
          view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos,
        );
        return true;
      },
    },
    onUpdate: ({ editor: current }) => {
      const next = fromEditor(asNode(current.getJSON()));
      const json = JSON.stringify(next);
      // The empty paragraph kept after a last image or divider changes nothing to save.
      if (json === shown.current) return;
      shown.current = json;
      latest.current(next);
    },
  });
  const upload = useImageUpload(editor, images, () => {
    const focused = window.document.activeElement;
    return focused === null || focused === window.document.body || focused === insertButton.current;
  });
  insertFiles.current = (files, at) => void upload.insertFiles(files, at);
  useEffect(() => editor?.setEditable(editable), [editor, editable]);
  // A change made elsewhere replaces the text, but never under the person's cursor.
  useEffect(() => {
    const next = JSON.stringify(document);
    if (editor === null || editor.isFocused || next === shown.current) return;
    shown.current = next;
    editor.commands.setContent(toEditor(document), { emitUpdate: false });
  }, [editor, document]);
  return (
    <>
      {editable ? (
        <ImageControls
          buttonRef={insertButton}
          uploading={upload.uploading}
          error={upload.error}
          onChoose={(files) => void upload.insertFiles(files)}
          onDismiss={upload.dismissError}
        />
      ) : null}
      <EditorContent editor={editor} />
    </>
  );
}
