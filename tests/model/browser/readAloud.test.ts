import { afterAll } from 'vitest';
import { startOpenAiDouble } from '../../support/openai-double';
import { readAloudBrowserModel } from './models/voice';
import { runInBrowser } from './runner';

// The organization's speech is the OpenAI double's /audio/speech.
const double = await startOpenAiDouble();
afterAll(() => double.close());

runInBrowser(readAloudBrowserModel({ double }));
