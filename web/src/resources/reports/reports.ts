import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '@/lib/api-client';

/**
 * Reports (issue 41): anything public or shared can be reported; every report
 * gets an answer. The server decides who may report what (signed-out
 * visitors only public content, with an address and a good-faith statement).
 */
export type ReportForm = ApiSchemas['ReportForm'];
export type ReportTargetKind = 'photo' | 'share' | 'message' | 'conversation' | 'contest_entry' | 'user';
export type Queue = ApiSchemas['Queue'];
export type QueuedReport = ApiSchemas['QueuedReport'];
export type QueuedAppeal = ApiSchemas['QueuedAppeal'];
export type DecisionView = ApiSchemas['DecisionView'];
export type DecisionForm = ApiSchemas['DecisionForm'];

/** The reasons, in the server's words and order. */
export const REPORT_REASONS = [
  { value: 'spam_or_scam', label: 'Spam or scam' },
  { value: 'harassment', label: 'Harassment' },
  { value: 'nudity_or_sexual_content', label: 'Nudity or sexual content' },
  { value: 'under_18', label: 'Someone under 18' },
  { value: 'intimate_image_without_consent', label: 'An intimate image shared without consent' },
  { value: 'my_photo_without_consent', label: 'A photo of me used without my consent' },
  { value: 'other_illegal_content', label: 'Other illegal content' },
  { value: 'other', label: 'Something else' },
] as const;

/** The rules of /guidelines a decision can cite: the anchors of the guidelines page and the server's table (`reports/rules.rs`). */
export const GUIDELINE_RULES = [
  { id: 'g1', title: 'Adults only' },
  { id: 'g2', title: 'Only your own photos' },
  { id: 'g3', title: 'No nudity or sexual content' },
  { id: 'g4', title: 'Never share intimate images without consent' },
  { id: 'g5', title: 'No harassment, hate or threats' },
  { id: 'g6', title: 'No spam or scams' },
  { id: 'g7', title: 'Be who you say you are' },
  { id: 'g8', title: "Keep other people's details private" },
  { id: 'g9', title: 'Respect a no' },
  { id: 'g10', title: 'Nothing illegal' },
] as const;

export const reportKeys = {
  queue: ['admin', 'reports'] as const,
  mine: ['account', 'moderation-decisions'] as const,
  decision: (id: string, token?: string) => ['moderation-decisions', id, token ?? ''] as const,
};

/** POST /api/v1/reports: 202 with the report's id, signed in or not. */
export function useCreateReport() {
  return useMutation({
    mutationFn: (body: ReportForm) => unwrap(api.POST('/api/v1/reports', { body })),
  });
}

/** GET /api/v1/admin/reports (admins): urgent first, then the nearest deadline; open appeals beside. */
export function useReportQueue() {
  return useQuery(
    queryOptions({
      queryKey: reportKeys.queue,
      queryFn: () => unwrap(api.GET('/api/v1/admin/reports')),
    }),
  );
}

/** POST /api/v1/admin/reports/{id}/decision: once; 409 `already_decided` after. */
export function useDecideReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: DecisionForm }) =>
      unwrap(api.POST('/api/v1/admin/reports/{id}/decision', { params: { path: { id } }, body })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: reportKeys.queue }),
  });
}

/** POST /api/v1/admin/appeals/{id}/decision: another admin than the one who decided. */
export function useDecideAppeal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, outcome, answer }: { id: string; outcome: 'upheld' | 'reversed'; answer: string }) =>
      unwrap(api.POST('/api/v1/admin/appeals/{id}/decision', { params: { path: { id } }, body: { outcome, answer } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: reportKeys.queue }),
  });
}

/** GET /api/v1/account/moderation-decisions: decisions about the caller's content. */
export function useMyDecisions() {
  return useQuery(
    queryOptions({
      queryKey: reportKeys.mine,
      queryFn: () => unwrap(api.GET('/api/v1/account/moderation-decisions')),
    }),
  );
}

/** GET /api/v1/moderation-decisions/{id}: for the affected user, signed in or with the mail's token. */
export function useDecision(id: string, token: string | undefined, enabled: boolean) {
  return useQuery(
    queryOptions({
      enabled,
      queryKey: reportKeys.decision(id, token),
      queryFn: () =>
        unwrap(api.GET('/api/v1/moderation-decisions/{id}', { params: { path: { id }, query: token ? { token } : {} } })),
      retry: false,
    }),
  );
}

/** POST /api/v1/moderation-decisions/{id}/appeal: once. */
export function useAppeal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, statement, token }: { id: string; statement: string; token?: string }) =>
      unwrap(api.POST('/api/v1/moderation-decisions/{id}/appeal', { params: { path: { id } }, body: { statement, token } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['moderation-decisions'] }).then(() => queryClient.invalidateQueries({ queryKey: reportKeys.mine })),
  });
}
