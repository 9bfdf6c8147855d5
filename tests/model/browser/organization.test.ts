import { organizationBrowserModel } from './models/organization';
import { runInBrowser } from './runner';

runInBrowser(organizationBrowserModel);
