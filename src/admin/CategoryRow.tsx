import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { CategoryRecord } from '../../machines/adminList';
import { TextField } from '../components/TextField';
import { T } from '../i18n/T';
import { useT } from '../i18n/useT';
import { useAdmin } from './useAdmin';
import { useFocusFirstProblem } from './useFocusFirstProblem';

interface CategoryRowProps {
  category: CategoryRecord;
  editing: boolean;
  saving: boolean;
  problem: string | null;
}

/** One category: its name, or the field renaming it in place; Escape cancels the rename. */
export function CategoryRow({ category, editing, saving, problem }: CategoryRowProps) {
  const { categories } = useAdmin();
  const t = useT();
  const [name, setName] = useState(category.name);
  const renameButton = useRef<HTMLButtonElement>(null);
  const field = useRef<HTMLDivElement>(null);
  const wasEditing = useRef(false);

  // Renaming starts with the stored name in the field, focused; it ends with focus back on Rename.
  useEffect(() => {
    if (editing) {
      setName(category.name);
      field.current?.querySelector('input')?.focus();
      // Focus lost with the form goes back to Rename; focus taken by another row's form stays there.
    } else if (wasEditing.current && document.activeElement === document.body) renameButton.current?.focus();
    wasEditing.current = editing;
  }, [editing, category.name]);

  // A save that failed leaves the keyboard in the form, on the field that says why (Escape still cancels).
  const form = useRef<HTMLFormElement>(null);
  const [attempt, setAttempt] = useState(0);
  useFocusFirstProblem(form, attempt, saving);

  const save = (event: FormEvent) => {
    event.preventDefault();
    setAttempt((count) => count + 1);
    if (name.trim())
      categories.send({
        type: 'SAVE',
        change: { kind: 'update', id: category._id, values: { name: name.trim() } },
      });
  };

  if (editing)
    return (
      <li className="row">
        <form
          ref={form}
          className="field-row"
          noValidate
          onSubmit={save}
          onKeyDown={(event) => {
            if (event.key === 'Escape') categories.send({ type: 'CANCEL' });
          }}
        >
          <div ref={field}>
            <TextField
              label="New name"
              maxLength={80}
              value={name}
              error={!name.trim() ? 'Enter a name.' : (problem ?? undefined)}
              onChange={(event) => setName(event.target.value)}
            />
          </div>
          <button type="submit" className="button small primary" disabled={saving || !name.trim()}>
            <T>Save</T>
          </button>
          <button type="button" className="button small" onClick={() => categories.send({ type: 'CANCEL' })}>
            <T>Cancel</T>
          </button>
        </form>
      </li>
    );
  return (
    <li className="row">
      <span className="row-name">
        <bdi>{category.name}</bdi>
      </span>
      <button
        ref={renameButton}
        type="button"
        className="button small"
        aria-label={`${t('Rename')} ${category.name}`}
        onClick={() => categories.send({ type: 'EDIT', id: category._id })}
      >
        <T>Rename</T>
      </button>
      <button
        type="button"
        className="button small danger"
        aria-label={`${t('Delete')} ${category.name}`}
        onClick={() => categories.send({ type: 'ASK_REMOVE', record: category })}
      >
        <T>Delete</T>
      </button>
    </li>
  );
}
