import { BrainIcon, ChevronLeftIcon, ChevronRightIcon, LoaderCircleIcon, LockIcon, RotateCcwIcon, SparklesIcon } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { paths, signInPathFor } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { appPathOf, newIdempotencyKey } from '@/lib/checkout';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { createCheckout } from '@/resources/billing/billing';
import { useAnalyzePersonality, usePersonalityResults, useQuiz, type PersonalityResult, type QuizAnswers, type QuizQuestion, type QuizType } from '@/resources/personality/personality';
import {
  ANALYZE_FAILED_MESSAGE,
  clearAnswers,
  clearBought,
  CONFIRMING_DETAILED_DETAIL,
  CONFIRMING_DETAILED_MESSAGE,
  DETAILED_FAILED_MESSAGE,
  DETAILED_READY_MESSAGE,
  DETAILED_PRICE,
  isComplete,
  loadAnswers,
  loadBought,
  NO_DETAILED_PAYMENT_DETAIL,
  NO_DETAILED_PAYMENT_MESSAGE,
  progressOf,
  saveAnswers,
  saveBought,
  SELECT_ANSWER_MESSAGE,
  SIGN_IN_MESSAGE,
} from '../utils/quiz-state';
import { PersonalityResultView } from './personality-result';

/**
 * After a checkout the payment may reach the server a moment after the
 * browser (the provider's webhook): ask again every 1.5 s for up to
 * CONFIRM_PAYMENT_MS, then say plainly that no payment arrived yet.
 */
const DETAILED_RETRY_MS = 1500;
export const CONFIRM_PAYMENT_MS = 20_000;
const DETAILED_TRIES = Math.ceil(CONFIRM_PAYMENT_MS / DETAILED_RETRY_MS);
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Phase = 'quiz' | 'analysing' | 'result' | 'buying';

type PersonalityTestPageProps = {
  /**
   * Wraps the quiz itself: taking it is a Premium feature with one free
   * trial (the app passes its feature gate). A result already taken, and a
   * detailed analysis already bought, are the user's to see without it.
   */
  quizGate?: (quiz: ReactNode) => ReactNode;
};

/**
 * /personality-test: one question at a time, the basic result, and the
 * detailed analysis for $4.99. Returning from the checkout with
 * ?success=true shows the detailed analysis of the quiz taken before it (the
 * answers wait in session storage); otherwise a user with a saved result
 * sees their latest one first, with the offer to retake.
 */
export function PersonalityTestPage({ quizGate = (quiz) => quiz }: PersonalityTestPageProps) {
  const quiz = useQuiz();
  const { session, client } = useSession();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const analyze = useAnalyzePersonality();
  // Back from the checkout or from signing in: the quiz taken before.
  const [arrival] = useState(() => {
    const stored = loadAnswers();
    return stored && isComplete(stored) ? stored : null;
  });
  // Back from paying for a saved result without its quiz in this tab: the
  // result bought. The cached list predates the payment, so it is asked for
  // again, then every 1.5 s until the result shows as paid (bounded).
  const [paidReturn] = useState(() => !arrival && search.get('success') === 'true');
  const [bought] = useState(() => (paidReturn ? loadBought() : null));
  const [waitRound, setWaitRound] = useState(0);
  const [gaveUpRound, setGaveUpRound] = useState<number | null>(null);
  const waitingOver = gaveUpRound === waitRound;
  const [waitedPaid, setWaitedPaid] = useState(false);
  const waiting = paidReturn && !waitedPaid && !waitingOver;
  // Without a quiz in this tab, the latest saved result (if it cannot be
  // read, the quiz starts as for a first visit).
  const saved = usePersonalityResults({ enabled: !arrival, fresh: paidReturn, pollMs: waiting ? DETAILED_RETRY_MS : false });
  const [latestSeen, setLatestSeen] = useState(false);
  const [index, setIndex] = useState(arrival ? 19 : 0);
  const [answers, setAnswers] = useState<QuizAnswers>(arrival ?? {});
  const [phase, setPhase] = useState<Phase>(arrival ? 'analysing' : 'quiz');
  const [result, setResult] = useState<PersonalityResult | null>(null);
  const checkoutKey = useRef<{ resultId: string; value: string } | null>(null);
  const started = useRef(false);
  // Once, when the saved results first arrive (state adjusted while rendering,
  // as React advises, so the quiz never flashes before the result).
  if (!latestSeen && !arrival && saved.data) {
    setLatestSeen(true);
    const latest = (bought ? saved.data.find((row) => row.id === bought) : undefined) ?? saved.data[0];
    if (latest && phase === 'quiz' && Object.keys(answers).length === 0) {
      setResult(latest);
      setPhase('result');
    }
  }

  // The result as the server has it now: a purchase turns the saved result
  // itself into the detailed analysis, so a paid copy from the list replaces
  // the one shown (paid only ever moves forward).
  const listed = result ? saved.data?.find((row) => row.id === result.id) : undefined;
  const shown = listed?.paid ? listed : result;
  if (waiting && shown?.paid) {
    setWaitedPaid(true);
    clearBought();
    toast.success(DETAILED_READY_MESSAGE, { id: 'detailed-ready' });
  }

  useEffect(() => {
    if (!paidReturn || waitedPaid) return;
    const timer = window.setTimeout(() => setGaveUpRound(waitRound), CONFIRM_PAYMENT_MS);
    return () => window.clearTimeout(timer);
  }, [paidReturn, waitedPaid, waitRound]);

  const checkAgain = () => {
    void saved.refetch();
    setWaitRound((round) => round + 1);
  };

  /** Scores `given` on the server; the caller has set the phase to 'analysing'. */
  const run = async (given: QuizAnswers, quizType: QuizType) => {
    const tries = quizType === 'detailed' ? DETAILED_TRIES : 1;
    for (let attempt = 1; ; attempt += 1) {
      try {
        const saved = await analyze.mutateAsync({ answers: given, quizType });
        setResult(saved);
        setPhase('result');
        if (quizType === 'detailed' && saved.paid) {
          clearBought();
          toast.success(DETAILED_READY_MESSAGE, { id: 'detailed-ready' });
        }
        return;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) {
          toast.error(SIGN_IN_MESSAGE);
          void navigate(signInPathFor(paths.personalityTest.path), { state: { returnTo: paths.personalityTest.path } });
          return;
        }
        if (error instanceof ApiError && error.code === 'payment_required' && attempt < tries) {
          await wait(DETAILED_RETRY_MS);
          continue;
        }
        toast.error(quizType === 'detailed' ? DETAILED_FAILED_MESSAGE : ANALYZE_FAILED_MESSAGE);
        if (quizType === 'detailed') {
          // Back to the basic result of these answers (saved before the checkout).
          await run(given, 'basic');
        } else {
          setPhase('quiz');
        }
        return;
      }
    }
  };

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const paid = search.get('success') === 'true';
    const canceled = search.has('canceled');
    if (search.has('success') || canceled) setSearch({}, { replace: true });
    if (!arrival) return;
    if (canceled) toast.info('Checkout canceled. Your basic result is below.');
    void run(arrival, paid ? 'detailed' : 'basic');
    // Once, on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const retake = () => {
    clearAnswers();
    setAnswers({});
    setIndex(0);
    setResult(null);
    setPhase('quiz');
  };

  const buyDetailed = async () => {
    if (!result) return;
    if (!session) {
      toast.error(SIGN_IN_MESSAGE);
      void navigate(signInPathFor(paths.personalityTest.path), { state: { returnTo: paths.personalityTest.path } });
      return;
    }
    setPhase('buying');
    try {
      const { data } = await client.getSession();
      const current = data.session ?? session;
      // The purchase is for this saved result: one key per result, so a
      // double click opens one checkout (the server refuses a second purchase).
      if (checkoutKey.current?.resultId !== result.id) checkoutKey.current = { resultId: result.id, value: newIdempotencyKey() };
      saveBought(result.id);
      const { url } = await createCheckout(
        {
          userId: current.user.id,
          email: current.user.email,
          type: 'personality_detailed',
          metadata: { personality_result_id: result.id },
        },
        checkoutKey.current.value,
      );
      if (!url) throw new Error('No checkout URL returned');
      const inApp = appPathOf(url);
      if (inApp) void navigate(inApp);
      else window.location.assign(url);
    } catch (error) {
      toast.error(error instanceof ApiError && error.code !== 'http_error' ? error.message : DETAILED_FAILED_MESSAGE);
      setPhase('result');
    }
  };

  if (quiz.isPending || (!arrival && saved.isLoading)) return <PageLoader />;
  if (quiz.isError) {
    return (
      <Shell>
        <p role="alert" className="text-destructive">
          We could not load the quiz. Please try again.
        </p>
        <div>
          <Button variant="outline" onClick={() => void quiz.refetch()}>
            Try Again
          </Button>
        </div>
      </Shell>
    );
  }

  if (phase === 'analysing' || (phase === 'buying' && !result)) {
    return (
      <Shell>
        <Card>
          <CardContent className="flex flex-col items-center gap-3 py-12 text-center" role="status">
            <LoaderCircleIcon aria-hidden="true" className="size-10 animate-spin text-primary" />
            <p className="text-lg font-semibold">Analyzing your personality...</p>
          </CardContent>
        </Card>
      </Shell>
    );
  }

  if (shown) {
    const unpaidReturn = paidReturn && !shown.paid;
    return (
      <Shell>
        {unpaidReturn && waiting ? (
          <p role="status" className="flex items-start gap-3 rounded-2xl border bg-muted p-4" data-testid="detailed-confirming">
            <LoaderCircleIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0 animate-spin text-muted-foreground motion-reduce:animate-none" />
            <span>
              <span className="font-semibold">{CONFIRMING_DETAILED_MESSAGE}</span> {CONFIRMING_DETAILED_DETAIL}
            </span>
          </p>
        ) : null}
        {unpaidReturn && waitingOver ? (
          <div role="status" className="grid gap-2 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-amber-950" data-testid="detailed-no-payment">
            <p className="font-semibold">{NO_DETAILED_PAYMENT_MESSAGE}</p>
            <p>{NO_DETAILED_PAYMENT_DETAIL}</p>
            <div>
              <Button variant="outline" size="sm" onClick={checkAgain}>
                <RotateCcwIcon aria-hidden="true" />
                Check again
              </Button>
            </div>
          </div>
        ) : null}
        <PersonalityResultView result={shown} />
        {!shown.paid && !(unpaidReturn && waiting) ? <DetailedOffer buying={phase === 'buying'} onBuy={() => void buyDetailed()} /> : null}
        <div>
          <Button variant="outline" onClick={retake}>
            <RotateCcwIcon aria-hidden="true" />
            Retake the Test
          </Button>
        </div>
      </Shell>
    );
  }

  const questions = quiz.data;
  const question = questions[index]!;
  const chosen = answers[String(index)];
  const choose = (value: string) => {
    const next = { ...answers, [String(index)]: value };
    setAnswers(next);
    saveAnswers(next);
  };
  const advance = () => {
    if (!chosen) {
      toast.error(SELECT_ANSWER_MESSAGE);
      return;
    }
    if (index < questions.length - 1) {
      setIndex(index + 1);
    } else {
      setPhase('analysing');
      void run(answers, 'basic');
    }
  };

  return quizGate(
    <Shell>
      <QuestionCard
        question={question}
        index={index}
        total={questions.length}
        chosen={chosen}
        onChoose={choose}
        onBack={() => setIndex(Math.max(0, index - 1))}
        onNext={advance}
      />
    </Shell>,
  );
}

function Shell({ children }: { children: ReactNode }) {
  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12">
      <header className="flex items-center gap-3">
        <span aria-hidden="true" className="brand-gradient grid size-12 shrink-0 place-items-center rounded-2xl text-white">
          <BrainIcon className="size-6" />
        </span>
        <div>
          <h1 className="text-3xl font-extrabold tracking-tight">Personality Test</h1>
          <p className="text-muted-foreground">20 quick questions. Just for fun.</p>
        </div>
      </header>
      {children}
    </div>
  );
}

type QuestionCardProps = {
  question: QuizQuestion;
  index: number;
  total: number;
  chosen: string | undefined;
  onChoose: (value: string) => void;
  onBack: () => void;
  onNext: () => void;
};

function QuestionCard({ question, index, total, chosen, onChoose, onBack, onNext }: QuestionCardProps) {
  const last = index === total - 1;
  return (
    <Card data-testid="quiz-question">
      <CardHeader>
        <div className="flex items-center justify-between text-sm font-medium text-muted-foreground">
          <span>
            Question {index + 1} of {total}
          </span>
          <span>{question.topic}</span>
        </div>
        <Progress value={progressOf(index)} aria-label={`Question ${index + 1} of ${total}`} />
      </CardHeader>
      <CardContent>
        <fieldset className="grid gap-3">
          <legend className="mb-4 text-xl font-bold">{question.question}</legend>
          {question.options.map((option) => (
            <label
              key={option.value}
              className="flex min-h-12 cursor-pointer items-center gap-3 rounded-xl border px-4 py-3 transition-colors hover:bg-brand-50 has-[:checked]:border-primary has-[:checked]:bg-brand-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring"
            >
              <input
                type="radio"
                name={`question-${index}`}
                value={option.value}
                checked={chosen === option.value}
                onChange={() => onChoose(option.value)}
                className="size-4 accent-[var(--primary)]"
              />
              <span>{option.label}</span>
            </label>
          ))}
        </fieldset>
        <div className="mt-6 flex justify-between gap-3">
          <Button variant="outline" onClick={onBack} disabled={index === 0}>
            <ChevronLeftIcon aria-hidden="true" />
            Back
          </Button>
          <Button onClick={onNext}>
            {last ? 'See My Results' : 'Next'}
            {last ? <SparklesIcon aria-hidden="true" /> : <ChevronRightIcon aria-hidden="true" />}
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

function DetailedOffer({ buying, onBuy }: { buying: boolean; onBuy: () => void }) {
  return (
    <Card data-testid="detailed-offer" className="border-brand-200">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <LockIcon aria-hidden="true" className="size-5 text-primary" />
          Your detailed analysis
        </CardTitle>
        <CardDescription>One payment of {DETAILED_PRICE} for this result. Test payments in the sandbox move no money.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <ul className="grid gap-1 text-sm">
          <li>• A score and a reading for each of your five traits</li>
          <li>• Your strengths, and how you work with others</li>
          <li>• Where you have room to grow, and the places you thrive</li>
        </ul>
        <div>
          <Button onClick={onBuy} disabled={buying}>
            {buying ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : <SparklesIcon aria-hidden="true" />}
            Get Detailed Analysis ({DETAILED_PRICE})
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
