import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderGalleryIndex } from '../tests/model/browser/gallery';
import { browserModels } from '../tests/model/browser/models';
import { galleryFolder } from '../tests/model/browser/runner';

// The screenshots are taken by the browser model tests run with GALLERY set; this writes their index,
// showing each picture once: a shot with the same pixels as an earlier one points to it.
const firstByHash = new Map<string, string>();
const firstOf = (file: string) => {
  const path = join(galleryFolder, file);
  if (!existsSync(path)) return undefined;
  const hash = createHash('sha256').update(readFileSync(path)).digest('hex');
  if (!firstByHash.has(hash)) firstByHash.set(hash, file);
  return firstByHash.get(hash);
};
writeFileSync(`${galleryFolder}/index.md`, renderGalleryIndex(browserModels, firstOf));
console.log(`wrote ${galleryFolder}/index.md (${firstByHash.size} distinct pictures)`);
