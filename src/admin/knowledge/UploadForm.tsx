import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';
import { useFocusFirstProblem } from '../useFocusFirstProblem';

interface UploadFormProps {
  uploading: boolean;
  /** What the server said about the last upload (too large, a type it does not read…). */
  problem: string | null;
  /** An upload went through: the field is emptied for the next document. */
  uploaded: boolean;
  onUpload: (file: File) => void;
}

/** A document to add: a labelled file field, its problem next to it, and Upload. */
export function UploadForm({ uploading, problem, uploaded, onUpload }: UploadFormProps) {
  const t = useT();
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const [attempt, setAttempt] = useState(0);
  const [missing, setMissing] = useState(false);
  useFocusFirstProblem(formRef, attempt, uploading);

  useEffect(() => {
    if (uploaded && input.current) input.current.value = '';
  }, [uploaded]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAttempt((count) => count + 1);
    const file = input.current?.files?.[0];
    setMissing(!file);
    if (file) onUpload(file);
  };
  const error = missing ? 'Choose a document to upload.' : problem;
  const describedBy = [`${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ');

  return (
    <form ref={formRef} className="form compact upload-form" noValidate onSubmit={submit}>
      <div className="field">
        <label htmlFor={id}>{t('Document')}</label>
        <input
          ref={input}
          id={id}
          type="file"
          name="file"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={() => setMissing(false)}
        />
        <p id={`${id}-hint`} className="field-hint">
          <T>PDF, Word (DOCX), plain text, Markdown, CSV, JSON or source code.</T>
        </p>
        {error && (
          <p id={`${id}-error`} className="field-error">
            {t(error)}
          </p>
        )}
      </div>
      <div className="actions">
        <button type="submit" className="button primary" disabled={uploading}>
          {uploading ? t('Uploading…') : t('Upload')}
        </button>
      </div>
    </form>
  );
}
