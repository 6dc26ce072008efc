import { InboxIcon, LoaderCircleIcon, MailIcon, WalletIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { paths } from '@/config/paths';
import { useReceivedRequests, useSentRequests, type ContactRequest } from '@/resources/contact-requests/contact-requests';
import { messages, splitReceived } from '../utils/rules';
import { ReceivedRequestCard, SentRequestCard } from './request-cards';

type Query = { isPending: boolean; isError: boolean; refetch: () => unknown; data?: ContactRequest[] };

/** A list, or its loading state, its failure, or its empty text. */
function RequestList({
  query,
  items,
  empty,
  label,
  render,
}: {
  query: Query;
  items: ContactRequest[];
  empty: ReactNode;
  label: string;
  render: (request: ContactRequest) => ReactNode;
}) {
  if (query.isPending) {
    return (
      <p role="status" className="flex items-center justify-center gap-2 py-12 text-muted-foreground">
        <LoaderCircleIcon aria-hidden="true" className="size-5 animate-spin" />
        Loading contact requests...
      </p>
    );
  }
  if (query.isError) {
    return (
      <div role="alert" className="flex flex-col items-center gap-3 py-12 text-center">
        <p className="font-semibold text-destructive">{messages.loadFailed}</p>
        <Button variant="outline" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (items.length === 0) {
    return <div className="flex flex-col items-center gap-2 py-12 text-center text-muted-foreground">{empty}</div>;
  }
  return (
    <ul className="grid gap-3" aria-label={label}>
      {items.map(render)}
    </ul>
  );
}

/**
 * /contestant-requests: the requests people sent the user (pending, to
 * approve or deny; approved, with their chats) and the requests the user
 * sent, with what became of each.
 */
export function ContestantRequestsPage() {
  const received = useReceivedRequests();
  const sent = useSentRequests();
  const { pending, approved } = splitReceived(received.data ?? []);
  const mine = sent.data ?? [];
  const count = (query: Query, n: number) => (query.isPending || query.isError ? '' : ` (${n})`);

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12">
      <PageTitle title={paths.contestantRequests.title} />
      <header className="flex items-center gap-3">
        <span aria-hidden="true" className="brand-gradient grid size-12 shrink-0 place-items-center rounded-2xl text-white">
          <MailIcon className="size-6" />
        </span>
        <div>
          <h1 className="text-3xl font-extrabold tracking-tight">{paths.contestantRequests.title}</h1>
          <p className="text-muted-foreground">People who paid to contact you, and the requests you sent.</p>
        </div>
      </header>

      <p role="note" className="flex items-start gap-3 rounded-2xl border border-brand-100 bg-brand-50 p-4 text-sm text-foreground" data-testid="payouts-note">
        <WalletIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand-700" />
        <span>
          When you approve a request you earn 75% of its fee. {messages.payouts} Requesters are only charged when you approve;
          denying releases the hold on their card.{' '}
          <Link to={paths.earnings.path} className="font-semibold text-brand-700 underline underline-offset-4">
            See your earnings
          </Link>
        </span>
      </p>

      <Tabs defaultValue="pending">
        <TabsList aria-label="Contact requests">
          <TabsTrigger value="pending" className="px-1.5 text-[13px] whitespace-nowrap sm:px-3 sm:text-sm">Pending{count(received, pending.length)}</TabsTrigger>
          <TabsTrigger value="approved" className="px-1.5 text-[13px] whitespace-nowrap sm:px-3 sm:text-sm">Approved{count(received, approved.length)}</TabsTrigger>
          <TabsTrigger value="sent" className="px-1.5 text-[13px] whitespace-nowrap sm:px-3 sm:text-sm">Sent{count(sent, mine.length)}</TabsTrigger>
        </TabsList>
        <TabsContent value="pending">
          <RequestList
            query={received}
            items={pending}
            label="Pending requests"
            empty={
              <>
                <InboxIcon aria-hidden="true" className="size-10 text-brand-500" />
                <p className="font-semibold text-foreground">No pending requests.</p>
                <p className="text-sm">Requests appear here once the sender&apos;s payment is held. You have 7 days to answer each one.</p>
              </>
            }
            render={(request) => <ReceivedRequestCard key={request.id} request={request} />}
          />
        </TabsContent>
        <TabsContent value="approved">
          <RequestList
            query={received}
            items={approved}
            label="Approved requests"
            empty={<p>No approved requests yet. Approve one to start a chat.</p>}
            render={(request) => <ReceivedRequestCard key={request.id} request={request} />}
          />
        </TabsContent>
        <TabsContent value="sent">
          <RequestList
            query={sent}
            items={mine}
            label="Requests you sent"
            empty={
              <>
                <p>You have not contacted anyone yet.</p>
                <Button asChild variant="outline">
                  <Link to={paths.leaderboard.path}>Browse the leaderboard</Link>
                </Button>
              </>
            }
            render={(request) => <SentRequestCard key={request.id} request={request} />}
          />
        </TabsContent>
      </Tabs>
    </div>
  );
}
