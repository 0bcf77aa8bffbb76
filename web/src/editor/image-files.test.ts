import { describe, expect, it } from 'vitest';
import {
  filesOfTransfer,
  IMAGE_ACCEPT,
  isImageFile,
  notImagesMessage,
  notShownMessage,
  sizeInWords,
  sortImageFiles,
  uploadFailedMessage,
} from './image-files.js';

const file = (name: string, type: string) => ({ name, type });

describe('which files may become image blocks', () => {
  it('takes the four types the server shows inline, by their type', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'IMAGE/PNG']) {
      expect(isImageFile(file('picture', type))).toBe(true);
    }
    for (const type of [
      'image/svg+xml',
      'image/bmp',
      'image/heic',
      'text/plain',
      'application/pdf',
    ]) {
      expect(isImageFile(file('picture.png', type))).toBe(false);
    }
    expect(IMAGE_ACCEPT).toBe('image/png,image/jpeg,image/gif,image/webp');
  });

  it('reads the name only when the browser gave no type', () => {
    expect(isImageFile(file('photo.JPG', ''))).toBe(true);
    expect(isImageFile(file('photo.jpeg', ''))).toBe(true);
    expect(isImageFile(file('notes.txt', ''))).toBe(false);
    expect(isImageFile(file('png', ''))).toBe(false);
  });

  it('splits a mixed choice, each part in the order given', () => {
    const a = file('a.png', 'image/png');
    const b = file('b.txt', 'text/plain');
    const c = file('c.webp', 'image/webp');
    const d = file('d.pdf', 'application/pdf');
    expect(sortImageFiles([a, b, c, d])).toEqual({ images: [a, c], refused: [b, d] });
    expect(sortImageFiles([])).toEqual({ images: [], refused: [] });
  });
});

describe('refusals in words', () => {
  it('names the files that are not images', () => {
    expect(notImagesMessage([])).toBe(undefined);
    expect(notImagesMessage([file('notes.txt', 'text/plain')])).toBe(
      '“notes.txt” is not an image: only PNG, JPEG, GIF and WebP images can be inserted.',
    );
    expect(notImagesMessage([file('a.txt', ''), file('b.pdf', 'application/pdf')])).toBe(
      '“a.txt”, “b.pdf” are not images: only PNG, JPEG, GIF and WebP images can be inserted.',
    );
    expect(notImagesMessage([file('', 'text/plain')])).toMatch(/^“The file” is not an image/);
  });

  it('says why an upload was not inserted', () => {
    expect(notShownMessage(file('fake.png', 'image/png'))).toBe(
      '“fake.png” is not a PNG, JPEG, GIF or WebP image by its content, so it was not inserted.',
    );
    expect(
      uploadFailedMessage(file('big.png', 'image/png'), 'The server could not be reached'),
    ).toBe('“big.png” was not inserted: The server could not be reached.');
    expect(uploadFailedMessage(file('x.png', 'image/png'), 'Refused.')).toBe(
      '“x.png” was not inserted: Refused.',
    );
  });

  it('gives a size limit in megabytes', () => {
    expect(sizeInWords(25 * 1024 * 1024)).toBe('25 MB');
    expect(sizeInWords(1.5 * 1024 * 1024)).toBe('1.5 MB');
    expect(sizeInWords(2048)).toBe('2 KB');
    expect(sizeInWords(100)).toBe('100 bytes');
  });
});

describe('the files of a paste or a drop', () => {
  const png = file('a.png', 'image/png');
  const item = (kind: string, value: typeof png | null) => ({ kind, getAsFile: () => value });

  it('takes the file list when it has files', () => {
    expect(filesOfTransfer({ files: [png], items: [item('file', png)] })).toEqual([png]);
  });

  it('takes the file items otherwise, leaving text out', () => {
    const items = [item('string', null), item('file', png), item('file', null)];
    expect(filesOfTransfer({ files: [], items })).toEqual([png]);
  });

  it('finds none in text or in nothing', () => {
    expect(filesOfTransfer({ files: [], items: [item('string', null)] })).toEqual([]);
    expect(filesOfTransfer(null)).toEqual([]);
    expect(filesOfTransfer(undefined)).toEqual([]);
    expect(filesOfTransfer({})).toEqual([]);
  });
});
