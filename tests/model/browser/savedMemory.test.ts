import { afterAll } from 'vitest';
import { startOpenAiDouble } from '../../support/openai-double';
import { savedMemoryBrowserModel } from './models/savedMemory';
import { runInBrowser } from './runner';

// The Assistant's reply that calls `remember` comes from the OpenAI double.
const double = await startOpenAiDouble();
afterAll(() => double.close());

runInBrowser(savedMemoryBrowserModel({ double }));
