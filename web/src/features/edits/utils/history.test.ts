import { describe, expect, it } from 'vitest';
import {
  canRedo,
  canUndo,
  currentEntry,
  historyReducer,
  isEdited,
  lastPrompt,
  startHistory,
  type EditHistory,
  type HistoryAction,
} from './history';

const run = (state: EditHistory, ...actions: HistoryAction[]) => actions.reduce(historyReducer, state);
const append = (imageUrl: string, prompt?: string): HistoryAction => ({
  type: 'append',
  entry: { imageUrl, prompt, label: prompt ?? 'Adjustments' },
});

describe('the edit history', () => {
  it('starts at the original, with nothing to undo or redo', () => {
    const state = startHistory('data:original');
    expect(currentEntry(state)).toEqual({ imageUrl: 'data:original', label: 'Original' });
    expect(canUndo(state)).toBe(false);
    expect(canRedo(state)).toBe(false);
    expect(isEdited(state)).toBe(false);
  });

  it('appends an edit and moves to it', () => {
    const state = run(startHistory('o'), append('/media/a', 'Enhance'));
    expect(state.index).toBe(1);
    expect(currentEntry(state).imageUrl).toBe('/media/a');
    expect(isEdited(state)).toBe(true);
    expect(canUndo(state)).toBe(true);
  });

  it('undoes and redoes within its bounds', () => {
    const state = run(startHistory('o'), append('/a', 'one'), append('/b', 'two'));
    const undone = run(state, { type: 'undo' }, { type: 'undo' });
    expect(undone.index).toBe(0);
    // A third undo at the original changes nothing.
    expect(historyReducer(undone, { type: 'undo' })).toBe(undone);
    expect(canRedo(undone)).toBe(true);
    const redone = run(undone, { type: 'redo' }, { type: 'redo' });
    expect(currentEntry(redone).imageUrl).toBe('/b');
    expect(historyReducer(redone, { type: 'redo' })).toBe(redone);
  });

  it('cuts off the redo branch when an edit follows an undo', () => {
    const state = run(startHistory('o'), append('/a', 'one'), append('/b', 'two'), { type: 'undo' }, append('/c', 'three'));
    expect(state.entries.map((entry) => entry.imageUrl)).toEqual(['o', '/a', '/c']);
    expect(state.index).toBe(2);
    expect(canRedo(state)).toBe(false);
  });

  it('starts again from a new upload', () => {
    const state = run(startHistory('o'), append('/a', 'one'), { type: 'reset', imageUrl: 'data:new' });
    expect(state).toEqual(startHistory('data:new'));
  });

  it('knows the last prompt, skipping slider steps and after undoing everything', () => {
    const state = run(startHistory('o'), append('/a', 'blur the background'), append('/b'));
    expect(lastPrompt(state)).toBe('blur the background');
    expect(lastPrompt(run(state, { type: 'undo' }, { type: 'undo' }))).toBe('blur the background');
    expect(lastPrompt(startHistory('o'))).toBeUndefined();
  });
});
