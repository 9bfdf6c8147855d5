import { apiKeysBrowserModel } from './models/apiKeys';
import { runInBrowser } from './runner';

runInBrowser(apiKeysBrowserModel);
