import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const WEB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RULE = 'prettyscore/no-cross-feature-imports';
const CLIENT_RULE = 'prettyscore/api-calls-only-in-resources';
const LAYER_RULE = 'prettyscore/resources-below-features';

/**
 * Lints made-up source as if it were a file of the app, with the project's
 * own eslint.config.js, and returns one boundary rule's messages.
 */
async function boundaryErrors(filePath: string, code: string, rule = RULE) {
  const eslint = new ESLint({ cwd: WEB_DIR });
  const [result] = await eslint.lintText(code, { filePath: path.join(WEB_DIR, filePath) });
  return result!.messages.filter((message) => message.ruleId === rule).map((message) => message.message);
}

describe('the feature boundary lint rule', () => {
  it('fails a made-up import from one feature into another, by alias', async () => {
    const errors = await boundaryErrors(
      'src/features/score/components/made-up.tsx',
      "import { MyPhotos } from '@/features/photos/components/my-photos';\nexport const x = MyPhotos;\n",
    );
    expect(errors).toEqual([expect.stringContaining('features/score imports from features/photos')]);
  });

  it('fails the same import written as a relative path, a re-export, a type and a lazy import', async () => {
    const errors = await boundaryErrors(
      'src/features/edits/hooks/made-up.ts',
      [
        "import { displayImage } from '../../photos/utils/photo-display';",
        "export { ratingLabel } from '../../score/utils/rating';",
        "import type { PetResultState } from '@/features/pet/types';",
        "type Module = typeof import('@/features/auth/utils/return-to');",
        "export const load = () => import('../../upload/utils/working-copy');",
        'export type T = [PetResultState, Module];',
        'export const y = displayImage;',
      ].join('\n'),
    );
    expect(errors).toHaveLength(5);
    for (const other of ['photos', 'score', 'pet', 'auth', 'upload']) {
      expect(errors).toContainEqual(expect.stringContaining(`features/edits imports from features/${other}`));
    }
  });

  it('allows a feature its own files and the shared layers', async () => {
    const errors = await boundaryErrors(
      'src/features/edits/components/made-up.tsx',
      [
        "import { editFailedMessage } from '../utils/edit-errors';",
        "import { useEditAllowance } from '@/resources/edits/get-edits-quota';",
        "import { photoKeys } from '@/resources/photos/photos';",
        "import { Button } from '@/components/ui/button';",
        "import { useQuery } from '@tanstack/react-query';",
        'export const z = [editFailedMessage, useEditAllowance, photoKeys, Button, useQuery];',
      ].join('\n'),
    );
    expect(errors).toEqual([]);
  });

  it('lets pages in src/app put features together', async () => {
    const errors = await boundaryErrors(
      'src/app/routes/made-up.tsx',
      "import { MyPhotos } from '@/features/photos/components/my-photos';\nimport { ScoreCircle } from '@/features/score/components/score-circle';\nexport const w = [MyPhotos, ScoreCircle];\n",
    );
    expect(errors).toEqual([]);
  });
});

describe('the resource layer lint rules', () => {
  it('fails a call of the API client outside src/resources: a component, a hook, a page, a shared layer', async () => {
    const code = [
      "import { api, unwrap } from '@/lib/api-client';",
      "export const leak = () => unwrap(api.GET('/api/v1/photos', { params: { query: { sort: 'newest' } } }));",
    ].join('\n');
    for (const file of [
      'src/features/photos/components/made-up.tsx',
      'src/features/edits/hooks/made-up.ts',
      'src/app/routes/made-up.tsx',
      'src/components/made-up.tsx',
      'src/hooks/made-up.ts',
      'src/lib/made-up.ts',
    ]) {
      const errors = await boundaryErrors(file, code, CLIENT_RULE);
      expect(errors, file).toEqual([expect.stringContaining("'api' is the API client's call"), expect.stringContaining("'unwrap' is the API client's call")]);
    }
  });

  it('fails the other spellings: a relative path, a namespace, a re-export, a lazy import, openapi-fetch itself', async () => {
    const errors = await boundaryErrors(
      'src/features/photos/components/made-up.tsx',
      [
        "import { unwrap as get } from '../../../lib/api-client';",
        "import * as client from '@/lib/api-client';",
        "export { noContent } from '@/lib/api-client';",
        "export const load = () => import('@/lib/api-client');",
        "import createClient from 'openapi-fetch';",
        'export const all = [get, client, createClient];',
      ].join('\n'),
      CLIENT_RULE,
    );
    expect(errors).toHaveLength(5);
  });

  it("allows anyone the client's error class and generated types, and the resources its calls", async () => {
    const outside = await boundaryErrors(
      'src/features/photos/components/made-up.tsx',
      "import { ApiError, type ApiSchemas } from '@/lib/api-client';\nexport type P = ApiSchemas['Photo'];\nexport const e = ApiError;\n",
      CLIENT_RULE,
    );
    expect(outside).toEqual([]);
    const inside = await boundaryErrors(
      'src/resources/photos/made-up.ts',
      "import { api, unwrap } from '@/lib/api-client';\nexport const list = () => unwrap(api.GET('/api/v1/photos', { params: { query: { sort: 'newest' } } }));\n",
      CLIENT_RULE,
    );
    expect(inside).toEqual([]);
  });

  it('fails a resource module that imports from a feature, a component, a hook or a page', async () => {
    const errors = await boundaryErrors(
      'src/resources/photos/made-up.ts',
      [
        "import { displayImage } from '@/features/photos/utils/photo-display';",
        "import { Button } from '../../components/ui/button';",
        "import { useIsMobile } from '@/hooks/use-is-mobile';",
        "import type { Routes } from '@/app/router';",
        "import { useSession } from '@/lib/session';",
        "import { billingKeys } from '@/resources/billing/billing';",
        'export const all = [displayImage, Button, useIsMobile, useSession, billingKeys];',
        'export type R = Routes;',
      ].join('\n'),
      LAYER_RULE,
    );
    expect(errors).toHaveLength(4);
    for (const layer of ['features', 'components', 'hooks', 'app']) {
      expect(errors).toContainEqual(expect.stringContaining(`src/resources imports from src/${layer}`));
    }
  });
});
