import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import type { PersonalityResult } from '@/resources/personality/personality';
import { analysisBlocks } from '../utils/quiz-state';

/**
 * A saved result: score, type, the traits and the analysis text. Also used for the dashboard's history.
 * A basic result carries its leading trait only; the detailed analysis has all five.
 */
export function PersonalityResultView({ result }: { result: PersonalityResult }) {
  const blocks = analysisBlocks(result.analysis);
  return (
    <Card data-testid="personality-result">
      <CardHeader className="items-center text-center">
        {result.paid ? <Badge>Detailed analysis</Badge> : null}
        <p className="text-sm font-medium uppercase tracking-wide text-muted-foreground">Your personality type</p>
        <CardTitle className="text-3xl font-extrabold sm:text-4xl" data-testid="personality-type">
          {result.personalityType}
        </CardTitle>
        <p className="text-lg">
          Score <strong data-testid="personality-score">{result.score}</strong>/100
        </p>
      </CardHeader>
      <CardContent className="grid gap-6">
        <ul className="grid gap-3" aria-label={result.paid ? 'Your traits' : 'Your leading trait'}>
          {result.traits.map((trait) => (
            <li key={trait.trait} className="grid gap-1">
              <div className="flex justify-between text-sm font-medium">
                <span>{trait.label}</span>
                <span>{trait.score}/100</span>
              </div>
              <Progress value={trait.score} aria-label={`${trait.label}: ${trait.score} out of 100`} />
            </li>
          ))}
        </ul>
        {result.paid ? null : (
          <p className="text-sm text-muted-foreground" data-testid="personality-traits-hint">
            Your leading trait. The detailed analysis shows all five, with what each means for you.
          </p>
        )}
        <div className="grid gap-4 text-sm leading-relaxed" data-testid="personality-analysis">
          {blocks.map((block, i) => (
            <section key={i} className="grid gap-1.5">
              {block.heading ? <h2 className="text-base font-semibold">{block.heading}</h2> : null}
              {block.paragraphs.map((paragraph) => (
                <p key={paragraph}>{paragraph}</p>
              ))}
              {block.items.length > 0 ? (
                <ul className="grid list-disc gap-1 pl-5">
                  {block.items.map((item) => (
                    <li key={item}>{item}</li>
                  ))}
                </ul>
              ) : null}
            </section>
          ))}
        </div>
      </CardContent>
    </Card>
  );
}
