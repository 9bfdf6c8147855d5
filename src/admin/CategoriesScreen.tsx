import { useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useState } from 'react';
import { Loading } from '../components/Loading';
import { Status } from '../components/Status';
import { TextField } from '../components/TextField';
import { T } from '../i18n/T';
import { useT } from '../i18n/useT';
import { CategoryRow } from './CategoryRow';
import { ConfirmDialog } from './ConfirmDialog';
import { ListProblem } from './ListProblem';
import { useAdmin } from './useAdmin';

const notices = {
  create: 'Category created',
  update: 'Category renamed',
  remove: 'Category deleted',
} as const;

/** The bot categories: create one, rename one in place, delete one (its bots keep working). */
export function CategoriesScreen() {
  const { categories } = useAdmin();
  const t = useT();
  const [name, setName] = useState('');
  const [blank, setBlank] = useState(false);
  const items = useSelector(categories, (snapshot) => snapshot.context.items);
  const list = useSelector(categories, (snapshot) => snapshot.value.list);
  const change = useSelector(categories, (snapshot) => snapshot.value.change);
  const { editing, target, problem, error, done } = useSelector(categories, (snapshot) => snapshot.context);

  useEffect(() => {
    categories.send({ type: 'LOAD' });
  }, [categories]);
  // A created category leaves the field empty for the next one.
  useEffect(() => {
    if (done === 'create') setName('');
  }, [done]);

  const create = (event: FormEvent) => {
    event.preventDefault();
    setBlank(!name.trim());
    if (name.trim())
      categories.send({ type: 'SAVE', change: { kind: 'create', values: { name: name.trim() } } });
  };
  const createProblem = editing === 'new' ? (problem?.message ?? null) : null;

  return (
    <section aria-labelledby="admin-categories">
      <h1 id="admin-categories">
        <T>Categories</T>
      </h1>
      <form className="form compact inline-form" noValidate onSubmit={create}>
        <div className="field-row">
          <TextField
            label="New category"
            maxLength={80}
            value={name}
            error={blank ? 'Enter a name.' : (createProblem ?? undefined)}
            onChange={(event) => {
              setBlank(false);
              setName(event.target.value);
            }}
          />
          <button type="submit" className="button primary" disabled={change === 'saving'}>
            <T>Create</T>
          </button>
        </div>
      </form>
      {list === 'loading' && items.length === 0 && <Loading />}
      {list === 'failed' && <ListProblem error={error} onRetry={() => categories.send({ type: 'RETRY' })} />}
      {list === 'loaded' && items.length === 0 && (
        <p className="muted">
          <T>No categories yet.</T>
        </p>
      )}
      <ul className="row-list" aria-label={t('Categories')}>
        {items.map((category) => (
          <CategoryRow
            key={category._id}
            category={category}
            editing={editing === category._id && change !== 'idle'}
            saving={editing === category._id && change === 'saving'}
            problem={editing === category._id ? (problem?.message ?? null) : null}
          />
        ))}
      </ul>
      <Status message={done ? notices[done] : null} />
      {(change === 'confirming' || change === 'removing') && target && (
        <ConfirmDialog
          title="Delete this category?"
          message="Its bots stay in the catalogue, without this category."
          name={target.name}
          confirm="Delete"
          busy={change === 'removing'}
          error={problem?.message ?? null}
          onConfirm={() => categories.send({ type: 'CONFIRM' })}
          onCancel={() => categories.send({ type: 'CANCEL' })}
        />
      )}
    </section>
  );
}
