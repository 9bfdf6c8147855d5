import { afterAll } from 'vitest';
import { startOpenAiDouble } from '../../support/openai-double';
import { conversationsBrowserModel } from './models/conversations';
import { runInBrowser } from './runner';

// A message sent in a new chat changes the list once: the Assistant's reply (from the double) is held.
const double = await startOpenAiDouble();
afterAll(() => double.close());

runInBrowser(conversationsBrowserModel({ double }));
