/** The score screens' share texts (docs/spec-rules.md §7). */

/** The face result's share text: the score, its label, the site and the challenge tag. */
export function faceShareText(score: string, label: string, siteUrl: string): string {
  return `I just had my photo scored by AI! My PrettyScore: ${score}/10, "${label}". How does yours score? ${siteUrl} #AIPhotoChallenge`;
}

/** The pet result's share text. */
export function petShareText(score: number, title: string, siteUrl: string): string {
  return `My pet scored ${score}/10 on the PrettyScore cuteness test: "${title}" How cute is yours? ${siteUrl} #AIPhotoChallenge`;
}
