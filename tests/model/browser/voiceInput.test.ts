import { afterAll } from 'vitest';
import { startOpenAiDouble } from '../../support/openai-double';
import { voiceInputBrowserModel } from './models/voice';
import { runInBrowser } from './runner';

// The recording is transcribed by the OpenAI double's /audio/transcriptions.
const double = await startOpenAiDouble();
afterAll(() => double.close());

runInBrowser(voiceInputBrowserModel({ double }));
