/**
 * Which links the header's user menu and the side menu show. Plain data and
 * functions, so the rules can be unit-tested without rendering anything.
 */
import {
  BadgeCheckIcon,
  BadgeDollarSignIcon,
  BanknoteIcon,
  BriefcaseIcon,
  ListChecksIcon,
  ScrollTextIcon,
  UsersIcon,
  BrainIcon,
  CameraIcon,
  CrownIcon,
  FootprintsIcon,
  HandIcon,
  HandshakeIcon,
  HomeIcon,
  ImagesIcon,
  InfoIcon,
  LayoutDashboardIcon,
  LogInIcon,
  MailIcon,
  PawPrintIcon,
  ShieldCheckIcon,
  SparklesIcon,
  TrophyIcon,
  UserIcon,
  WandSparklesIcon,
  GlobeIcon,
  FlagIcon,
  ReceiptIcon,
  type LucideIcon,
} from 'lucide-react';
import { paths } from '@/config/paths';

export type NavItem = {
  title: string;
  to: string;
  icon: LucideIcon;
  /** A count shown beside the title: 'contact-unread' is requests to answer plus unread messages. */
  badge?: 'contact-unread';
};

export type NavGroup = {
  label: 'Main' | 'Premium' | 'Account' | 'Admin' | 'Info';
  items: NavItem[];
};

const mainGroup: NavGroup = {
  label: 'Main',
  items: [
    { title: 'Home', to: paths.home.path, icon: HomeIcon },
    { title: 'Upload', to: paths.upload.path, icon: CameraIcon },
    { title: 'Leaderboard', to: paths.leaderboard.path, icon: TrophyIcon },
    { title: 'Global Ranking', to: paths.globalRanking.path, icon: GlobeIcon },
    { title: 'Pet Score', to: paths.petUpload.path, icon: PawPrintIcon },
    { title: 'Opportunities', to: paths.claimOpportunities.path, icon: SparklesIcon },
  ],
};

const premiumGroup: NavGroup = {
  label: 'Premium',
  items: [
    { title: 'Premium', to: paths.premium.path, icon: CrownIcon },
    { title: 'Editor', to: paths.editor.path, icon: WandSparklesIcon },
    { title: 'Personality Test', to: paths.personalityTest.path, icon: BrainIcon },
    { title: 'Feet Score', to: paths.feetUpload.path, icon: FootprintsIcon },
    { title: 'Hands Score', to: paths.handsUpload.path, icon: HandIcon },
  ],
};

const signedOutAccountGroup: NavGroup = {
  label: 'Account',
  items: [{ title: 'Sign In', to: paths.auth.path, icon: LogInIcon }],
};

const signedInAccountGroup: NavGroup = {
  label: 'Account',
  items: [
    { title: 'User Dashboard', to: paths.userDashboard.path, icon: LayoutDashboardIcon },
    { title: 'My Photos', to: paths.dashboard.path, icon: ImagesIcon },
    { title: 'Contact Requests', to: paths.contestantRequests.path, icon: MailIcon, badge: 'contact-unread' },
  ],
};

const infoGroup: NavGroup = {
  label: 'Info',
  items: [
    { title: 'How It Works', to: paths.howItWorks.path, icon: InfoIcon },
    { title: 'Privacy Policy', to: paths.privacy.path, icon: ShieldCheckIcon },
    { title: 'Partners', to: paths.partners.path, icon: HandshakeIcon },
    { title: 'Partner Leaderboard', to: paths.partnersLeaderboard.path, icon: BadgeDollarSignIcon },
  ],
};

/** Every admin page, for administrators only (the server says who is one). */
const adminGroup: NavGroup = {
  label: 'Admin',
  items: [
    { title: 'Partner Management', to: paths.adminPartners.path, icon: UsersIcon },
    { title: 'Payouts', to: paths.adminPayouts.path, icon: BanknoteIcon },
    { title: 'Payments', to: paths.adminPayments.path, icon: ReceiptIcon },
    { title: 'Leaderboard Moderation', to: paths.adminLeaderboard.path, icon: ListChecksIcon },
    { title: 'Opportunity Applications', to: paths.adminOpportunities.path, icon: BriefcaseIcon },
    { title: 'Verification Requests', to: paths.adminVerification.path, icon: BadgeCheckIcon },
    { title: 'Reports', to: paths.adminReports.path, icon: FlagIcon },
    { title: 'Audit Log', to: paths.adminAudit.path, icon: ScrollTextIcon },
  ],
};

/**
 * The side menu's groups: Main, Premium, Account and Info, with Admin before
 * Info when the server says the signed-in user is an administrator.
 */
export function getSidebarGroups(signedIn: boolean, isAdmin = false): NavGroup[] {
  const account = signedIn ? signedInAccountGroup : signedOutAccountGroup;
  return signedIn && isAdmin ? [mainGroup, premiumGroup, account, adminGroup, infoGroup] : [mainGroup, premiumGroup, account, infoGroup];
}

type MenuLink = { kind: 'link'; title: string; to: string; icon: LucideIcon };

export type UserMenuItem = MenuLink | { kind: 'group'; title: 'Admin'; items: MenuLink[] } | { kind: 'sign-out'; title: 'Sign Out' };

export type UserMenu =
  | { kind: 'sign-in-button'; title: 'Sign In'; to: string }
  | { kind: 'dropdown'; items: UserMenuItem[] };

/**
 * Signed out: a Sign In button. Signed in: a dropdown of account links, the
 * Admin group for an administrator, and Sign Out.
 */
export function getUserMenu(signedIn: boolean, isAdmin = false): UserMenu {
  if (!signedIn) return { kind: 'sign-in-button', title: 'Sign In', to: paths.auth.path };
  const admin: UserMenuItem[] = isAdmin
    ? [{ kind: 'group', title: 'Admin', items: adminGroup.items.map((item) => ({ kind: 'link', title: item.title, to: item.to, icon: item.icon })) }]
    : [];
  return {
    kind: 'dropdown',
    items: [
      { kind: 'link', title: 'My Account', to: paths.account.path, icon: UserIcon },
      { kind: 'link', title: 'User Dashboard', to: paths.userDashboard.path, icon: LayoutDashboardIcon },
      { kind: 'link', title: 'My Photos', to: paths.dashboard.path, icon: ImagesIcon },
      { kind: 'link', title: 'Premium', to: paths.premium.path, icon: CrownIcon },
      ...admin,
      { kind: 'sign-out', title: 'Sign Out' },
    ],
  };
}
