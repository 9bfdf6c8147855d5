import type { StoredValues } from './storedValues';

/** The voice machines' settings, kept on this device (local storage) beside the colour scheme. */
export const voiceInputActions = (stored: StoredValues) => ({
  storeSendAtOnce: (_: unknown, { on }: { on: boolean }) => stored.sendVoiceAtOnce.set(on),
});

export const readAloudActions = (stored: StoredValues) => ({
  storeVoice: (_: unknown, { voice }: { voice: string | null }) =>
    voice === null ? stored.voice.clear() : stored.voice.set(voice),
});
