import { languageBrowserModel } from './models/language';
import { runInBrowser } from './runner';

runInBrowser(languageBrowserModel);
