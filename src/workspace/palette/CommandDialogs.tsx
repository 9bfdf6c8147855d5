import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useActors } from '../../app/ActorsContext';
import { paletteActorsOf } from '../../app/paletteActors';
import { useWorkspace } from '../../app/useWorkspace';
import { CommandPalette } from './CommandPalette';
import type { Asked } from './PaletteKeys';
import { ShortcutsDialog } from './ShortcutsDialog';
import './palette.css';

/** The palette and the shortcuts dialog, loaded on first use; each key press opens the one it asks for. */
export default function CommandDialogs({ asked }: { asked: Asked }) {
  const { palette, prompts } = paletteActorsOf(useWorkspace(), useActors().services.http);
  useEffect(() => {
    palette.send({ type: asked.command === 'palette' ? 'OPEN' : 'SHOW_SHORTCUTS' });
    // The prompts as they are now (another tab may have saved one): the first time, or again.
    if (asked.command === 'palette') for (const type of ['LOAD', 'RELOAD'] as const) prompts.send({ type });
  }, [asked, palette, prompts]);
  // Leaving the logged-in screens (logging out) closes them: the next user opens an empty palette.
  useEffect(() => () => palette.send({ type: 'CLOSE' }), [palette]);
  const shown = useSelector(palette, (snapshot) =>
    snapshot.matches('palette') ? 'palette' : snapshot.matches('shortcuts') ? 'shortcuts' : null,
  );
  if (shown === 'palette') return <CommandPalette palette={palette} prompts={prompts} />;
  if (shown === 'shortcuts') return <ShortcutsDialog onClose={() => palette.send({ type: 'CLOSE' })} />;
  return null;
}
