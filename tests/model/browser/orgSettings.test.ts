import { orgSettingsBrowserModel } from './models/orgSettings';
import { runInBrowser } from './runner';

runInBrowser(orgSettingsBrowserModel);
