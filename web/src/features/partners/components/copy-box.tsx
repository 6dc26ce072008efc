import { CheckIcon, CopyIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { copyText } from '@/lib/image';
import { COPY_FAILED_MESSAGE } from '@/lib/share';
import { toast } from '@/lib/toast';

type CopyBoxProps = {
  label: string;
  value: string;
  /** The toast once copied. */
  copiedMessage: string;
  /** The copy button's accessible name. */
  buttonLabel: string;
  testId?: string;
};

/** A read-only value with a Copy button. */
export function CopyBox({ label, value, copiedMessage, buttonLabel, testId }: CopyBoxProps) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await copyText(value);
      setCopied(true);
      toast.success(copiedMessage);
    } catch {
      toast.error(COPY_FAILED_MESSAGE);
    }
  };
  return (
    <div className="grid gap-1.5">
      <label htmlFor={id} className="text-sm font-semibold">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          readOnly
          value={value}
          data-testid={testId}
          onFocus={(event) => event.target.select()}
          className="h-11 min-w-0 flex-1 rounded-xl border bg-muted/50 px-3 font-mono text-sm"
        />
        <Button type="button" variant="outline" size="icon" className="size-11" aria-label={buttonLabel} onClick={() => void copy()}>
          {copied ? <CheckIcon aria-hidden="true" className="text-emerald-600" /> : <CopyIcon aria-hidden="true" />}
        </Button>
      </div>
    </div>
  );
}
