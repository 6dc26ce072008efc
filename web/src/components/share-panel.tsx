import { LinkIcon, MailIcon, MessageSquareIcon, Share2Icon } from 'lucide-react';
import { useId, useState, type ComponentType, type SVGProps } from 'react';
import { Button } from '@/components/ui/button';
import { copyText } from '@/lib/image';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';
import {
  channelNames,
  COPY_FAILED_MESSAGE,
  copiesToClipboard,
  LINK_COPIED_MESSAGE,
  NATIVE_SHARE_FALLBACK_MESSAGE,
  opensNewWindow,
  shareLink,
  shareMessage,
  type ShareChannel,
  type ShareContent,
} from '@/lib/share';

type Icon = ComponentType<SVGProps<SVGSVGElement>>;

// Brand marks drawn as simple glyphs (lucide has no brand icons).
const XMark: Icon = (props) => (
  <svg viewBox="0 0 24 24" fill="currentColor" {...props}>
    <path d="M17.8 3h3.1l-6.8 7.7 8 10.3h-6.3l-4.9-6.4L5.3 21H2.2l7.3-8.3L1.8 3h6.4l4.4 5.8L17.8 3Zm-1.1 16.2h1.7L7.3 4.7H5.5l11.2 14.5Z" />
  </svg>
);
const FacebookMark: Icon = (props) => (
  <svg viewBox="0 0 24 24" fill="currentColor" {...props}>
    <path d="M13.5 21v-7.5H16l.4-3h-2.9V8.6c0-.9.3-1.5 1.5-1.5h1.5V4.4c-.3 0-1.2-.1-2.2-.1-2.2 0-3.8 1.4-3.8 3.9v2.3H8v3h2.5V21h3Z" />
  </svg>
);
const InstagramMark: Icon = (props) => (
  <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} {...props}>
    <rect x="3" y="3" width="18" height="18" rx="5" />
    <circle cx="12" cy="12" r="4" />
    <circle cx="17.5" cy="6.5" r="1" fill="currentColor" stroke="none" />
  </svg>
);
const TikTokMark: Icon = (props) => (
  <svg viewBox="0 0 24 24" fill="currentColor" {...props}>
    <path d="M16.6 3c.3 2.2 1.6 3.6 3.9 3.8v3c-1.4.1-2.7-.3-3.9-1v6.1c0 3.9-3.2 6.1-6.3 5.7-2.6-.3-4.8-2.4-4.8-5.4 0-3.6 3.3-6.2 7-5.3v3.2c-1.7-.5-3.6.4-3.6 2.1 0 1.3 1 2.3 2.3 2.3 1.4 0 2.3-1 2.3-2.6V3h3.1Z" />
  </svg>
);

const channelIcons: Record<ShareChannel, Icon> = {
  sms: MessageSquareIcon,
  email: MailIcon,
  twitter: XMark,
  facebook: FacebookMark,
  instagram: InstagramMark,
  tiktok: TikTokMark,
};

const allChannels: ShareChannel[] = ['sms', 'email', 'twitter', 'facebook', 'instagram', 'tiktok'];

type SharePanelProps = {
  content: ShareContent;
  heading?: string;
  /** Inside a dialog: no card and no heading of its own (the dialog has both). */
  bare?: boolean;
  /** The channels to offer (all six by default). */
  channels?: ShareChannel[];
};

/**
 * Share to Text/SMS, Email, X, Facebook, Instagram and TikTok, copy the link,
 * or use the device's own share sheet where there is one.
 */
export function SharePanel({ content, heading = 'Share Your Score', bare = false, channels = allChannels }: SharePanelProps) {
  const headingId = useId();
  const [canShareNatively] = useState(() => typeof navigator !== 'undefined' && typeof navigator.share === 'function');

  async function copy(value: string, message: string) {
    try {
      await copyText(value);
      toast.success(message);
    } catch {
      toast.error(COPY_FAILED_MESSAGE);
    }
  }

  function share(channel: ShareChannel) {
    if (copiesToClipboard(channel)) {
      void copy(content.text, shareMessage(channel));
      return;
    }
    const link = shareLink(channel, content);
    if (link && opensNewWindow(channel)) {
      window.open(link, '_blank', 'noopener,noreferrer,width=600,height=600');
    }
    toast.success(shareMessage(channel));
  }

  async function shareNatively() {
    try {
      await navigator.share({ title: content.title, text: content.text, url: content.url });
    } catch (error) {
      // Closing the share sheet is not a failure.
      if (error instanceof DOMException && error.name === 'AbortError') return;
      await copy(content.text, NATIVE_SHARE_FALLBACK_MESSAGE);
    }
  }

  return (
    <section
      aria-labelledby={bare ? undefined : headingId}
      aria-label={bare ? heading : undefined}
      className={bare ? undefined : 'rounded-3xl border bg-card p-5 shadow-sm sm:p-6'}
      data-testid="share-panel"
    >
      {bare ? null : (
        <h2 id={headingId} className="flex items-center gap-2 text-lg font-bold">
          <Share2Icon className="size-5 text-brand-700" aria-hidden="true" />
          {heading}
        </h2>
      )}
      <ul className={cn('grid grid-cols-2 gap-2 sm:grid-cols-3', !bare && 'mt-4')}>
        {channels.map((channel) => {
          const ChannelIcon = channelIcons[channel];
          const link = shareLink(channel, content);
          const label = channelNames[channel];
          return (
            <li key={channel}>
              {link && !opensNewWindow(channel) ? (
                // SMS and email hand over to an app through their own link.
                <Button asChild variant="outline" className="w-full">
                  <a href={link} onClick={() => share(channel)} data-channel={channel}>
                    <ChannelIcon aria-hidden="true" />
                    {label}
                  </a>
                </Button>
              ) : (
                <Button variant="outline" className="w-full" onClick={() => share(channel)} data-channel={channel}>
                  <ChannelIcon aria-hidden="true" />
                  {label}
                </Button>
              )}
            </li>
          );
        })}
      </ul>
      <div className={cn('mt-3 grid gap-2', canShareNatively && 'sm:grid-cols-2')}>
        <Button variant="secondary" onClick={() => void copy(content.url, LINK_COPIED_MESSAGE)}>
          <LinkIcon aria-hidden="true" />
          Copy Link
        </Button>
        {canShareNatively ? (
          <Button variant="secondary" onClick={() => void shareNatively()}>
            <Share2Icon aria-hidden="true" />
            More Options
          </Button>
        ) : null}
      </div>
    </section>
  );
}
