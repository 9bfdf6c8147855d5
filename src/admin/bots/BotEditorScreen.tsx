import { useActorRef, useSelector } from '@xstate/react';
import { Link } from 'wouter';
import { Loading } from '../../components/Loading';
import { T } from '../../i18n/T';
import { ListProblem } from '../ListProblem';
import { useAdmin } from '../useAdmin';
import { BotForm } from './BotForm';
import { TryChat } from './TryChat';

/** `/admin/bots/new` and `/admin/bots/:id`: the bot's form, and beside it a chat to try it out. */
export function BotEditorScreen({ botId }: { botId: string | null }) {
  const { botEditor, inspect } = useAdmin();
  const editor = useActorRef(botEditor, { input: { botId }, inspect });
  const form = useSelector(editor, (snapshot) => snapshot.value.form);
  const loadError = useSelector(editor, (snapshot) => snapshot.context.loadError);
  const name = useSelector(editor, (snapshot) => snapshot.context.draft.name);

  return (
    <section aria-labelledby="bot-editor">
      <p>
        <Link href="/admin">
          <T>All bots</T>
        </Link>
      </p>
      <h1 id="bot-editor">{botId ? <bdi>{name}</bdi> : <T>New bot</T>}</h1>
      {form === 'loading' && <Loading />}
      {form === 'failed' && <ListProblem error={loadError} onRetry={() => editor.send({ type: 'RETRY' })} />}
      {form !== 'loading' && form !== 'failed' && (
        <div className="bot-editor">
          <BotForm editor={editor} />
          <TryChat editor={editor} />
        </div>
      )}
    </section>
  );
}
