import { zodResolver } from '@hookform/resolvers/zod';
import { ClockIcon, LoaderCircleIcon, LockIcon, MessageCircleIcon, SendIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { messagesPathFor } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { DISPLAY_NAME_MAX, displayNameField, displayNameOf } from '@/lib/display-name';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { z } from '@/lib/zod';
import { formatDate } from '@/resources/billing/billing';
import { useAppConfig } from '@/resources/app-config/get-app-config';
import { useEntryContact } from '@/resources/contact-requests/contact-requests';
import { useContactCheckout, type ContactTarget } from '../hooks/use-contact-checkout';
import {
  CONTACT_MESSAGE_MAX,
  characterCount,
  contactErrorMessage,
  contactMessageSchema,
  conversationRule,
  DEFAULT_REPLY_WINDOW_DAYS,
  messages,
} from '../utils/rules';

/** Without a display name yet, the dialog asks for one beside the message. */
const withNameSchema = contactMessageSchema.extend({ displayName: displayNameField });
type FormInput = z.input<typeof withNameSchema>;
type FormOutput = z.output<typeof withNameSchema>;

type ContactDialogProps = {
  /** The entry to contact; null keeps the dialog closed. */
  target: ContactTarget | null;
  onClose: () => void;
};

/** '$1,000' from dollars. */
function dollars(amount: number): string {
  return `$${amount.toLocaleString('en-US')}`;
}

/**
 * Contact on the leaderboard: a message of 10-1000 characters with its
 * counter, the price, what happens to the card, then payment. A requester
 * without a display name (the contestant sees it, never the address) types
 * one here too; it is saved to the account before the request is sent.
 */
export function ContactDialog({ target, onClose }: ContactDialogProps) {
  return (
    <Dialog open={target !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      {target ? (
        <DialogContent data-testid="contact-dialog">
          {/* Keyed by entry: a new entry starts with an empty message. */}
          <ContactEntry key={target.photoId} target={target} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

/**
 * What the server says Contact does here: while a request to this
 * contestant waits for an answer, or their chat is open, no second request
 * (and no second fee) is offered; the chat opens instead.
 */
function ContactEntry({ target }: { target: ContactTarget }) {
  const entry = useEntryContact(target.photoId);
  if (entry.isPending) {
    return (
      <div role="status" className="flex items-center gap-2 py-6 text-muted-foreground">
        <LoaderCircleIcon aria-hidden="true" className="size-5 animate-spin motion-reduce:animate-none" />
        <DialogTitle className="text-base font-normal">Checking your requests to {target.name}…</DialogTitle>
      </div>
    );
  }
  const state = entry.data?.state;
  const requestId = entry.data?.requestId;
  if (state === 'chatting' && requestId) {
    return (
      <div className="grid gap-4" data-testid="contact-chatting">
        <DialogHeader>
          <DialogTitle>You are already chatting with {target.name}</DialogTitle>
          <DialogDescription>{target.name} approved your request. Your conversation is open: no new request or fee is needed.</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button asChild size="lg">
            <Link to={messagesPathFor(requestId)}>
              <MessageCircleIcon aria-hidden="true" />
              Open chat
            </Link>
          </Button>
        </DialogFooter>
      </div>
    );
  }
  if (state === 'waiting') {
    const until = entry.data?.expiresAt;
    return (
      <div className="grid gap-4" data-testid="contact-waiting">
        <DialogHeader>
          <DialogTitle>Your request is waiting</DialogTitle>
          <DialogDescription>
            {target.name} has your paid request and has not answered yet.
            {until ? ` If they do not answer by ${formatDate(until)}, the hold on your card is released.` : ''}
          </DialogDescription>
        </DialogHeader>
        <p className="flex items-start gap-2 text-sm">
          <ClockIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-600" />
          <span>You will not be charged twice: one request per contestant at a time.</span>
        </p>
      </div>
    );
  }
  // `none`, or the check failed: the form (the server refuses a second open request anyway).
  return <ContactForm target={target} />;
}

function ContactForm({ target }: { target: ContactTarget }) {
  const { start } = useContactCheckout();
  const { session, client } = useSession();
  const replyDays = useAppConfig().data?.reply_window_days ?? DEFAULT_REPLY_WINDOW_DAYS;
  const [busy, setBusy] = useState(false);
  // Asked once the dialog knows the user has none (or the server said so); kept while it is open.
  const [askName, setAskName] = useState(() => displayNameOf(session?.user) === null);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(askName ? withNameSchema : contactMessageSchema) as never,
    defaultValues: { message: '', displayName: '' },
  });
  const ids = { message: useId(), hint: useId(), notice: useId(), name: useId(), nameHint: useId() };
  const value = useWatch({ control: form.control, name: 'message' }) ?? '';
  const error = form.formState.errors.message?.message;
  const nameError = form.formState.errors.displayName?.message;

  const onSubmit = form.handleSubmit(async ({ message, displayName }) => {
    if (busy) return;
    setBusy(true);
    try {
      if (askName) {
        const { error: refused } = await client.updateUser({ data: { display_name: displayName } });
        if (refused) {
          setBusy(false);
          form.setError('displayName', { message: refused.message || messages.processFailed }, { shouldFocus: true });
          return;
        }
      }
      await start(target, message);
      // On success the browser is on its way to the checkout: stay busy.
    } catch (failure) {
      setBusy(false);
      if (failure instanceof ApiError && failure.code === 'display_name_required') {
        setAskName(true);
        form.setError('displayName', { message: failure.message }, { shouldFocus: true });
        return;
      }
      if (failure instanceof ApiError && failure.code === 'validation_failed') {
        form.setError('message', { message: failure.message }, { shouldFocus: true });
        return;
      }
      toast.error(contactErrorMessage(failure));
    }
  });

  return (
    <form className="grid gap-4" onSubmit={(event) => void onSubmit(event)} noValidate aria-label={`Contact ${target.name}`}>
      <DialogHeader>
        <DialogTitle>Contact {target.name}</DialogTitle>
        <DialogDescription>
          Send a message to the contestant at rank #{target.rank}. They read it and decide whether to chat with you.
        </DialogDescription>
      </DialogHeader>

      {askName ? (
        <div className="grid gap-1.5">
          <Label htmlFor={ids.name}>Your display name</Label>
          <Input
            id={ids.name}
            className="h-11"
            autoComplete="nickname"
            maxLength={DISPLAY_NAME_MAX}
            placeholder="How the contestant sees you"
            aria-required="true"
            aria-invalid={nameError ? true : undefined}
            aria-describedby={`${ids.nameHint}${nameError ? ` ${ids.name}-error` : ''}`}
            {...form.register('displayName')}
          />
          <span id={ids.nameHint} className="text-xs text-muted-foreground">
            The contestant sees this name, never your email. It is saved to your account (change it on My Account).
          </span>
          {nameError ? (
            <p id={`${ids.name}-error`} role="alert" className="text-sm font-medium text-destructive">
              {nameError}
            </p>
          ) : null}
        </div>
      ) : null}

      <div className="grid gap-1.5">
        <Label htmlFor={ids.message}>Your message</Label>
        <Textarea
          id={ids.message}
          rows={5}
          maxLength={CONTACT_MESSAGE_MAX}
          placeholder="Introduce yourself and say why you would like to get in touch."
          aria-required="true"
          aria-invalid={error ? true : undefined}
          aria-describedby={`${ids.hint}${error ? ` ${ids.message}-error` : ''}`}
          {...form.register('message')}
        />
        <div className="flex items-start justify-between gap-3 text-xs text-muted-foreground">
          <span id={ids.hint}>10 to 1000 characters.</span>
          <span data-testid="contact-counter" aria-hidden="true">
            {characterCount(value)}
          </span>
        </div>
        {error ? (
          <p id={`${ids.message}-error`} role="alert" className="text-sm font-medium text-destructive">
            {error}
          </p>
        ) : null}
      </div>

      <div className="flex items-center justify-between gap-3 rounded-2xl bg-muted px-4 py-3">
        <span className="text-sm font-semibold">Price</span>
        <span className="text-2xl font-extrabold text-brand-700" data-testid="contact-price">
          {dollars(target.feeDollars)}
        </span>
      </div>

      <div id={ids.notice} className="grid gap-2 text-sm">
        <p className="flex items-start gap-2" data-testid="contact-hold-notice">
          <LockIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-600" />
          <span>{messages.holdNotice}</span>
        </p>
        <p className="flex items-start gap-2" data-testid="contact-reply-rule">
          <MessageCircleIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-600" />
          <span>{conversationRule(replyDays)}</span>
        </p>
      </div>

      <DialogFooter>
        <Button type="submit" size="lg" disabled={busy || value.trim().length === 0} aria-describedby={ids.notice}>
          {busy ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : <SendIcon aria-hidden="true" />}
          Send and pay {dollars(target.feeDollars)}
        </Button>
      </DialogFooter>
    </form>
  );
}
