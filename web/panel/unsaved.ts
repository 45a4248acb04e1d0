/*
 * Edits not saved yet. A form with changes registers itself here; leaving its section (the navigation, Back, a
 * host's navigate message) asks first, and so does closing or reloading the page.
 */
import { useEffect } from 'preact/hooks';

const unsaved = new Set<symbol>();

/** Marks the calling form as holding unsaved edits while `dirty` is true. */
export function useUnsaved(dirty: boolean) {
  useEffect(() => {
    if (!dirty) return;
    const mark = Symbol('unsaved');
    unsaved.add(mark);
    return () => void unsaved.delete(mark);
  }, [dirty]);
}

export const hasUnsaved = () => unsaved.size > 0;

/** True when there is nothing unsaved, or the person agrees to drop it. */
export function mayLeave(question: string): boolean {
  if (!hasUnsaved()) return true;
  if (!window.confirm(question)) return false;
  unsaved.clear();
  return true;
}

/** The browser's own question before a reload or a closed tab drops unsaved edits. */
export function guardUnload() {
  window.addEventListener('beforeunload', (event) => {
    if (hasUnsaved()) event.preventDefault();
  });
}
