import { type DragEvent, useRef, useState } from 'react';

const carriesFiles = (event: DragEvent) => [...event.dataTransfer.types].includes(`Files`);

/**
 * Files dragged onto an area: `over` while some hover it (for a visible drop target), and the files
 * once dropped. Anything else dragged (text, links) is left to the browser.
 */
export function useFileDrop(onFiles: (files: File[]) => void, enabled: boolean) {
  const [over, setOver] = useState(false);
  // dragenter and dragleave fire for every child crossed: counted, so the target does not flicker.
  const depth = useRef(0);
  const handlers = {
    onDragEnter: (event: DragEvent) => {
      if (!enabled || !carriesFiles(event)) return;
      event.preventDefault();
      depth.current += 1;
      setOver(true);
    },
    onDragOver: (event: DragEvent) => {
      if (!enabled || !carriesFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave: (event: DragEvent) => {
      if (!enabled || !carriesFiles(event)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setOver(false);
    },
    onDrop: (event: DragEvent) => {
      if (!enabled || !carriesFiles(event)) return;
      event.preventDefault();
      depth.current = 0;
      setOver(false);
      const files = [...event.dataTransfer.files];
      if (files.length) onFiles(files);
    },
  };
  return { over, handlers };
}
