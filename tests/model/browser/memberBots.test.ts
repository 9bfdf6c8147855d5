import { memberBotsBrowserModel } from './models/memberBots';
import { runInBrowser } from './runner';

runInBrowser(memberBotsBrowserModel);
