import { botsBrowserModel } from './models/bots';
import { runInBrowser } from './runner';

runInBrowser(botsBrowserModel);
