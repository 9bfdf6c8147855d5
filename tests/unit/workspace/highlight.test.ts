import { describe, expect, it } from 'vitest';
import { highlightSegments } from '../../../src/workspace/conversations/highlight';

describe('search snippet highlights', () => {
  it('cuts the text where the server says the matched words are', () => {
    expect(
      highlightSegments('…the family of ELIZA', [
        [5, 11],
        [15, 20],
      ]),
    ).toEqual([
      { text: '…the ', marked: false },
      { text: 'family', marked: true },
      { text: ' of ', marked: false },
      { text: 'ELIZA', marked: true },
    ]);
  });

  it('takes ranges in any order and ignores empty or overlapping ones', () => {
    expect(
      highlightSegments('abcdef', [
        [4, 6],
        [0, 2],
        [1, 3],
        [3, 3],
      ]),
    ).toEqual([
      { text: 'ab', marked: true },
      { text: 'cd', marked: false },
      { text: 'ef', marked: true },
    ]);
  });

  it('gives the text back whole when nothing is marked', () => {
    expect(highlightSegments('no match here', [])).toEqual([{ text: 'no match here', marked: false }]);
  });
});
