import { afterEach, describe, expect, it } from 'vitest';
import { analysisBlocks, clearAnswers, isComplete, loadAnswers, progressOf, saveAnswers } from './quiz-state';

afterEach(() => window.sessionStorage.clear());

describe('the quiz state', () => {
  it('counts progress as (index + 1) / 20', () => {
    expect(progressOf(0)).toBe(5);
    expect(progressOf(9)).toBe(50);
    expect(progressOf(19)).toBe(100);
  });

  it('is complete only with all 20 answers', () => {
    const answers = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [String(i), 'a']));
    expect(isComplete(answers)).toBe(true);
    delete answers['7'];
    expect(isComplete(answers)).toBe(false);
  });

  it('keeps the answers in session storage and ignores anything else there', () => {
    saveAnswers({ '0': 'friends' });
    expect(loadAnswers()).toEqual({ '0': 'friends' });
    window.sessionStorage.setItem('prettyscore.personality.answers', '["x"]');
    expect(loadAnswers()).toBeNull();
    window.sessionStorage.setItem('prettyscore.personality.answers', '{not json');
    expect(loadAnswers()).toBeNull();
    clearAnswers();
    expect(loadAnswers()).toBeNull();
  });

  it('reads headings, paragraphs and list items out of an analysis', () => {
    const blocks = analysisBlocks('The Leader: You set the direction.\n\nYour strengths\n- Reliability\n- Empathy\n\nRoom to grow: calm (20/100)\nRest more.');
    expect(blocks).toEqual([
      { heading: undefined, paragraphs: ['The Leader: You set the direction.'], items: [] },
      { heading: 'Your strengths', paragraphs: [], items: ['Reliability', 'Empathy'] },
      { heading: 'Room to grow: calm (20/100)', paragraphs: ['Rest more.'], items: [] },
    ]);
  });
});
