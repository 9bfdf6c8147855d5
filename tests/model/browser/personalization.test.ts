import { personalizationBrowserModel } from './models/personalization';
import { runInBrowser } from './runner';

runInBrowser(personalizationBrowserModel);
