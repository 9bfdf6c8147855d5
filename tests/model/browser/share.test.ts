import { shareBrowserModel } from './models/share';
import { runInBrowser } from './runner';

runInBrowser(shareBrowserModel);
