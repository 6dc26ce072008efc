import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useMyDecisions } from '@/resources/reports/reports';
import { DecisionCard } from './appeal-panel';

/** /account: decisions about the user's content or account, each appealable once. Shown only when there is one. */
export function MyDecisionsCard() {
  const decisions = useMyDecisions();
  if (!decisions.data || decisions.data.length === 0) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Decisions about your content</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {decisions.data.map((decision) => (
          <DecisionCard key={decision.id} decision={decision} />
        ))}
      </CardContent>
    </Card>
  );
}
