import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const WEB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ZONES = 'import-x/no-restricted-paths';
const CYCLE = 'import-x/no-cycle';

/**
 * Lints made-up source as if it were a file of the app, with the project's
 * own eslint.config.js, and returns one rule's messages.
 */
async function errors(filePath: string, code: string, rule: string) {
  const eslint = new ESLint({ cwd: WEB_DIR });
  const [result] = await eslint.lintText(code, { filePath: path.join(WEB_DIR, filePath) });
  return result!.messages.filter((message) => message.ruleId === rule).map((message) => message.message);
}

describe('the import zones (shared code below features, features below the app)', { timeout: 60_000 }, () => {
  it('fails lib, hooks and components importing a feature', async () => {
    for (const file of ['src/lib/made-up.ts', 'src/hooks/use-made-up.ts', 'src/components/made-up.tsx']) {
      const found = await errors(
        file,
        "import { UserMenu } from '@/features/auth/components/user-menu';\nexport const x = UserMenu;\n",
        ZONES,
      );
      expect(found, file).toEqual([expect.stringContaining('Shared code is used by features and the app')]);
    }
  });

  it('fails shared code and features importing the app shell, by alias or relative path', async () => {
    expect(
      await errors('src/components/made-up.tsx', "import { Logo } from '../app/layout/logo';\nexport const x = Logo;\n", ZONES),
    ).toHaveLength(1);
    expect(
      await errors(
        'src/features/score/components/made-up.tsx',
        "import { Logo } from '@/app/layout/logo';\nexport const x = Logo;\n",
        ZONES,
      ),
    ).toEqual([expect.stringContaining('A feature does not import the app shell')]);
  });

  it('lets the app shell use features and features use shared code', async () => {
    expect(
      await errors(
        'src/app/layout/made-up.tsx',
        "import { UserMenu } from '@/features/auth/components/user-menu';\nexport const x = UserMenu;\n",
        ZONES,
      ),
    ).toEqual([]);
    expect(
      await errors(
        'src/features/score/components/made-up.tsx',
        "import { PageTitle } from '@/components/page-title';\nexport const x = PageTitle;\n",
        ZONES,
      ),
    ).toEqual([]);
  });
});

describe('import circles', { timeout: 60_000 }, () => {
  it('fails a module importing one that imports it back', async () => {
    // config/navigation.ts imports config/paths.ts: paths importing navigation closes a circle.
    const found = await errors(
      'src/config/paths.ts',
      "import { getSidebarGroups } from '@/config/navigation';\nexport const x = getSidebarGroups;\n",
      CYCLE,
    );
    expect(found).toEqual([expect.stringContaining('Dependency cycle')]);
  });
});
