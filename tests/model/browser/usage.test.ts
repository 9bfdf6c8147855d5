import { usageBrowserModel } from './models/usage';
import { runInBrowser } from './runner';

runInBrowser(usageBrowserModel);
