import { StarterKit } from '@tiptap/starter-kit';
import { isLinkHref } from './document.js';
import { BlockKeys } from './keys.js';
import {
  BlockAttributes,
  BulletedList,
  Callout,
  ImageBlock,
  NumberedList,
  Quote,
  Todo,
} from './nodes.js';

/**
 * The editor's schema: exactly the API's block types, its five marks and
 * links it accepts (http, https, mailto), so the editor cannot produce a
 * document the API refuses. Nested lists and blockquotes of StarterKit are
 * left out: the API's lists are flat blocks with an indent.
 */
export function blockExtensions(imageSrc: (fileId: string) => string) {
  return [
    StarterKit.configure({
      blockquote: false,
      bulletList: false,
      orderedList: false,
      listItem: false,
      listKeymap: false,
      heading: { levels: [1, 2, 3] },
      link: {
        openOnClick: false,
        autolink: true,
        defaultProtocol: 'https',
        isAllowedUri: (url) => isLinkHref(url),
        shouldAutoLink: (url) => isLinkHref(url) || isLinkHref(`https://${url}`),
      },
    }),
    BlockAttributes,
    BulletedList,
    NumberedList,
    Todo,
    Quote,
    Callout,
    ImageBlock.configure({ src: imageSrc }),
    BlockKeys,
  ];
}
