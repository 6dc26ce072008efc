import { Link } from 'react-router';
import type { LegalSection } from './legal-page';

const linkClass = 'font-semibold text-brand-700 underline underline-offset-4 hover:text-accent-700';

/** The terms of service, in the app's own words. */
export const termsSections: LegalSection[] = [
  {
    id: 'who',
    title: 'Who may use PrettyScore',
    body: (
      <>
        <p>
          Anyone may score a photo, edit it and take the personality test. The community (the public leaderboard, the
          ranking contest, contact requests, chats, the partner programme and payouts) is for adults only: you must be
          18 or older, tell us your date of birth, confirm your email address or phone number, and accept these terms
          and the{' '}
          <Link to="/guidelines" className={linkClass}>
            community guidelines
          </Link>
          .
        </p>
        <p>
          Your date of birth is your own statement. Telling us a false one breaks these terms, and we close the
          account when we learn of it.
        </p>
      </>
    ),
  },
  {
    id: 'account',
    title: 'Your account',
    body: (
      <p>
        Keep your password to yourself and use one account only. Your display name is what others see, never your
        email address; it may not pose as PrettyScore or its staff. Only an administrator can correct the date of
        birth on file, and each correction is recorded.
      </p>
    ),
  },
  {
    id: 'scores',
    title: 'Scores are for fun',
    body: (
      <p>
        Scores are worked out by software from measurements of the photo. They are entertainment, not a judgement of
        anyone's worth, health or attractiveness, and we make no promise about them.
      </p>
    ),
  },
  {
    id: 'content',
    title: 'What you post',
    body: (
      <p>
        You keep the rights to your photos. By listing one publicly or entering it in the contest you let us show it
        on PrettyScore (the leaderboard, the standings and share pages) until you remove it. Everything you post and
        send must follow the community guidelines.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact requests and chats',
    body: (
      <p>
        A contact request costs the fee shown beside the entry. The fee is held when you send the request and only
        taken when the contestant approves; a denied or unanswered request is released after 7 days. The contestant
        receives 75 % of a taken fee, PrettyScore keeps 25 %. A chat opens only after approval, and either side may
        block or report the other.
      </p>
    ),
  },
  {
    id: 'payments',
    title: 'Premium, payments and payouts',
    body: (
      <p>
        Premium Editing renews monthly until you cancel it; a cancelled plan stays active to the end of the period
        paid for. Payments are handled by our payment provider. Contestants and partners are paid out to the payout
        account they connect, after the waiting period shown on the Earnings page.
      </p>
    ),
  },
  {
    id: 'reports',
    title: 'Reports, decisions and appeals',
    body: (
      <p>
        Anyone may report a photo, a share page, a contest entry, a message, a conversation or a user, including
        without an account. We look at every report and tell the person who reported it, when we know them, and the
        person concerned what we decided, under which guideline, and how to appeal. A decision can remove content,
        suspend an account for a period or ban it. You can appeal a decision about you once; another person reviews
        it.
      </p>
    ),
  },
  {
    id: 'ending',
    title: 'Ending your account',
    body: (
      <p>
        You can download your data and delete your account at any time on My Account. We may suspend or close an
        account that breaks these terms or the guidelines; a banned person cannot sign in, their listings are
        withdrawn and money still held for their open requests is refunded.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to these terms',
    body: (
      <p>
        Each version of these terms has a number and a date, shown above. When we change them, you accept the new
        version before using the community again; scoring and editing stay open meanwhile. Your account export lists
        every version you accepted and when.
      </p>
    ),
  },
  {
    id: 'contact-us',
    title: 'Contact us',
    body: (
      <p>
        Questions about these terms: write to the address on our{' '}
        <Link to="/privacy#contact" className={linkClass}>
          privacy policy
        </Link>
        .
      </p>
    ),
  },
];
