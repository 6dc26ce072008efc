import { describe, expect, it } from 'vitest';
import {
  channelNames,
  copiedMessage,
  copiesToClipboard,
  LINK_COPIED_MESSAGE,
  NATIVE_SHARE_FALLBACK_MESSAGE,
  opensNewWindow,
  shareLink,
  shareMessage,
  type ShareChannel,
} from './share';

const content = { title: 'My PrettyScore', text: 'I scored 8.3/10 & more #AIPhotoChallenge', url: 'https://prettyscore.example/' };

describe('share messages (spec catalogue)', () => {
  it.each<[ShareChannel, string]>([
    ['sms', 'Opening SMS app...'],
    ['email', 'Opening email app...'],
    ['twitter', 'Opening X (Twitter)...'],
    ['facebook', 'Opening Facebook...'],
    ['instagram', 'Message copied! Open Instagram and paste to share.'],
    ['tiktok', 'Message copied! Open TikTok to share'],
  ])('%s says %j', (channel, message) => {
    expect(shareMessage(channel)).toBe(message);
  });

  it('has the generic copy form, the link and the native share fallback', () => {
    expect(copiedMessage('Snapchat')).toBe('Message copied! Open Snapchat to share');
    expect(LINK_COPIED_MESSAGE).toBe('Link copied to clipboard!');
    expect(NATIVE_SHARE_FALLBACK_MESSAGE).toBe('Share text copied to clipboard! Paste it on your favorite social media.');
  });

  it('names the six channels', () => {
    expect(Object.values(channelNames)).toEqual(['Text/SMS', 'Email', 'X/Twitter', 'Facebook', 'Instagram', 'TikTok']);
  });
});

describe('share links', () => {
  it('puts the text in an sms: link and a mailto: link with a subject', () => {
    expect(shareLink('sms', content)).toBe(`sms:?&body=${encodeURIComponent(content.text)}`);
    expect(shareLink('email', content)).toBe(
      `mailto:?subject=My%20PrettyScore&body=${encodeURIComponent(content.text)}`,
    );
  });

  it('opens a tweet intent and a Facebook sharer in a new window', () => {
    expect(shareLink('twitter', content)).toBe(
      `https://twitter.com/intent/tweet?text=${encodeURIComponent(content.text)}`,
    );
    expect(shareLink('facebook', content)).toMatch(
      /^https:\/\/www\.facebook\.com\/sharer\/sharer\.php\?u=https%3A%2F%2Fprettyscore\.example%2F/,
    );
    expect(opensNewWindow('twitter')).toBe(true);
    expect(opensNewWindow('facebook')).toBe(true);
    expect(opensNewWindow('sms')).toBe(false);
  });

  it('copies for Instagram and TikTok, which have no link', () => {
    expect(shareLink('instagram', content)).toBeNull();
    expect(shareLink('tiktok', content)).toBeNull();
    expect(copiesToClipboard('instagram')).toBe(true);
    expect(copiesToClipboard('tiktok')).toBe(true);
    expect(copiesToClipboard('email')).toBe(false);
  });
});
