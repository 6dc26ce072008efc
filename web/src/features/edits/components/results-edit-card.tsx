import { ScanFaceIcon, SparklesIcon, WandSparklesIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import type { ResultEdits } from '../hooks/use-result-edits';
import { ANALYZE_HINT } from '../utils/edit-messages';
import { promptKind, resultPresets } from '../utils/presets';
import { PendingIcon, PromptTextarea } from './edit-controls';
import { EditsRemainingPill, OutOfEditsNotice } from './edits-remaining';

type ResultsEditCardProps = {
  edits: ResultEdits;
  /** Scores the edited image again (the results screen owns the score). */
  onAnalyze: () => void;
  analyzing: boolean;
};

/** Quick AI Enhancements and Custom AI Edit on the results screen. */
export function ResultsEditCard({ edits, onAnalyze, analyzing }: ResultsEditCardProps) {
  const headingId = useId();
  const promptId = useId();
  const [prompt, setPrompt] = useState('');
  const { allowance, busy, pending } = edits;
  const disabled = busy || allowance.out;

  function submitCustom() {
    edits.apply({ label: 'custom', prompt, kind: promptKind(prompt) }, () => setPrompt(''));
  }

  return (
    <section
      aria-labelledby={headingId}
      aria-busy={busy}
      className="@container rounded-3xl border bg-card p-5 shadow-sm sm:p-6"
      data-testid="ai-edit-card"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="flex items-center gap-2 text-lg font-bold">
          <SparklesIcon aria-hidden="true" className="size-5 text-brand-700" />
          Quick AI Enhancements
        </h2>
        <EditsRemainingPill allowance={allowance} />
      </div>
      <p className="mt-1 text-sm text-muted-foreground">One tap edits by our AI editor. The original stays as your “before”.</p>

      {allowance.out ? <OutOfEditsNotice className="mt-4" /> : null}

      {/* Columns by the card's own width: 'Blur Background' needs about 180 px, more than half a phone's card. */}
      <ul className="mt-4 grid grid-cols-1 gap-2 @sm:grid-cols-2 @xl:grid-cols-3">
        {resultPresets.map((preset) => (
          <li key={preset.label}>
            <Button
              variant={preset.label === 'Improve Score to 10' ? 'default' : 'outline'}
              className="w-full"
              disabled={disabled}
              onClick={() => edits.apply(preset)}
            >
              <PendingIcon pending={pending === preset.label}>
                <WandSparklesIcon aria-hidden="true" />
              </PendingIcon>
              {preset.label}
            </Button>
          </li>
        ))}
      </ul>

      <form
        className="mt-6 grid gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          submitCustom();
        }}
      >
        <h3 className="font-bold">Custom AI Edit</h3>
        <Label htmlFor={promptId} className="sr-only">
          Describe your edit
        </Label>
        <PromptTextarea
          id={promptId}
          value={prompt}
          onChange={(event) => setPrompt(event.target.value)}
          onSubmitPrompt={submitCustom}
          placeholder="Describe your edit, e.g. make it brighter and blur the background"
          rows={2}
          maxLength={500}
          disabled={allowance.out}
        />
        <Button type="submit" variant="secondary" disabled={disabled} className="justify-self-start">
          <PendingIcon pending={pending === 'custom'}><WandSparklesIcon aria-hidden="true" /></PendingIcon>
          {pending === 'custom' ? 'Editing...' : 'Apply Edit'}
        </Button>
      </form>

      {edits.edited ? (
        <div className="mt-6 flex flex-col gap-3 rounded-2xl bg-brand-50 p-4 sm:flex-row sm:items-center" data-testid="analyze-hint">
          <p className="flex-1 text-sm font-medium text-brand-700">
            {edits.needsAnalyze ? ANALYZE_HINT : 'Want to know what your edited photo scores?'}
          </p>
          <Button onClick={onAnalyze} disabled={analyzing || busy} aria-busy={analyzing}>
            <PendingIcon pending={analyzing}><ScanFaceIcon aria-hidden="true" /></PendingIcon>
            {analyzing ? 'Analyzing...' : 'Analyze'}
          </Button>
        </div>
      ) : null}
    </section>
  );
}
