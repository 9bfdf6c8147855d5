import { writeFileSync } from 'node:fs';
import { renderGalleryIndex } from '../tests/model/browser/gallery';
import { browserModels } from '../tests/model/browser/models';
import { galleryFolder } from '../tests/model/browser/runner';

// The screenshots are taken by the browser model tests run with GALLERY set; this writes their index.
writeFileSync(`${galleryFolder}/index.md`, renderGalleryIndex(browserModels));
console.log(`wrote ${galleryFolder}/index.md`);
