import { themeBrowserModel } from './models/theme';
import { runInBrowser } from './runner';

runInBrowser(themeBrowserModel);
