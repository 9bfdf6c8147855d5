import { describe, expect, it } from 'vitest';
import { modelTitle, shortTitle } from '../../server/chat/titles';

describe('titles worth reading', () => {
  it('takes the first line that says something, without Markdown heading or quote marks', () => {
    expect(shortTitle('\n\n  # Tides\nand more')).toBe('Tides');
    expect(shortTitle('> quoted   words\nnext')).toBe('quoted words');
    expect(shortTitle('```\nconst x = 1;\n```')).toBe('const x = 1;');
    expect(shortTitle('???')).toBe('???');
  });

  it('shortens at a word boundary to at most 60 characters, the ellipsis included', () => {
    const title = shortTitle(
      'I have been thinking about the tides and the moon all week long, and I wonder why',
    );
    expect(title).toBe('I have been thinking about the tides and the moon all week…');
    expect([...title].length).toBeLessThanOrEqual(60);
    // A cut right before a space keeps the whole last word; punctuation before the cut goes.
    expect(shortTitle(`${'a'.repeat(30)} ${'b'.repeat(28)}, and more`)).toBe(
      `${'a'.repeat(30)} ${'b'.repeat(28)}…`,
    );
    // One endless word is cut inside it; characters outside the BMP are never split.
    expect(shortTitle('x'.repeat(100))).toBe(`${'x'.repeat(59)}…`);
    expect(shortTitle('🌊'.repeat(70))).toBe(`${'🌊'.repeat(59)}…`);
  });

  it('reads a model’s answer as a title: no quotes, label or full stop', () => {
    expect(modelTitle('"Tides and the Moon."')).toBe('Tides and the Moon');
    expect(modelTitle('Title: **Baking bread**\n\nHope this helps')).toBe('Baking bread');
    expect(modelTitle('Wait...')).toBe('Wait...');
  });
});
