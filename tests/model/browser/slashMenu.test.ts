import { slashMenuBrowserModel } from './models/slashMenu';
import { runInBrowser } from './runner';

runInBrowser(slashMenuBrowserModel);
