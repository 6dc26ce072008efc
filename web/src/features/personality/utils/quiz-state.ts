import type { QuizAnswers } from '@/resources/personality/personality';

export const QUIZ_LENGTH = 20;
export const SELECT_ANSWER_MESSAGE = 'Please select an answer';
export const ANALYZE_FAILED_MESSAGE = 'Failed to analyze personality';
export const DETAILED_FAILED_MESSAGE = 'Failed to get detailed analysis';
/** After paying, once the server has the payment: the detailed analysis is shown. */
export const DETAILED_READY_MESSAGE = 'Payment successful! Your detailed analysis is ready.';
export const SIGN_IN_MESSAGE = 'Please log in to take the personality test';
export const DETAILED_PRICE = '$4.99';
/** Back from the checkout, until the server has the payment. */
export const CONFIRMING_DETAILED_MESSAGE = 'We are confirming your payment…';
export const CONFIRMING_DETAILED_DETAIL = 'Your detailed analysis shows here as soon as the payment provider confirms it.';
/** Back from the checkout, when no payment arrived within the page's wait. */
export const NO_DETAILED_PAYMENT_MESSAGE = 'We have not received your payment yet.';
export const NO_DETAILED_PAYMENT_DETAIL =
  'If you paid, your detailed analysis shows here once the payment provider confirms it: check again in a minute. If you left the checkout before paying, nothing was charged.';

/** The result being bought, kept across the trip to the checkout. */
const BOUGHT_KEY = 'prettyscore.personality.bought';

export function saveBought(resultId: string) {
  try {
    window.sessionStorage.setItem(BOUGHT_KEY, resultId);
  } catch {
    // Without storage the page shows the latest result instead.
  }
}

export function loadBought(): string | null {
  try {
    return window.sessionStorage.getItem(BOUGHT_KEY);
  } catch {
    return null;
  }
}

export function clearBought() {
  try {
    window.sessionStorage.removeItem(BOUGHT_KEY);
  } catch {
    // Nothing stored.
  }
}

/**
 * The answers survive a trip to the checkout (and to sign in) in this tab's
 * session storage, so the detailed analysis is of the quiz the user took.
 */
const STORAGE_KEY = 'prettyscore.personality.answers';

export function loadAnswers(): QuizAnswers | null {
  try {
    const raw = window.sessionStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return null;
  }
}

export function saveAnswers(answers: QuizAnswers) {
  try {
    window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(answers));
  } catch {
    // Private mode without storage: the quiz still works in this page.
  }
}

export function clearAnswers() {
  try {
    window.sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing stored.
  }
}

export function isComplete(answers: QuizAnswers): boolean {
  return Array.from({ length: QUIZ_LENGTH }, (_, i) => answers[String(i)]).every(Boolean);
}

/** The progress shown above a question: (index + 1) / 20, in percent. */
export function progressOf(index: number): number {
  return Math.round(((index + 1) / QUIZ_LENGTH) * 100);
}

export type AnalysisBlock = { heading?: string; paragraphs: string[]; items: string[] };

/**
 * The server's analysis text as blocks: a blank line separates blocks; in a
 * block of several lines the first is its heading, lines starting with "- "
 * are list items.
 */
export function analysisBlocks(text: string): AnalysisBlock[] {
  return text
    .split(/\n\s*\n/)
    .map((block) => block.split('\n').map((line) => line.trim()).filter(Boolean))
    .filter((lines) => lines.length > 0)
    .map((lines) => {
      const heading = lines.length > 1 && !lines[0]!.startsWith('- ') ? lines[0] : undefined;
      const body = heading ? lines.slice(1) : lines;
      return {
        heading,
        paragraphs: body.filter((line) => !line.startsWith('- ')),
        items: body.filter((line) => line.startsWith('- ')).map((line) => line.slice(2)),
      };
    });
}
