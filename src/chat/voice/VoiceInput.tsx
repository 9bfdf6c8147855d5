import { useSelector } from '@xstate/react';
import { type Dispatch, lazy, type SetStateAction, Suspense } from 'react';
import type { MessageFile } from '../../../machines/messageTree';
import { useWorkspace } from '../../app/useWorkspace';

// The recorder's code (and its machine) loads only where the organization transcribes.
const MicrophoneButton = lazy(() => import('./MicrophoneButton'));

export interface VoiceInputProps {
  disabled: boolean;
  /** The transcript: into the message box, or sent at once (`send`, the member's setting). */
  onTranscript: (text: string, send: boolean) => void;
}

/**
 * The composer's microphone, shown only when the organization has a transcription model: the
 * transcript is added to the message box's text, or sent at once (alone; files wait in the box).
 */
export function VoiceInput({
  disabled,
  setText,
  onSend,
}: {
  disabled: boolean;
  setText: Dispatch<SetStateAction<string>>;
  onSend: (text: string, files: MessageFile[]) => void;
}) {
  const { organizationDetails } = useWorkspace();
  const on = useSelector(organizationDetails, (state) => state.context.data?.voice?.transcription === true);
  if (!on) return null;
  const onTranscript = (heard: string, send: boolean) =>
    send ? onSend(heard, []) : setText((before) => (before.trim() ? `${before.trimEnd()} ${heard}` : heard));
  return (
    <Suspense fallback={null}>
      <MicrophoneButton disabled={disabled} onTranscript={onTranscript} />
    </Suspense>
  );
}
