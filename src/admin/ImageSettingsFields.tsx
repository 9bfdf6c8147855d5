import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import type { SettingsDraft } from '../../machines/orgSettings';
import { TextField } from '../components/TextField';
import { CheckboxField } from './fields/CheckboxField';
import { SelectField } from './fields/SelectField';
import { useAdmin } from './useAdmin';

/**
 * Image generation in the settings form: on or off, and where images are drawn (one of the
 * organization's providers, listed by the Providers screen's list, or the server's own), with which
 * model, at what price per image.
 */
export function ImageSettingsFields({
  draft,
  problemOf,
  change,
}: {
  draft: SettingsDraft;
  problemOf: (field: keyof SettingsDraft) => string | undefined;
  change: (values: Partial<SettingsDraft>) => void;
}) {
  const { providers } = useAdmin();
  const items = useSelector(providers, (snapshot) => snapshot.context.items);
  useEffect(() => {
    if (draft.images) providers.send({ type: 'LOAD' });
  }, [providers, draft.images]);
  return (
    <>
      <CheckboxField
        label="Image generation"
        role="switch"
        hint="Image bots and the generate_image tool draw images, charged per image. Off: neither draws."
        checked={draft.images}
        onChange={(event) => change({ images: event.target.checked })}
      />
      {draft.images && (
        <>
          <SelectField
            label="Image provider"
            value={draft.imageProvider}
            onChange={(event) => change({ imageProvider: event.target.value })}
            hint="It must answer OpenAI's /images/generations."
            options={[
              { value: '', label: "The server's own provider" },
              ...items.map((provider) => ({ value: provider._id, label: provider.name, raw: true })),
            ]}
          />
          <TextField
            label="Image model"
            name="imageModel"
            autoComplete="off"
            value={draft.imageModel}
            error={problemOf('imageModel')}
            onChange={(event) => change({ imageModel: event.target.value })}
          />
          <TextField
            label="Price per image"
            name="imagePrice"
            inputMode="decimal"
            value={draft.imagePrice}
            error={problemOf('imagePrice')}
            onChange={(event) => change({ imagePrice: event.target.value })}
          />
        </>
      )}
    </>
  );
}
