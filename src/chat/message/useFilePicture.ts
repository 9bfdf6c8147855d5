import { useEffect, useState } from 'react';
import { useWorkspace } from '../../app/useWorkspace';

/** An image file's thumbnail (or full picture) as a data: URL once loaded; `failed` when it could not be. */
export function useFilePicture(id: string, size: 'thumbnail' | 'full') {
  const { files } = useWorkspace();
  const [picture, setPicture] = useState<{ url: string | null; failed: boolean }>({
    url: null,
    failed: false,
  });
  useEffect(() => {
    let current = true;
    (size === 'thumbnail' ? files.thumbnail(id) : files.image(id)).then(
      (url) => current && setPicture({ url, failed: false }),
      () => current && setPicture({ url: null, failed: true }),
    );
    return () => {
      current = false;
    };
  }, [files, id, size]);
  return picture;
}
