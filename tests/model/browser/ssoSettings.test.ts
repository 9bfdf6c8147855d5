import { ssoSettingsBrowserModel } from './models/ssoSettings';
import { runInBrowser } from './runner';

runInBrowser(ssoSettingsBrowserModel);
