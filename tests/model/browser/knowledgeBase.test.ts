import { knowledgeBaseBrowserModel } from './models/knowledgeBase';
import { runInBrowser } from './runner';

runInBrowser(knowledgeBaseBrowserModel);
