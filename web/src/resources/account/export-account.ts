import { useMutation } from '@tanstack/react-query';
import { api, ApiError } from '@/lib/api-client';

export const EXPORT_FILE_NAME = 'prettyscore-data.json';

/** GET /api/v1/account/export: everything the server holds about the signed-in user, as JSON. */
export async function exportAccount(): Promise<Blob> {
  const { data, error, response } = await api.GET('/api/v1/account/export', { parseAs: 'blob' });
  if (response.ok && data) return data;
  throw apiErrorOf(response, error);
}

export function apiErrorOf(response: Response, error: unknown): ApiError {
  const body = (error && typeof error === 'object' ? error : {}) as { code?: unknown; message?: unknown };
  return new ApiError(
    response.status,
    typeof body.code === 'string' ? body.code : 'http_error',
    typeof body.message === 'string' ? body.message : `Request failed with status ${response.status}`,
  );
}

/** Hands a blob to the browser as a file download. */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the URL goes.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function useExportAccount() {
  return useMutation({
    mutationFn: async () => {
      saveBlob(await exportAccount(), EXPORT_FILE_NAME);
    },
  });
}
