import { chatModelBrowserModel } from './models/chatModel';
import { runInBrowser } from './runner';

runInBrowser(chatModelBrowserModel);
