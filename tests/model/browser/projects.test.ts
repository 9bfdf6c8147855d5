import { projectsBrowserModel } from './models/projects';
import { runInBrowser } from './runner';

runInBrowser(projectsBrowserModel);
