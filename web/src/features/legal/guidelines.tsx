import { Link } from 'react-router';
import type { LegalSection } from './legal-page';

const linkClass = 'font-semibold text-brand-700 underline underline-offset-4 hover:text-accent-700';

/**
 * The community guidelines: what may be posted and said on PrettyScore.
 * Each rule has a stable anchor, `#g1` to `#g10`, which a moderation
 * decision's statement of reasons cites ("under rule G4 of /guidelines").
 * Never renumber a rule; add new ones at the end.
 */
export const guidelines: LegalSection[] = [
  {
    id: 'g1',
    title: 'Adults only',
    body: (
      <p>
        The leaderboard, the ranking contest, contact requests, chats and the partner programme are for people aged
        18 or over. Tell us your real date of birth. Never post a photo of anyone under 18, even of yourself when you
        were younger. We remove such photos at once and close the account that posted them.
      </p>
    ),
  },
  {
    id: 'g2',
    title: 'Only your own photos',
    body: (
      <p>
        Post photos of yourself (your face, feet or hands) or of your own pet. Never post someone else's photo, a
        celebrity's, or a picture taken from another site. If you find a photo of you that you did not post,{' '}
        report it and we will take it down.
      </p>
    ),
  },
  {
    id: 'g3',
    title: 'No nudity or sexual content',
    body: (
      <p>
        Photos stay clothed and non-sexual; messages too. No nude or see-through images, no sexual poses, no sexual
        services offered or asked for. Our screening holds doubtful photos for a person to review before they become
        public.
      </p>
    ),
  },
  {
    id: 'g4',
    title: 'Never share intimate images without consent',
    body: (
      <p>
        Sharing an intimate image of someone without their consent is abuse and, in many countries, a crime. A
        report of such an image is handled first, and a confirmed one comes down within 48 hours at the latest. The
        account that shared it is banned.
      </p>
    ),
  },
  {
    id: 'g5',
    title: 'No harassment, hate or threats',
    body: (
      <p>
        Rate photos, not people's worth. No insults, bullying, threats, or attacks on anyone for their race,
        ethnicity, religion, disability, sex, gender identity or sexual orientation. No comments on someone's body
        they did not ask for.
      </p>
    ),
  },
  {
    id: 'g6',
    title: 'No spam or scams',
    body: (
      <p>
        No advertising, chain messages or links to other services in contact requests and chats. Never ask anyone
        for money, gift cards, bank details or passwords, and never move a paid conversation elsewhere to avoid the
        fee.
      </p>
    ),
  },
  {
    id: 'g7',
    title: 'Be who you say you are',
    body: (
      <p>
        One account per person, with an address you confirmed. Do not pretend to be someone else, and do not pose as
        PrettyScore: display names cannot contain our name or words like admin, support, moderator, official, staff
        or team. We never ask for your password in a message.
      </p>
    ),
  },
  {
    id: 'g8',
    title: 'Keep other people’s details private',
    body: (
      <p>
        Do not post or pass on anyone's address, phone number, workplace, real name or other personal details without
        their permission, and do not try to find out who someone is from their photo.
      </p>
    ),
  },
  {
    id: 'g9',
    title: 'Respect a no',
    body: (
      <p>
        A contestant may deny a request, block you or leave a chat. Accept it: do not contact them again through
        another account or another way. Either side of a chat can block and report the other at any time.
      </p>
    ),
  },
  {
    id: 'g10',
    title: 'Nothing illegal',
    body: (
      <p>
        No content or conduct that breaks the law, such as selling illegal goods, fraud, or infringing someone
        else's copyright. We remove it and, where the law requires, tell the authorities. See the{' '}
        <Link to="/terms#reports" className={linkClass}>
          terms of service
        </Link>{' '}
        for how reports, decisions and appeals work.
      </p>
    ),
  },
];
