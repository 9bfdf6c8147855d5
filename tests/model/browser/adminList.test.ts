import { adminListBrowserModel } from './models/adminList';
import { runInBrowser } from './runner';

runInBrowser(adminListBrowserModel);
