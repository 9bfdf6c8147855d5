import { importerBrowserModel } from './models/importer';
import { runInBrowser } from './runner';

runInBrowser(importerBrowserModel);
