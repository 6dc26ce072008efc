import { badgeLabel, unreadCount, useUnreadSummary } from '@/resources/contact-requests/contact-requests';

/**
 * The side menu's count on Contact Requests: requests waiting for the
 * user's answer plus unread messages (asked every 30 s and on focus while
 * signed in). Screen readers hear it as part of the link's name.
 */
export function ContactUnreadBadge() {
  const summary = useUnreadSummary();
  const count = unreadCount(summary.data);
  const label = badgeLabel(count);
  if (!label) return null;
  return (
    <span
      data-testid="contact-unread-badge"
      className="ml-auto inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-brand-700 px-1.5 text-xs font-bold text-white group-data-[collapsible=icon]:absolute group-data-[collapsible=icon]:top-0.5 group-data-[collapsible=icon]:right-0.5 group-data-[collapsible=icon]:h-2 group-data-[collapsible=icon]:min-w-2 group-data-[collapsible=icon]:p-0 group-data-[collapsible=icon]:text-[0px]"
    >
      <span aria-hidden="true">{label}</span>
      <span className="sr-only">{`, ${count} new`}</span>
    </span>
  );
}

/** A dot on the phone's menu button while something waits (the menu itself shows the count). */
export function UnreadDot() {
  const summary = useUnreadSummary();
  if (unreadCount(summary.data) === 0) return null;
  return <span aria-hidden="true" data-testid="menu-unread-dot" className="pointer-events-none absolute top-1.5 right-1.5 size-2.5 rounded-full bg-brand-700 ring-2 ring-white" />;
}
