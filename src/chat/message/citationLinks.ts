import type { Citation } from '../../../machines/messageTree';

/** A cited page's address when it is a web page (http or https), written as the browser would; else null. */
export function webAddress(url: string | undefined): string | null {
  if (!url || !URL.canParse(url)) return null;
  const parsed = new URL(url);
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
}

/**
 * A reply's `[n]` markers, for the numbers it cites, as markdown links to its sources: a passage's
 * opens it on the page, a web page's opens that page (the markdown's links open apart from the app).
 */
export function linkCitations(text: string, citations: Citation[]): string {
  const cited = new Map(citations.map((citation) => [citation.n, citation]));
  // A marker already part of a link or a reference (`[1](…)`, `[1]:`, `[1][x]`) stays as it is.
  return text.replace(/\[(\d+)\](?![(:[])/g, (marker, n: string) => {
    const citation = cited.get(Number(n));
    if (!citation) return marker;
    // A parsed address has no spaces, < or > left: it fits between the angle brackets.
    const page = citation.url === undefined ? null : webAddress(citation.url);
    if (citation.url !== undefined) return page ? `[\\[${n}\\]](<${page}>)` : marker;
    return `[\\[${n}\\]](#cite-${n})`;
  });
}
