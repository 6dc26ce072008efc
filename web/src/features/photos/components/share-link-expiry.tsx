import { useId } from 'react';
import { cn } from '@/lib/utils';
import type { ShareExpiry } from '@/resources/photos/photos';
import { shareExpiryChoices, shareLinkLifetime } from '../utils/photo-display';

type ShareExpiryChoiceProps = {
  value: ShareExpiry;
  onChange: (value: ShareExpiry) => void;
  disabled?: boolean;
};

/**
 * How long a new public link works: until it is turned off, 24 hours or 7
 * days. My Photos' share dialog and the results screen (whose Save makes the
 * link) both ask with this.
 */
export function ShareExpiryChoice({ value, onChange, disabled = false }: ShareExpiryChoiceProps) {
  const legendId = useId();
  const name = useId();
  return (
    <fieldset className="grid gap-2" aria-labelledby={legendId} disabled={disabled}>
      <legend id={legendId} className="text-sm font-semibold">
        The public link works
      </legend>
      <div className="grid grid-cols-3 gap-2">
        {shareExpiryChoices.map((choice) => (
          <label
            key={choice.value}
            className="flex cursor-pointer items-center justify-center rounded-xl border px-2 py-2 text-center text-sm font-medium has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:checked]:text-brand-700 has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-60 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring"
          >
            <input
              type="radio"
              name={name}
              value={choice.value}
              checked={value === choice.value}
              onChange={() => onChange(choice.value)}
              className="sr-only"
            />
            {choice.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** What a working link's lifetime is, in words ("until you turn it off" or its end). */
export function ShareLinkLifetime({ expiresAt, className }: { expiresAt: string | null; className?: string }) {
  return (
    <p className={cn('text-sm text-muted-foreground', className)} data-testid="share-link-lifetime">
      {shareLinkLifetime(expiresAt)}
    </p>
  );
}
