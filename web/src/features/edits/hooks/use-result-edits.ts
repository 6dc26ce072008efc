import { useState } from 'react';
import { toast } from '@/lib/toast';
import { useEditPhoto } from '@/resources/edits/edit-photo';
import { useEditAllowance } from '@/resources/edits/get-edits-quota';
import { editErrorMessage, refuseEdit, type EditKind } from '../utils/edit-errors';
import { ANALYZE_HINT, editSuccessMessage } from '../utils/edit-messages';

export type EditRequest = { label: string; prompt: string; kind: EditKind };

/** Where a result's edits stand when the screen opens (a result back from signing in keeps its edits). */
export type InitialEdits = { latest: string; needsAnalyze: boolean };

/**
 * The results screen's edit flow (docs/spec-rules.md §4): each edit
 * starts from the latest image (the edit if there is one, else the
 * original), the original stays as 'before', and the server's count of free
 * edits drives the message and the buttons.
 */
export function useResultEdits(original: string, initial?: InitialEdits) {
  const [current, setCurrent] = useState<string | null>(initial?.latest ?? null);
  const [pending, setPending] = useState<string | null>(null);
  const [needsAnalyze, setNeedsAnalyze] = useState(initial?.needsAnalyze ?? false);
  const allowance = useEditAllowance();
  const mutation = useEditPhoto();
  const busy = mutation.isPending;

  function apply({ label, prompt, kind }: EditRequest, onDone?: () => void) {
    if (refuseEdit({ busy, out: allowance.out, prompt })) return;
    setPending(label);
    mutation.mutate(
      { imageUrl: current ?? original, prompt: prompt.trim() },
      {
        onSuccess: (result) => {
          setCurrent(result.editedImageUrl);
          toast.success(editSuccessMessage(kind, result.editsRemaining), {
            description: kind === 'enhance' ? ANALYZE_HINT : undefined,
          });
          if (kind === 'enhance') setNeedsAnalyze(true);
          onDone?.();
        },
        onError: (error) => toast.error(editErrorMessage(error, kind)),
        onSettled: () => setPending(null),
      },
    );
  }

  return {
    original,
    /** The latest edit, or null before the first one. */
    edited: current,
    /** The image to save, share, analyse and edit next. */
    imageUrl: current ?? original,
    busy,
    /** The label of the edit running now. */
    pending,
    allowance,
    /** An enhancement happened since the score was last computed. */
    needsAnalyze,
    markAnalyzed: () => setNeedsAnalyze(false),
    apply,
  };
}

export type ResultEdits = ReturnType<typeof useResultEdits>;
