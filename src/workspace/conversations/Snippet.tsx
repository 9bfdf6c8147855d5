import type { SearchSnippet } from '../../../machines/conversations';
import { textDir } from '../../i18n/bidi';
import { highlightSegments } from './highlight';

/** Where a search found its words, with each of them marked. */
export function Snippet({ snippet }: { snippet: SearchSnippet }) {
  return (
    <span className="conversation-preview" dir={textDir(snippet.text)}>
      {highlightSegments(snippet.text, snippet.highlights).map((segment, index) =>
        // The segments of one snippet never move: their order is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        segment.marked ? <mark key={index}>{segment.text}</mark> : segment.text,
      )}
    </span>
  );
}
