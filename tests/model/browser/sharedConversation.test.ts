import { sharedConversationBrowserModel } from './models/sharedConversation';
import { runInBrowser } from './runner';

runInBrowser(sharedConversationBrowserModel);
