import { act, fireEvent, render, screen } from '@testing-library/react';
import DOMPurify from 'dompurify';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { preloadMarkdownExtras } from '../../../src/components/markdown/extras';
import { Markdown } from '../../../src/components/markdown/Markdown';
import { assertSafe } from './assertSafe';
import { codePayloads, mathPayloads, xssPayloads } from './xssPayloads';

describe('Markdown: a bot reply as sanitized markdown', () => {
  afterEach(() => DOMPurify.removeHooks('beforeSanitizeElements'));

  it('renders headings, lists, emphasis and safe links that open apart from the app', () => {
    const { container } = render(
      <Markdown
        text={'# Title\n\n- one\n- **two**\n\n[Parley](https://example.org) and [mail](mailto:a@example.org)'}
        streaming={false}
      />,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Title' })).toBeTruthy();
    expect(container.querySelectorAll('li')).toHaveLength(2);
    expect(container.querySelector('strong')?.textContent).toBe('two');
    const link = screen.getByRole('link', { name: 'Parley' });
    expect(link.getAttribute('href')).toBe('https://example.org');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(screen.getByRole('link', { name: 'mail' }).getAttribute('href')).toBe('mailto:a@example.org');
  });

  it('shows code blocks with their language and a copy button that copies the code', async () => {
    const copied: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: async (text: string) => void copied.push(text) },
      configurable: true,
    });
    const { container } = render(<Markdown text={'```ts\nconst answer = 42;\n```'} streaming={false} />);
    expect(screen.getByText('ts')).toBeTruthy();
    expect(container.querySelector('pre code')?.textContent).toBe('const answer = 42;');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy code' })));
    expect(copied).toEqual(['const answer = 42;']);
    expect(screen.getByRole('button', { name: 'Copy code' }).textContent).toBe('✓ Copied');
  });

  it('translates its own words through the t it is given', () => {
    render(
      <Markdown
        text={'```\nx\n```'}
        streaming={false}
        t={(text) => (text === 'Copy code' ? 'Code kopieren' : text)}
      />,
    );
    expect(screen.getByRole('button', { name: 'Code kopieren' })).toBeTruthy();
  });

  it('renders an unfinished stream sensibly: an open fence shows as code', () => {
    const { container } = render(<Markdown text={'Here:\n\n```js\nconsole.log(1'} streaming />);
    expect(container.querySelector('pre code')?.textContent).toContain('console.log(1');
  });

  it('re-parses only the growing tail while streaming: finished paragraphs are not sanitized again', () => {
    let paragraphsSanitized = 0;
    DOMPurify.addHook('beforeSanitizeElements', (node) => {
      if (node.nodeName === 'P') paragraphsSanitized += 1;
    });
    const finished = Array.from({ length: 20 }, (_, index) => `Paragraph number ${index}.`).join('\n\n');
    let text = `${finished}\n\nThe tail`;
    const { rerender, container } = render(<Markdown text={text} streaming />);
    expect(container.querySelectorAll('p')).toHaveLength(21);
    paragraphsSanitized = 0;
    for (const token of [' grows', ' token', ' by', ' token.']) {
      text += token;
      rerender(<Markdown text={text} streaming />);
    }
    // One paragraph per token: the tail. A full re-render would sanitize 21 each time.
    expect(paragraphsSanitized).toBe(4);
    expect(container.querySelectorAll('p')[20].textContent).toBe('The tail grows token by token.');
  });

  describe('with the highlighter and KaTeX loaded', () => {
    beforeAll(() => preloadMarkdownExtras());

    it.each([...xssPayloads, ...mathPayloads, ...codePayloads].map((payload) => [payload]))(
      'neutralizes %s',
      (payload) => {
        const { container } = render(<Markdown text={`before\n\n${payload}\n\nafter`} streaming={false} />);
        assertSafe(container);
        expect(container.textContent).toContain('after');
      },
    );

    it('keeps the markup inside every code payload as visible text', () => {
      for (const payload of codePayloads) {
        const { container, unmount } = render(<Markdown text={payload} streaming={false} />);
        expect(container.querySelector('pre code')?.textContent).toContain('</code><script>');
        unmount();
      }
    });

    it('renders TeX that KaTeX does not trust as inert text, not as a link', () => {
      const { container } = render(
        <Markdown text={'$\\href{javascript:window.__pwned=1}{x}$'} streaming={false} />,
      );
      expect(container.querySelector('math')).not.toBeNull();
      expect(container.querySelector('[href]')).toBeNull();
    });
  });
});
