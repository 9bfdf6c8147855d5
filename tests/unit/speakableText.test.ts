import { describe, expect, it } from 'vitest';
import { speakableText } from '../../src/chat/voice/speakableText';

describe('speakableText: a reply’s markdown as it is read aloud', () => {
  it('reads links by their text and drops the marks of emphasis and headings', () => {
    expect(
      speakableText(
        '# Title\n\nSee **the [guide](https://example.org/guide)** and _this_ <https://example.org/x>.',
      ),
    ).toBe('Title\nSee the guide and this https://example.org/x.');
  });

  it('does not read code blocks, fenced or indented; inline code is read as written', () => {
    expect(
      speakableText(
        'Run `npm start`:\n\n```sh\nnpm start\necho done\n```\n\n    indented code\n\nThat is all.',
      ),
    ).toBe('Run npm start:\nThat is all.');
  });

  it('reads list items, quotes and table rows as lines, images by their description', () => {
    expect(
      speakableText(
        '- one\n- two\n  1. nested\n\n> quoted &amp; said\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n![a cat](cat.png)\n\n---',
      ),
    ).toBe('one\ntwo\nnested\nquoted & said\na, b\n1, 2\na cat');
  });

  it('keeps HTML’s words only, and answers nothing for nothing', () => {
    expect(speakableText('<b>bold</b> word')).toBe('bold word');
    expect(speakableText('```\ncode only\n```')).toBe('');
    expect(speakableText('')).toBe('');
  });
});
