/**
 * The share panel's links and messages (docs/spec-rules.md §2, 7 and
 * 8), shared by the score, photo and edit screens. Plain functions so the
 * exact wording is tested.
 */
export type ShareChannel = 'sms' | 'email' | 'twitter' | 'facebook' | 'instagram' | 'tiktok';

export type ShareContent = {
  /** The message people paste or send. */
  text: string;
  /** The page the message points at. */
  url: string;
  /** The email subject and native share title. */
  title: string;
};

export const channelNames: Record<ShareChannel, string> = {
  sms: 'Text/SMS',
  email: 'Email',
  twitter: 'X/Twitter',
  facebook: 'Facebook',
  instagram: 'Instagram',
  tiktok: 'TikTok',
};

export const LINK_COPIED_MESSAGE = 'Link copied to clipboard!';
export const NATIVE_SHARE_FALLBACK_MESSAGE = 'Share text copied to clipboard! Paste it on your favorite social media.';
export const COPY_FAILED_MESSAGE = 'Could not copy to the clipboard';

/** The generic form of the copy messages: 'Message copied! Open {platform} to share'. */
export function copiedMessage(platform: string): string {
  return `Message copied! Open ${platform} to share`;
}

/** The toast each channel shows once it has done its part. */
export function shareMessage(channel: ShareChannel): string {
  switch (channel) {
    case 'sms':
      return 'Opening SMS app...';
    case 'email':
      return 'Opening email app...';
    case 'twitter':
      return 'Opening X (Twitter)...';
    case 'facebook':
      return 'Opening Facebook...';
    case 'instagram':
      return 'Message copied! Open Instagram and paste to share.';
    case 'tiktok':
      return copiedMessage('TikTok');
  }
}

/** Instagram and TikTok have no share link: they copy the message instead. */
export function copiesToClipboard(channel: ShareChannel): boolean {
  return channel === 'instagram' || channel === 'tiktok';
}

/** The link a channel opens (null for the copy-only channels). */
export function shareLink(channel: ShareChannel, content: ShareContent): string | null {
  const text = encodeURIComponent(content.text);
  switch (channel) {
    case 'sms':
      return `sms:?&body=${text}`;
    case 'email':
      return `mailto:?subject=${encodeURIComponent(content.title)}&body=${text}`;
    case 'twitter':
      return `https://twitter.com/intent/tweet?text=${text}`;
    case 'facebook':
      return `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(content.url)}&quote=${text}`;
    default:
      return null;
  }
}

/** X and Facebook open in a new window; SMS and email hand over to an app. */
export function opensNewWindow(channel: ShareChannel): boolean {
  return channel === 'twitter' || channel === 'facebook';
}
