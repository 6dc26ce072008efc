import { BrainIcon, SparklesIcon } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { formatDate } from '@/resources/billing/billing';
import { usePersonalityResults, type PersonalityResult } from '@/resources/personality/personality';
import { DETAILED_PRICE, saveAnswers } from '../utils/quiz-state';
import { PersonalityResultView } from './personality-result';

const sameAnswers = (a: PersonalityResult, b: PersonalityResult) => JSON.stringify(a.answers) === JSON.stringify(b.answers);

/**
 * The user's personality results, newest first (the user dashboard's tab).
 * A basic result without its detailed analysis offers one: the answers go to
 * this tab's session storage and /personality-test shows that result with
 * the offer.
 */
export function PersonalityHistory() {
  const results = usePersonalityResults();
  const navigate = useNavigate();
  if (results.isPending) return <p role="status">Loading your results...</p>;
  if (results.isError) {
    return (
      <p role="alert" className="text-destructive">
        Failed to load your personality results
      </p>
    );
  }
  if (results.data.length === 0) {
    return (
      <div className="grid justify-items-center gap-3 rounded-3xl border border-dashed py-12 text-center">
        <BrainIcon aria-hidden="true" className="size-8 text-primary" />
        <p className="font-semibold">No personality results yet</p>
        <Button asChild>
          <Link to={paths.personalityTest.path}>Take the Personality Test</Link>
        </Button>
      </div>
    );
  }
  const getDetailed = (result: PersonalityResult) => {
    saveAnswers(result.answers);
    void navigate(paths.personalityTest.path);
  };
  return (
    <ul className="grid gap-3" aria-label="Your personality results">
      {results.data.map((result) => {
        const bought = result.paid || results.data.some((other) => other.paid && sameAnswers(other, result));
        return (
          <li key={result.id} className="rounded-2xl border bg-card p-4 shadow-sm" data-testid="personality-history-item">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <div>
                <p className="text-lg font-bold">{result.personalityType}</p>
                <p className="text-sm text-muted-foreground">
                  Score {result.score}/100 · {formatDate(result.createdAt)}
                </p>
              </div>
              {result.paid ? <Badge>Detailed analysis</Badge> : <Badge className="border-border bg-muted text-muted-foreground">Basic</Badge>}
            </div>
            <details className="mt-3">
              <summary className="cursor-pointer text-sm font-semibold text-brand-700">Show the analysis</summary>
              <div className="mt-3">
                <PersonalityResultView result={result} />
              </div>
            </details>
            {!bought ? (
              <Button size="sm" className="mt-3" onClick={() => getDetailed(result)}>
                <SparklesIcon aria-hidden="true" />
                Get Detailed Analysis ({DETAILED_PRICE})
              </Button>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
