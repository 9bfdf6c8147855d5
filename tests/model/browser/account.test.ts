import { accountBrowserModel } from './models/account';
import { runInBrowser } from './runner';

runInBrowser(accountBrowserModel);
