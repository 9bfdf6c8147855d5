import { botEditorBrowserModel } from './models/botEditor';
import { runInBrowser } from './runner';

runInBrowser(botEditorBrowserModel);
