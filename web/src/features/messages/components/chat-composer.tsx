import { SendIcon } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { CHAT_MESSAGE_MAX, isSendKey } from '../utils/chat';

type ChatComposerProps = {
  value: string;
  error: string | null;
  closed: boolean;
  onChange: (value: string) => void;
  onSend: () => void;
};

/**
 * The message box: Enter sends, Shift+Enter is a new line; 1-5000 characters.
 * The box is emptied as soon as a message is taken (the list shows it as
 * "Sending…"), so the next one can be typed at once.
 */
export function ChatComposer({ value, error, closed, onChange, onSend }: ChatComposerProps) {
  const ids = { input: useId(), hint: useId() };
  const nearLimit = value.length > CHAT_MESSAGE_MAX - 500;
  return (
    <form
      className="grid gap-1.5 border-t p-3 sm:p-4"
      aria-label="Send a message"
      onSubmit={(event) => {
        event.preventDefault();
        onSend();
      }}
    >
      <Label htmlFor={ids.input} className="sr-only">
        Message
      </Label>
      <div className="flex items-end gap-2">
        <Textarea
          id={ids.input}
          rows={2}
          value={value}
          disabled={closed}
          placeholder={closed ? 'This conversation is closed' : 'Write a message'}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${ids.hint}${error ? ` ${ids.input}-error` : ''}`}
          className="max-h-40 min-h-11 flex-1 resize-none"
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={(event) => {
            if (isSendKey({ key: event.key, shiftKey: event.shiftKey, altKey: event.altKey, isComposing: event.nativeEvent.isComposing })) {
              event.preventDefault();
              onSend();
            }
          }}
        />
        <Button type="submit" size="icon" className="size-11 shrink-0 rounded-xl" disabled={closed || value.trim().length === 0} aria-label="Send message">
          <SendIcon aria-hidden="true" />
        </Button>
      </div>
      <div className="flex justify-between gap-3 text-xs text-muted-foreground">
        <span id={ids.hint}>Enter to send, Shift+Enter for a new line.</span>
        {nearLimit ? <span aria-live="polite">{`${value.length}/${CHAT_MESSAGE_MAX}`}</span> : null}
      </div>
      {error ? (
        <p id={`${ids.input}-error`} role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </form>
  );
}
