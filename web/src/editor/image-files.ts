/**
 * Which chosen, pasted or dropped files may become image blocks. The server
 * sniffs the bytes and shows only PNG, JPEG, GIF and WebP inline (an image
 * block citing anything else is refused), so the browser refuses the rest
 * before sending a byte.
 */

/** The image types the server shows inline (`src/content/files/sniff.ts`). */
export const IMAGE_TYPES: readonly string[] = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
];

/** The file picker's `accept`. */
export const IMAGE_ACCEPT = IMAGE_TYPES.join(',');

const IMAGE_NAME = /\.(png|jpe?g|gif|webp)$/i;

/** What is read of a file here (a `File` has both). */
export interface NamedFile {
  name: string;
  type: string;
}

/** An image by its type; by its name only when the browser gave no type. */
export function isImageFile(file: NamedFile): boolean {
  if (file.type !== '') return IMAGE_TYPES.includes(file.type.toLowerCase());
  return IMAGE_NAME.test(file.name);
}

/** The files split into images to upload and the others to refuse, each in the given order. */
export function sortImageFiles<T extends NamedFile>(
  files: readonly T[],
): { images: T[]; refused: T[] } {
  return {
    images: files.filter(isImageFile),
    refused: files.filter((file) => !isImageFile(file)),
  };
}

const quoted = (file: NamedFile) => `“${file.name === '' ? 'The file' : file.name}”`;

/** The refusal of files that are not images, in words; undefined when there are none. */
export function notImagesMessage(refused: readonly NamedFile[]): string | undefined {
  const [first, ...others] = refused;
  if (first === undefined) return undefined;
  const names =
    others.length === 0
      ? `${quoted(first)} is not an image`
      : `${[first, ...others].map(quoted).join(', ')} are not images`;
  return `${names}: only PNG, JPEG, GIF and WebP images can be inserted.`;
}

/** The refusal of an upload the server took but did not find to be an image by its bytes. */
export function notShownMessage(file: NamedFile): string {
  return `${quoted(file)} is not a PNG, JPEG, GIF or WebP image by its content, so it was not inserted.`;
}

/** An upload the server refused, or that did not reach it, in words. */
export function uploadFailedMessage(file: NamedFile, reason: string): string {
  return `${quoted(file)} was not inserted: ${reason.replace(/\.$/, '')}.`;
}

/** A size in words for a limit ("25 MB"). */
export function sizeInWords(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/** What a clipboard or a drop carries (a `DataTransfer` has it). */
export interface FileTransfer<T> {
  files?: ArrayLike<T> | null;
  items?: ArrayLike<{ kind: string; getAsFile(): T | null }> | null;
}

/** The files a paste or a drop carries: its file list, else the file items. */
export function filesOfTransfer<T>(transfer: FileTransfer<T> | null | undefined): T[] {
  if (transfer === null || transfer === undefined) return [];
  const files = Array.from(transfer.files ?? []);
  if (files.length > 0) return files;
  return Array.from(transfer.items ?? []).flatMap((item) => {
    if (item.kind !== 'file') return [];
    const file = item.getAsFile();
    return file === null ? [] : [file];
  });
}
