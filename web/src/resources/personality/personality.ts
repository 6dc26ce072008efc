import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '@/lib/api-client';
import { useSession } from '@/lib/session';

export type QuizQuestion = ApiSchemas['QuizQuestion'];
export type PersonalityResult = ApiSchemas['PersonalityResult'];
export type QuizType = ApiSchemas['QuizType'];
/** Question index ("0" to "19") to the chosen option's value. */
export type QuizAnswers = Record<string, string>;

export const personalityKeys = {
  quiz: ['personality', 'quiz'] as const,
  results: () => ['personality', 'results'] as const,
};

/** GET /api/v1/personality/quiz: the server's 20 questions, so the text and the scoring never drift apart. */
export function useQuiz() {
  return useQuery(
    queryOptions({
      queryKey: personalityKeys.quiz,
      queryFn: () => unwrap(api.GET('/api/v1/personality/quiz')),
      staleTime: Infinity,
    }),
  );
}

/**
 * GET /api/v1/personality/results: the user's results, newest first (not
 * asked while signed out, nor while `enabled` is false). `fresh` asks the
 * server again on mount whatever the cache holds, and `pollMs` keeps asking
 * (back from a checkout, until the payment is in).
 */
export function usePersonalityResults({ enabled = true, fresh = false, pollMs }: { enabled?: boolean; fresh?: boolean; pollMs?: number | false } = {}) {
  const { session } = useSession();
  return useQuery(
    queryOptions({
      queryKey: personalityKeys.results(),
      queryFn: () => unwrap(api.GET('/api/v1/personality/results')),
      enabled: enabled && Boolean(session),
      refetchOnMount: fresh ? 'always' : true,
      refetchInterval: pollMs ?? false,
    }),
  );
}

/**
 * POST /functions/v1/personality-analysis: the server scores and saves.
 * `basic` needs Premium or the trial; `detailed` a paid checkout (402
 * `payment_required` until the payment is in). The same answers again
 * answer the saved result.
 */
export function analyzePersonality(answers: QuizAnswers, quizType: QuizType) {
  return unwrap(api.POST('/functions/v1/personality-analysis', { body: { answers, quizType } }));
}

export function useAnalyzePersonality() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ answers, quizType }: { answers: QuizAnswers; quizType: QuizType }) => analyzePersonality(answers, quizType),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: personalityKeys.results() }),
  });
}
