import { LoaderCircleIcon } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { Textarea } from '@/components/ui/textarea';

/**
 * Small pieces the three editors (/editor's workspace, the results screen's
 * card, My Photos' inline editor) draw alike.
 */

/** A button's icon, or the spinner while its edit (save, download…) runs. */
export function PendingIcon({ pending, children = null }: { pending: boolean; children?: ReactNode }) {
  return pending ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : <>{children}</>;
}

type PromptTextareaProps = Omit<ComponentProps<typeof Textarea>, 'onKeyDown'> & {
  /** Enter sends the instruction (Shift+Enter is a new line; an input method's Enter is its own). */
  onSubmitPrompt: () => void;
};

/** The custom instruction's box: Enter sends it, as a chat box does. */
export function PromptTextarea({ onSubmitPrompt, ...props }: PromptTextareaProps) {
  return (
    <Textarea
      {...props}
      onKeyDown={(event) => {
        if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
          event.preventDefault();
          onSubmitPrompt();
        }
      }}
    />
  );
}
