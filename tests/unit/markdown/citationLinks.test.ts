import { describe, expect, it } from 'vitest';
import { linkCitations, webAddress } from '../../../src/chat/message/citationLinks';
import { sanitize } from '../../../src/components/markdown/sanitize';

describe('citation links', () => {
  const passage = { n: 1, fileId: 'f1', name: 'guide.pdf', snippet: 'tides' };
  const page = { n: 2, url: 'https://example.org/a b?q=<x>', name: 'A page', snippet: 'tides' };

  it('links a passage’s [n] to it on the page, a web page’s to the page itself', () => {
    expect(linkCitations('See [1] and [2], not [3].', [passage, page])).toBe(
      'See [\\[1\\]](#cite-1) and [\\[2\\]](<https://example.org/a%20b?q=%3Cx%3E>), not [3].',
    );
  });

  it('never links an address that is not http or https', () => {
    for (const url of ['javascript:alert(1)', 'data:text/html,<b>', 'file:///etc/passwd', 'not a url']) {
      expect(webAddress(url)).toBeNull();
      expect(linkCitations('[2]', [{ ...page, url }])).toBe('[2]');
    }
    expect(webAddress('HTTP://Example.org')).toBe('http://example.org/');
    // What the markdown makes of a page's marker: a link opening apart from the app.
    expect(sanitize('<a href="https://example.org/">[2]</a>')).toBe(
      '<a href="https://example.org/" target="_blank" rel="noopener noreferrer nofollow">[2]</a>',
    );
  });
});
