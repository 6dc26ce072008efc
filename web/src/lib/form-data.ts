/**
 * Serialises a multipart request body for openapi-fetch. The generated types
 * describe a file field as a (binary) string, so callers pass the Blob with a
 * cast and this turns the fields into FormData: files keep a name, flags
 * become 'true'/'false', and missing values are left out.
 */
export function toFormData(body: unknown): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    if (value instanceof Blob) form.append(name, value, value instanceof File ? value.name : name);
    else form.append(name, typeof value === 'boolean' ? String(value) : String(value));
  }
  return form;
}
