import type { Citation } from '../../../machines/messageTree';

/** A reply's `[n]` markers, for the numbers it cites, as markdown links to its sources. */
export function linkCitations(text: string, citations: Citation[]): string {
  const cited = new Set(citations.map((citation) => citation.n));
  // A marker already part of a link or a reference (`[1](…)`, `[1]:`, `[1][x]`) stays as it is.
  return text.replace(/\[(\d+)\](?![(:[])/g, (marker, n: string) =>
    cited.has(Number(n)) ? `[\\[${n}\\]](#cite-${n})` : marker,
  );
}
