import { promptsBrowserModel } from './models/prompts';
import { runInBrowser } from './runner';

runInBrowser(promptsBrowserModel);
