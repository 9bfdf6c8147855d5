import { feedbackBrowserModel } from './models/feedback';
import { runInBrowser } from './runner';

runInBrowser(feedbackBrowserModel);
