import { sidePanelBrowserModel } from './models/sidePanel';
import { runInBrowser } from './runner';

runInBrowser(sidePanelBrowserModel);
