import { useSelector } from '@xstate/react';
import { lazy, Suspense } from 'react';
import { useWorkspace } from '../../app/useWorkspace';

// The recorder's code (and its machine) loads only where the organization transcribes.
const MicrophoneButton = lazy(() => import('./MicrophoneButton'));

export interface VoiceInputProps {
  disabled: boolean;
  /** The transcript: into the message box, or sent at once (`send`, the member's setting). */
  onTranscript: (text: string, send: boolean) => void;
}

/** The composer's microphone, shown only when the organization has a transcription model. */
export function VoiceInput(props: VoiceInputProps) {
  const { organizationDetails } = useWorkspace();
  const on = useSelector(organizationDetails, (state) => state.context.data?.voice?.transcription === true);
  if (!on) return null;
  return (
    <Suspense fallback={null}>
      <MicrophoneButton {...props} />
    </Suspense>
  );
}
