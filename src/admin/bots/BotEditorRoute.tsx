import { useState } from 'react';
import { BotEditorScreen } from './BotEditorScreen';

/**
 * `/admin/bots/new` and `/admin/bots/:id`. Another bot's address starts another editor; the address a
 * new bot gets once saved keeps the same one (its "Saved", its try-out chat).
 */
export function BotEditorRoute({ id }: { id: string }) {
  const [shown, setShown] = useState({ id, editor: 0 });
  if (shown.id !== id) setShown({ id, editor: shown.id === 'new' ? shown.editor : shown.editor + 1 });
  const botId = shown.id === 'new' ? null : shown.id;
  return <BotEditorScreen key={shown.editor} botId={botId} />;
}
