/**
 * The edit history of one photo (docs/spec-rules.md §4: each edit
 * appends and cuts off any redo branch; undo and redo move within it). A pure
 * reducer, so the rules are tested without a screen.
 */
export type HistoryEntry = {
  /** The image at this step: the original (a data: or /media URL) or an edit result. */
  imageUrl: string;
  /** The prompt that made this step (none for the original and for slider adjustments). */
  prompt?: string;
  /** What the step was, for the screen ('Original', 'Enhance', 'Adjustments'…). */
  label: string;
};

export type EditHistory = {
  entries: HistoryEntry[];
  /** The entry shown now. */
  index: number;
};

export type HistoryAction =
  | { type: 'reset'; imageUrl: string; label?: string }
  | { type: 'append'; entry: HistoryEntry }
  | { type: 'undo' }
  | { type: 'redo' };

export function startHistory(imageUrl: string, label = 'Original'): EditHistory {
  return { entries: [{ imageUrl, label }], index: 0 };
}

export function historyReducer(state: EditHistory, action: HistoryAction): EditHistory {
  switch (action.type) {
    case 'reset':
      return startHistory(action.imageUrl, action.label);
    case 'append': {
      // A new edit after some undos drops the steps that could have been redone.
      const entries = [...state.entries.slice(0, state.index + 1), action.entry];
      return { entries, index: entries.length - 1 };
    }
    case 'undo':
      return canUndo(state) ? { ...state, index: state.index - 1 } : state;
    case 'redo':
      return canRedo(state) ? { ...state, index: state.index + 1 } : state;
  }
}

export function canUndo(state: EditHistory): boolean {
  return state.index > 0;
}

export function canRedo(state: EditHistory): boolean {
  return state.index < state.entries.length - 1;
}

export function currentEntry(state: EditHistory): HistoryEntry {
  return state.entries[state.index]!;
}

export function originalEntry(state: EditHistory): HistoryEntry {
  return state.entries[0]!;
}

/** Whether the image shown is an edit (not the original). */
export function isEdited(state: EditHistory): boolean {
  return state.index > 0;
}

/** The most recent prompt at or before the current step (the dashboard's Redo runs it again). */
export function lastPrompt(state: EditHistory): string | undefined {
  for (let i = state.index; i >= 0; i -= 1) {
    const prompt = state.entries[i]!.prompt;
    if (prompt) return prompt;
  }
  // After undoing every edit, the prompt that was undone.
  return state.entries.slice(state.index + 1).find((entry) => entry.prompt)?.prompt;
}
