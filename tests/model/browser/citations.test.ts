import { citationsBrowserModel } from './models/citations';
import { runInBrowser } from './runner';

runInBrowser(citationsBrowserModel);
