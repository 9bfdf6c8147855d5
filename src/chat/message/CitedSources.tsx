import type { CitedPassage } from '../../../machines/citations';
import type { Citation } from '../../../machines/messageTree';
import { Bdi } from '../../components/Bdi';
import { T } from '../../i18n/T';
import { useFormat } from '../../i18n/useFormat';
import { useT } from '../../i18n/useT';
import { webAddress } from './citationLinks';

/** Where a passage is: its file, and its page when the file has pages. */
export function useCitationPlace() {
  const t = useT();
  const format = useFormat();
  return (citation: CitedPassage) => (citation.page ? `, ${t('page')} ${format.number(citation.page)}` : '');
}

/** The sources a reply cites, listed under it: a passage opens on the page, a web page in a new tab. */
export function CitedSources({
  citations,
  onShow,
}: {
  citations: Citation[];
  onShow: (citation: Citation) => void;
}) {
  const place = useCitationPlace();
  return (
    <section className="cited-sources">
      <h3>
        <T>Sources</T>
      </h3>
      <ol>
        {citations.map((citation) => {
          const page = webAddress(citation.url);
          return (
            <li key={citation.n}>
              {citation.url !== undefined ? (
                page ? (
                  <a className="cited-source" href={page} target="_blank" rel="noopener noreferrer">
                    [{citation.n}] <Bdi text={citation.name} />
                  </a>
                ) : (
                  // Not a web page's address: named, never a link.
                  <span className="cited-source">
                    [{citation.n}] <Bdi text={citation.name} />
                  </span>
                )
              ) : (
                <button type="button" className="cited-source" onClick={() => onShow(citation)}>
                  [{citation.n}] <Bdi text={citation.name} />
                  {place(citation)}
                </button>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
