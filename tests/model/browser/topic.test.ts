import { afterAll } from 'vitest';
import { startOpenAiDouble } from '../../support/openai-double';
import { startServer } from '../../support/server';
import { topicBrowserModel } from './models/topic';
import { runInBrowser } from './runner';

// The Assistant's replies come from the OpenAI double; an account without money lives on a second server.
const double = await startOpenAiDouble();
const broke = startServer({
  OPENAI_BASE_URL: double.url,
  STARTING_BALANCE: '0',
  RATE_LIMIT_OTP_PER_IP_PER_HOUR: '10000',
});
afterAll(async () => {
  await (await broke).stop();
  await double.close();
  await model.close();
});

const model = topicBrowserModel({ double, broke });
runInBrowser(model);
