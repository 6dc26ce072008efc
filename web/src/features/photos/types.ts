import type { ApiSchemas } from '@/lib/api-client';

/** A saved photo row, as the server sends it (signed image URLs). */
export type Photo = ApiSchemas['Photo'];
export type PhotoSort = 'latest' | 'rating';
