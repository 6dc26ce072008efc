/** The spec's pet titles (docs/spec-rules.md §9), for a whole-number score. */
export function petTitle(score: number): string {
  if (score >= 9) return 'Absolutely Adorable!';
  if (score >= 8) return 'Super Cute!';
  if (score >= 7) return 'Very Sweet!';
  if (score >= 6) return 'Quite Charming!';
  return 'Uniquely Lovable!';
}

/** The results line: 'Your pet scored N/10 on our AI cuteness analysis.' */
export function petScoreSentence(score: number): string {
  return `Your pet scored ${score}/10 on our AI cuteness analysis.`;
}
