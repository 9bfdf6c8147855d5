import { membersBrowserModel } from './models/members';
import { runInBrowser } from './runner';

runInBrowser(membersBrowserModel);
