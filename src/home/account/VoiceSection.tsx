import { useSelector } from '@xstate/react';
import { CheckboxField } from '../../admin/fields/CheckboxField';
import { SelectField } from '../../admin/fields/SelectField';
import { useActors } from '../../app/ActorsContext';
import { useWorkspace } from '../../app/useWorkspace';
import { voiceActorsOf } from '../../app/voiceActors';
import { T } from '../../i18n/T';

/**
 * Profile → Voice, kept on this device: "Send voice messages at once" (where the organization
 * transcribes) and the voice replies are read in (where it has a speech model). Shown only then.
 */
export default function VoiceSection() {
  const { services } = useActors();
  const workspace = useWorkspace();
  const voice = useSelector(workspace.organizationDetails, (state) => state.context.data?.voice);
  const { voiceInput, readAloud } = voiceActorsOf(workspace, services.http, services.env.storage);
  const sendAtOnce = useSelector(voiceInput, (snapshot) => snapshot.context.sendAtOnce);
  const chosen = useSelector(readAloud, (snapshot) => snapshot.context.voice);
  if (!voice?.transcription && !voice?.speech) return null;
  const voices = voice.voices;
  return (
    <fieldset className="panel-section">
      <legend>
        <T>Voice</T>
      </legend>
      {voice.transcription && (
        <CheckboxField
          label="Send voice messages at once"
          hint="Off: the transcript waits in the message box for you to check it."
          checked={sendAtOnce}
          onChange={(event) => voiceInput.send({ type: 'SET_SEND_AT_ONCE', on: event.target.checked })}
        />
      )}
      {voice.speech && voices.length > 0 && (
        <SelectField
          label="Voice for reading aloud"
          value={chosen && voices.includes(chosen) ? chosen : voices[0]}
          onChange={(event) => readAloud.send({ type: 'CHOOSE_VOICE', voice: event.target.value })}
          options={voices.map((name) => ({ value: name, label: name, raw: true }))}
        />
      )}
    </fieldset>
  );
}
