import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const WEB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RULE = 'prettyscore/no-cross-feature-imports';

/**
 * Lints made-up source as if it were a file of the app, with the project's
 * own eslint.config.js, and returns the boundary rule's messages.
 */
async function boundaryErrors(filePath: string, code: string) {
  const eslint = new ESLint({ cwd: WEB_DIR });
  const [result] = await eslint.lintText(code, { filePath: path.join(WEB_DIR, filePath) });
  return result!.messages.filter((message) => message.ruleId === RULE).map((message) => message.message);
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
        "import { useEditPhoto } from '../api/edit-photo';",
        "import { useEditAllowance } from '@/features/edits/api/get-edits-quota';",
        "import { photoKeys } from '@/lib/api/photos';",
        "import { Button } from '@/components/ui/button';",
        "import { useQuery } from '@tanstack/react-query';",
        'export const z = [useEditPhoto, useEditAllowance, photoKeys, Button, useQuery];',
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
