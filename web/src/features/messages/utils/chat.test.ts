import { describe, expect, it } from 'vitest';
import {
  parseReadMark,
  chatMessageError,
  isSendKey,
  lastSeq,
  lastTheirsSeq,
  mergeMessages,
  parseChatMessage,
  seenSeq,
  type ChatMessage,
} from './chat';

function message(seq: number, mine = false, content = `message ${seq}`): ChatMessage {
  return { seq, id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`, senderId: mine ? 'me' : 'them', mine, content, removed: false, createdAt: '2026-11-26T10:00:00Z' };
}

describe('mergeMessages', () => {
  it('orders by sequence number', () => {
    expect(mergeMessages([message(2)], [message(1), message(3)]).map((m) => m.seq)).toEqual([1, 2, 3]);
  });

  it('keeps each sequence number once: a replay after a reconnect or a sent message echoed by the stream adds nothing', () => {
    const held = [message(1), message(2, true)];
    const merged = mergeMessages(held, [message(2, true), message(1), message(3)]);
    expect(merged.map((m) => m.seq)).toEqual([1, 2, 3]);
    expect(merged[1]).toBe(held[1]);
  });

  it('returns the same array when nothing is new', () => {
    const held = [message(1), message(2)];
    expect(mergeMessages(held, [message(2)])).toBe(held);
    expect(mergeMessages(held, [])).toBe(held);
  });

  it('fills a gap a dropped connection left', () => {
    expect(mergeMessages([message(1), message(4)], [message(2), message(3)]).map((m) => m.seq)).toEqual([1, 2, 3, 4]);
  });
});

describe('sequence numbers', () => {
  it('knows the last one held (where the stream resumes) and the last one from the other party', () => {
    expect(lastSeq([])).toBe(0);
    expect(lastSeq([message(1), message(5, true), message(3)])).toBe(5);
    expect(lastTheirsSeq([message(1), message(5, true), message(3)])).toBe(3);
    expect(lastTheirsSeq([message(2, true)])).toBe(0);
  });
});

describe('seenSeq', () => {
  const chat = [message(1), message(2, true), message(3), message(4, true)];

  it('marks my last message Seen once the other party read up to it', () => {
    expect(seenSeq(chat, 4)).toBe(4);
    expect(seenSeq(chat, 9)).toBe(4);
  });

  it('marks nothing while my last message is unread, even if earlier ones were read', () => {
    expect(seenSeq(chat, 3)).toBeNull();
    expect(seenSeq(chat, 0)).toBeNull();
  });

  it('marks nothing when I have sent nothing', () => {
    expect(seenSeq([message(1)], 1)).toBeNull();
  });
});

describe('chatMessageError', () => {
  it('takes 1 to 5000 characters', () => {
    expect(chatMessageError('hi')).toBeNull();
    expect(chatMessageError('x'.repeat(5000))).toBeNull();
  });

  it('refuses an empty or blank message and one over 5000 characters, with the spec’s words', () => {
    expect(chatMessageError('')).toBe('Message cannot be empty');
    expect(chatMessageError('  \n ')).toBe('Message cannot be empty');
    expect(chatMessageError('x'.repeat(5001))).toBe('Message must be less than 5000 characters');
  });
});

describe('isSendKey', () => {
  it('sends on Enter, not on Shift+Enter nor while an input method composes', () => {
    expect(isSendKey({ key: 'Enter', shiftKey: false })).toBe(true);
    expect(isSendKey({ key: 'Enter', shiftKey: true })).toBe(false);
    expect(isSendKey({ key: 'Enter', shiftKey: false, isComposing: true })).toBe(false);
    expect(isSendKey({ key: 'a', shiftKey: false })).toBe(false);
  });
});

describe('parseChatMessage', () => {
  it('reads a stream event’s data', () => {
    const sent = message(3, true);
    expect(parseChatMessage(JSON.stringify(sent))).toEqual(sent);
  });

  it('returns null for anything else', () => {
    expect(parseChatMessage('not json')).toBeNull();
    expect(parseChatMessage('{"seq":"1"}')).toBeNull();
    expect(parseChatMessage('null')).toBeNull();
  });
});

describe('parseReadMark', () => {
  it('reads the seq of a read event and refuses anything else', () => {
    expect(parseReadMark('{"seq":42}')).toBe(42);
    expect(parseReadMark('{"seq":0}')).toBe(0);
    expect(parseReadMark('{"seq":-1}')).toBeNull();
    expect(parseReadMark('{"seq":"42"}')).toBeNull();
    expect(parseReadMark('not json')).toBeNull();
    expect(parseReadMark('null')).toBeNull();
  });
});
