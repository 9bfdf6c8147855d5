import type { CitedPassage } from '../../../machines/citations';
import { Bdi } from '../../components/Bdi';
import { Dialog } from '../../components/Dialog';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';
import { useCitationPlace } from './CitedSources';

/** A cited passage: titled with its number, then its file and page, and what it says. Focus goes back on closing. */
export function CitationDialog({ citation, onClose }: { citation: CitedPassage; onClose: () => void }) {
  const t = useT();
  const place = useCitationPlace();
  return (
    <Dialog
      title={`${t('Source')} [${citation.n}]`}
      titleIsName
      role="dialog"
      className="citation-dialog"
      onClose={onClose}
    >
      <p className="citation-place">
        <Bdi text={citation.name} />
        {place(citation)}
      </p>
      <blockquote className="citation-passage" dir="auto">
        {citation.snippet}
      </blockquote>
      <div className="dialog-actions">
        <button type="button" className="button primary" onClick={onClose}>
          <T>Close</T>
        </button>
      </div>
    </Dialog>
  );
}
