import { act, cleanup, fireEvent, render, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  highlighterModule,
  mathModule,
  preloadMarkdownExtras,
} from '../../../src/components/markdown/extras';
import { Markdown } from '../../../src/components/markdown/Markdown';

// The first test sees the lazy chunks before they arrive: this file shares no module state with others.
describe('Markdown: highlighted code, tables, task lists and math', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('fetches nothing for plain text, and shows code and TeX at once, richer once the chunks arrive', async () => {
    const loadHighlighter = vi.spyOn(highlighterModule, 'load');
    const loadMath = vi.spyOn(mathModule, 'load');
    const prose = render(<Markdown text={'It costs $5 and $10.'} streaming={false} />);
    expect(loadHighlighter).not.toHaveBeenCalled();
    expect(loadMath).not.toHaveBeenCalled();
    prose.unmount();

    const { container } = render(
      <Markdown text={'```js\nconst a = 1;\n```\n\nEnergy: $E = mc^2$'} streaming={false} />,
    );
    expect(loadHighlighter).toHaveBeenCalled();
    expect(loadMath).toHaveBeenCalled();
    expect(container.querySelector('pre code')?.textContent).toBe('const a = 1;');
    expect(container.querySelector('pre code span')).toBeNull();
    expect(container.querySelector('p code')?.textContent).toBe('$E = mc^2$');

    await act(() => preloadMarkdownExtras());
    expect(container.querySelector('pre code .hljs-keyword')?.textContent).toBe('const');
    expect(container.querySelector('pre code')?.textContent).toBe('const a = 1;');
    expect(container.querySelector('p math annotation')?.textContent).toBe('E = mc^2');
    expect(container.querySelector('p code')).toBeNull();
  });

  it('keeps the copy button on highlighted code: it copies the raw code', async () => {
    const copied: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: async (text: string) => void copied.push(text) },
      configurable: true,
    });
    const { container } = render(
      <Markdown text={'```python\ndef f(x):\n    return x\n```'} streaming={false} />,
    );
    expect(container.querySelectorAll('pre code [class^="hljs-"]').length).toBeGreaterThan(1);
    const button = within(container as HTMLElement).getByRole('button', { name: 'Copy code' });
    await act(async () => fireEvent.click(button));
    expect(copied).toEqual(['def f(x):\n    return x']);
    expect(button.textContent).toBe('✓ Copied');
  });

  it('guesses the language of short unlabeled code, and leaves prose and unknown languages plain', () => {
    const guessed = render(<Markdown text={'```\ndef f(x):\n    return x + 1\n```'} streaming={false} />);
    expect(guessed.container.querySelector('pre code .hljs-keyword')).not.toBeNull();
    const prose = render(<Markdown text={'```\nJust some words here.\n```'} streaming={false} />);
    expect(prose.container.querySelector('pre code span')).toBeNull();
    const unknown = render(<Markdown text={'```mermaid\ngraph TD; A-->B\n```'} streaming={false} />);
    expect(unknown.container.querySelector('pre code span')).toBeNull();
    expect(unknown.container.querySelector('pre code')?.textContent).toBe('graph TD; A-->B');
  });

  it('renders GFM tables inside a block that scrolls sideways', () => {
    const { container } = render(
      <Markdown text={'| Name | Score |\n|:-----|------:|\n| Ada  | 10    |'} streaming={false} />,
    );
    const table = within(container as HTMLElement).getByRole('table');
    expect(table.closest('.markdown-block')?.classList.contains('wide')).toBe(true);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Name', 'Score']);
    expect(within(table).getByRole('cell', { name: '10' }).getAttribute('align')).toBe('right');
  });

  it('renders task lists as read-only checkboxes whose state a screen reader reads', () => {
    const { container } = render(<Markdown text={'- [x] Write tests\n- [ ] Ship'} streaming={false} />);
    const boxes = within(container as HTMLElement).getAllByRole('checkbox') as HTMLInputElement[];
    expect(boxes.map((box) => [box.checked, box.disabled])).toEqual([
      [true, true],
      [false, true],
    ]);
    // The state is in the accessibility tree, so a screen reader says "checked" / "not checked".
    expect(within(container as HTMLElement).getByRole('checkbox', { checked: true })).toBe(boxes[0]);
  });

  it('renders inline and display math as MathML', () => {
    const { container } = render(
      <Markdown
        text={'Inline $a^2 + b^2$ and $$\\int_0^1 x\\,dx$$ here.\n\n$$\n\\frac{1}{2}\n$$'}
        streaming={false}
      />,
    );
    const [inline, inlineDisplay, block] = container.querySelectorAll('math');
    expect(inline.hasAttribute('display')).toBe(false);
    expect(inline.querySelector('msup')).not.toBeNull();
    expect(inlineDisplay.getAttribute('display')).toBe('block');
    expect(block.getAttribute('display')).toBe('block');
    expect(block.querySelector('mfrac')).not.toBeNull();
    expect(block.closest('.markdown-block')?.classList.contains('wide')).toBe(true);
  });

  it.each([
    ['prices', 'From $5 to $10 a month.'],
    ['a digit after the closing dollar', 'Pay $x$5 now.'],
    ['a space inside the dollars', 'Say $ x $ aloud.'],
    ['escaped dollars', 'Not \\$x\\$ math.'],
  ])('does not take %s for math', (_name, text) => {
    const { container } = render(<Markdown text={text} streaming={false} />);
    expect(container.querySelector('math, code')).toBeNull();
    expect(container.textContent).toContain('$');
  });

  it('shows TeX that does not parse as its source, in code', () => {
    const { container } = render(
      <Markdown text={'Broken $\\frac{1$ and\n\n$$\n\\begin{x}\n$$'} streaming={false} />,
    );
    expect(container.querySelector('math')).toBeNull();
    expect([...container.querySelectorAll('code')].map((code) => code.textContent)).toEqual([
      '$\\frac{1$',
      '$$\n\\begin{x}\n$$',
    ]);
  });

  it('streams math: an unclosed formula shows as text until its closing dollars arrive', () => {
    const { container, rerender } = render(<Markdown text={'Area: $\\pi r'} streaming />);
    expect(container.querySelector('math')).toBeNull();
    expect(container.textContent).toContain('$\\pi r');
    rerender(<Markdown text={'Area: $\\pi r^2$'} streaming />);
    expect(container.querySelector('math msup')).not.toBeNull();
  });
});
