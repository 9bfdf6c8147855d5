import { useSelector } from '@xstate/react';
import { type FormEvent, useState } from 'react';
import { useWorkspace } from '../../app/useWorkspace';
import { Dialog } from '../../components/Dialog';
import { TextField } from '../../components/TextField';
import { T } from '../../i18n/T';

/** Asks for a conversation's new title; an empty one is refused here, the server's refusal is shown. */
export function RenameDialog() {
  const { conversations } = useWorkspace();
  const target = useSelector(conversations, (snapshot) => snapshot.context.target);
  const problem = useSelector(conversations, (snapshot) => snapshot.context.editError);
  const saving = useSelector(conversations, (snapshot) => snapshot.matches({ edit: 'savingTitle' }));
  const [title, setTitle] = useState(target?.title ?? '');
  const [blank, setBlank] = useState(false);
  const cancel = () => conversations.send({ type: 'CANCEL' });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBlank(!title.trim());
    conversations.send({ type: 'RENAME', title });
  };

  return (
    <Dialog title="Rename conversation" role="dialog" onClose={cancel}>
      <form className="form compact" noValidate onSubmit={submit}>
        <TextField
          label="New title"
          value={title}
          maxLength={200}
          dir="auto"
          error={blank ? 'Enter a title.' : (problem ?? undefined)}
          onChange={(event) => setTitle(event.target.value)}
        />
        <div className="actions">
          <button type="button" className="button" onClick={cancel}>
            <T>Cancel</T>
          </button>
          <button type="submit" className="button primary" disabled={saving}>
            <T>Save</T>
          </button>
        </div>
      </form>
    </Dialog>
  );
}
