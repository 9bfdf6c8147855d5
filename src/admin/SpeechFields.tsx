import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import type { SettingsDraft } from '../../machines/orgSettings';
import { TextField } from '../components/TextField';
import { T } from '../i18n/T';
import { SelectField } from './fields/SelectField';
import { useAdmin } from './useAdmin';

type SpeechField = 'transcriptionModel' | 'speechModel' | 'voices' | 'transcriptionPrice' | 'speechPrice';

interface SpeechFieldsProps {
  draft: SettingsDraft;
  change: (values: Partial<SettingsDraft>) => void;
  problemOf: (field: keyof SettingsDraft) => string | undefined;
}

/**
 * Settings → Voice: where members' recordings are transcribed and replies read aloud (a provider of
 * the organization, or the server's own), the models (empty: off), the voices and the prices per minute.
 */
export function SpeechFields({ draft, change, problemOf }: SpeechFieldsProps) {
  const { providers } = useAdmin();
  const providerItems = useSelector(providers, (snapshot) => snapshot.context.items);
  useEffect(() => {
    providers.send({ type: 'LOAD' });
  }, [providers]);
  const text = (field: SpeechField) => ({
    name: field,
    value: draft[field],
    error: problemOf(field),
    onChange: (event: { target: { value: string } }) => change({ [field]: event.target.value }),
  });
  return (
    <fieldset>
      <legend>
        <T>Voice</T>
      </legend>
      <SelectField
        label="Voice provider"
        value={draft.speechProvider}
        onChange={(event) => change({ speechProvider: event.target.value })}
        options={[
          { value: '', label: 'The server’s own model server' },
          ...providerItems.map((item) => ({ value: item._id, label: item.name, raw: true })),
        ]}
      />
      <TextField
        label="Transcription model"
        hint="The provider’s speech-to-text model, such as whisper-1. Empty: no voice input."
        {...text('transcriptionModel')}
      />
      <TextField
        label="Transcription price per minute"
        inputMode="decimal"
        hint="0: free."
        {...text('transcriptionPrice')}
      />
      <TextField
        label="Speech model"
        hint="The provider’s text-to-speech model, such as tts-1. Empty: replies are read by the browser."
        {...text('speechModel')}
      />
      <TextField
        label="Voices"
        hint="The voices members may choose, separated by commas, such as alloy, nova. The first is the default."
        {...text('voices')}
      />
      <TextField
        label="Speech price per minute"
        inputMode="decimal"
        hint="0: free."
        {...text('speechPrice')}
      />
    </fieldset>
  );
}
