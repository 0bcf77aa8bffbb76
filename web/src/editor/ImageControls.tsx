import { type RefObject, useRef } from 'react';
import { IMAGE_ACCEPT } from './image-files.js';

const BUTTON =
  'rounded px-2 py-0.5 text-xs text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:focus-visible:outline-blue-400';

interface ImageControlsProps {
  buttonRef: RefObject<HTMLButtonElement | null>;
  uploading: boolean;
  error: string | undefined;
  onChoose: (files: File[]) => void;
  onDismiss: () => void;
}

/** Above the body: "Insert image" (the file picker), the upload under way, and a refusal in words. */
export function ImageControls({
  buttonRef,
  uploading,
  error,
  onChoose,
  onDismiss,
}: ImageControlsProps) {
  const picker = useRef<HTMLInputElement>(null);
  return (
    <div className="flex flex-col gap-1 border-b border-zinc-200 px-2 py-1 dark:border-zinc-800">
      <div className="flex items-center gap-2">
        <button
          ref={buttonRef}
          type="button"
          className={BUTTON}
          onClick={() => picker.current?.click()}
        >
          Insert image
        </button>
        <input
          ref={picker}
          type="file"
          accept={IMAGE_ACCEPT}
          multiple
          hidden
          onChange={(event) => {
            const chosen = Array.from(event.target.files ?? []);
            event.target.value = '';
            if (chosen.length > 0) onChoose(chosen);
          }}
        />
        {/* Always present, so a screen reader hears when the upload starts. */}
        <p role="status" className="text-xs text-zinc-600 dark:text-zinc-400">
          {uploading ? 'Uploading image…' : ''}
        </p>
      </div>
      {error === undefined ? null : (
        <div className="flex items-start gap-2">
          <p role="alert" className="flex-1 text-xs text-red-700 dark:text-red-300">
            {error}
          </p>
          <button type="button" className={BUTTON} onClick={onDismiss}>
            Dismiss
          </button>
        </div>
      )}
    </div>
  );
}
