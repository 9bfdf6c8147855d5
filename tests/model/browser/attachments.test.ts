import { attachmentsBrowserModel } from './models/attachments';
import { runInBrowser } from './runner';

runInBrowser(attachmentsBrowserModel);
