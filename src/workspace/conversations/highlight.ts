/** A text cut where its [start, end) ranges begin and end: the parts to mark, and those between. */
export function highlightSegments(
  text: string,
  ranges: [number, number][],
): { text: string; marked: boolean }[] {
  const segments: { text: string; marked: boolean }[] = [];
  let at = 0;
  for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
    if (start < at || end <= start) continue;
    if (start > at) segments.push({ text: text.slice(at, start), marked: false });
    segments.push({ text: text.slice(start, end), marked: true });
    at = end;
  }
  if (at < text.length) segments.push({ text: text.slice(at), marked: false });
  return segments;
}
