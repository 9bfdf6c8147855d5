import { useId } from 'react';
import { Icon } from '../../components/Icon';
import { T } from '../../i18n/T';

/**
 * The paperclip: a real file input (several files at once) behind its visible label, so the keyboard,
 * screen readers and the browser's own picker all work as usual.
 */
export function AttachButton({ disabled, onFiles }: { disabled: boolean; onFiles: (files: File[]) => void }) {
  const id = useId();
  return (
    <span className="attach">
      <input
        id={id}
        type="file"
        multiple
        className="visually-hidden"
        disabled={disabled}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          // The same file can be chosen again after it was removed.
          event.target.value = '';
          if (files.length) onFiles(files);
        }}
      />
      <label htmlFor={id} className="button attach-label" aria-disabled={disabled || undefined}>
        <Icon name="paperclip" />
        <span className="attach-text">
          <T>Attach files</T>
        </span>
      </label>
    </span>
  );
}
