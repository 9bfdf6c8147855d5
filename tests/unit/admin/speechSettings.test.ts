import { describe, expect, it } from 'vitest';
import {
  draftOf,
  type OrganizationSettings,
  settingsProblems,
  settingsRequest,
} from '../../../machines/orgSettings';

const settings: OrganizationSettings = {
  name: 'Acme',
  brandColor: null,
  logo: null,
  defaultLanguage: 'en',
  currency: 'EUR',
  startingBalance: 5,
  signup: 'open',
  speech: {
    transcriptionModel: 'whisper-1',
    speechModel: 'tts-1',
    voices: ['alloy', 'nova'],
    provider: null,
    transcriptionPrice: 0.006,
    speechPrice: 0,
  },
};

describe('Settings → Voice in the admin form', () => {
  it('shows the stored settings and sends them back as the server takes them', () => {
    const draft = draftOf(settings);
    expect(draft).toMatchObject({
      transcriptionModel: 'whisper-1',
      speechModel: 'tts-1',
      voices: 'alloy, nova',
      speechProvider: '',
      transcriptionPrice: '0.006',
      speechPrice: '0',
    });
    expect(settingsProblems(draft)).toEqual([]);
    expect(
      settingsRequest({ ...draft, voices: 'nova alloy,nova', speechProvider: 'p1', speechModel: ' ' }).speech,
    ).toEqual({
      transcriptionModel: 'whisper-1',
      speechModel: null,
      voices: ['nova', 'alloy'],
      provider: 'p1',
      transcriptionPrice: 0.006,
      speechPrice: 0,
    });
    // Never configured: both halves off, free.
    expect(settingsRequest(draftOf({ ...settings, speech: undefined })).speech).toMatchObject({
      transcriptionModel: null,
      speechModel: null,
      voices: [],
    });
  });

  it('says what is wrong, at the field: prices, voice names, a speech model without a voice', () => {
    const draft = draftOf(settings);
    const problems = (change: Partial<typeof draft>) =>
      settingsProblems({ ...draft, ...change }).map((problem) => [problem.field, problem.message]);
    expect(problems({ transcriptionPrice: '-1', speechPrice: 'free' })).toEqual([
      ['transcriptionPrice', 'Enter an amount of 0 or more.'],
      ['speechPrice', 'Enter an amount of 0 or more.'],
    ]);
    expect(problems({ voices: 'alloy, n@va' })).toEqual([
      ['voices', 'Enter voice names as the provider spells them, such as alloy, nova.'],
    ]);
    expect(problems({ voices: '' })).toEqual([
      ['voices', 'Name at least one voice for the speech model, such as alloy.'],
    ]);
    expect(problems({ voices: '', speechModel: '' })).toEqual([]);
  });
});
