import { useState, type DragEvent } from 'react';

/**
 * Drag-and-drop of one file onto an element: whether a file is over it, and
 * the handlers to spread on it. Leaving for a child element is not leaving.
 */
export function useFileDrop(onFile: (file: File | undefined) => void) {
  const [dragging, setDragging] = useState(false);
  const handlers = {
    onDragEnter(event: DragEvent<HTMLElement>) {
      event.preventDefault();
      setDragging(true);
    },
    onDragOver(event: DragEvent<HTMLElement>) {
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave(event: DragEvent<HTMLElement>) {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
    },
    onDrop(event: DragEvent<HTMLElement>) {
      event.preventDefault();
      setDragging(false);
      onFile(event.dataTransfer.files[0]);
    },
  };
  return { dragging, handlers };
}
