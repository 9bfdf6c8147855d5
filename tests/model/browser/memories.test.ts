import { memoriesBrowserModel } from './models/memories';
import { runInBrowser } from './runner';

runInBrowser(memoriesBrowserModel);
