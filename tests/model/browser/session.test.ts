import { sessionBrowserModel } from './models/session';
import { runInBrowser } from './runner';

runInBrowser(sessionBrowserModel);
