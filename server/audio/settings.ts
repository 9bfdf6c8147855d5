import type { SpeechSettings } from '../../machines/orgSettings';
import { objectOf } from '../schemas';

export type { SpeechSettings };

export const noSpeech: SpeechSettings = {
  transcriptionModel: null,
  speechModel: null,
  voices: [],
  provider: null,
  transcriptionPrice: 0,
  speechPrice: 0,
};

const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
const amount = (value: unknown) => (typeof value === 'number' && value >= 0 ? value : 0);

/** The stored column (null: never configured) as settings, every field present. */
export function speechOf(stored: Record<string, unknown> | null): SpeechSettings {
  if (!stored) return noSpeech;
  return {
    transcriptionModel: text(stored.transcriptionModel),
    speechModel: text(stored.speechModel),
    voices: Array.isArray(stored.voices) ? stored.voices.filter((voice) => typeof voice === 'string') : [],
    provider: text(stored.provider),
    transcriptionPrice: amount(stored.transcriptionPrice),
    speechPrice: amount(stored.speechPrice),
  };
}

/** What a member's client needs: whether each half is on, and the voices (names only). */
export const memberVoice = (settings: SpeechSettings) => ({
  transcription: settings.transcriptionModel !== null,
  speech: settings.speechModel !== null,
  voices: settings.speechModel ? settings.voices : [],
});

const modelName = {
  type: ['string', 'null'],
  minLength: 1,
  maxLength: 200,
  pattern: '^\\S(.*\\S)?$',
} as const;
const price = { type: 'number', minimum: 0, maximum: 1000 } as const;

export const speechSchema = objectOf(
  {
    transcriptionModel: { type: ['string', 'null'] },
    speechModel: { type: ['string', 'null'] },
    voices: { type: 'array', items: { type: 'string' } },
    provider: { type: ['string', 'null'], description: 'an organization provider; null: the server’s own' },
    transcriptionPrice: { type: 'number', description: 'per minute of audio; 0: free' },
    speechPrice: { type: 'number', description: 'per minute of audio; 0: free' },
  },
  ['transcriptionModel', 'speechModel', 'voices', 'provider', 'transcriptionPrice', 'speechPrice'],
);

/** A change of the voice settings: the fields given replace those stored. */
export const speechChangeSchema = objectOf(
  {
    transcriptionModel: modelName,
    speechModel: modelName,
    voices: {
      type: 'array',
      maxItems: 20,
      uniqueItems: true,
      items: { type: 'string', minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' },
    },
    provider: { type: ['string', 'null'], minLength: 1, maxLength: 64 },
    transcriptionPrice: price,
    speechPrice: price,
  },
  [],
  1,
);

export const memberVoiceSchema = objectOf(
  {
    transcription: { type: 'boolean', description: 'members may dictate (a transcription model is set)' },
    speech: { type: 'boolean', description: 'replies are read aloud by the server (a speech model is set)' },
    voices: { type: 'array', items: { type: 'string' } },
  },
  ['transcription', 'speech', 'voices'],
);
