/**
 * The app's own ESLint rule: a feature folder (src/features/<name>) never
 * imports from another one. Features that need the same thing get it from a
 * shared layer (src/lib, src/components, src/hooks) or are put together by a
 * page in src/app, so each feature can change alone (bulletproof-react's
 * rule). Both spellings are resolved: the `@/` alias and relative paths.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');
const FEATURES = path.join(SRC, 'features');

/** The feature folder a file belongs to, or null outside src/features. */
function featureOf(file) {
  const relative = path.relative(FEATURES, file);
  if (!relative || relative.startsWith('..') || path.isAbsolute(relative)) return null;
  return relative.split(path.sep)[0];
}

/** Where an import points, for the app's own modules; null for packages. */
function resolveImport(source, importer) {
  if (source === '@' || source.startsWith('@/')) return path.join(SRC, source.slice(2));
  if (source.startsWith('./') || source.startsWith('../') || source === '.' || source === '..') {
    return path.resolve(path.dirname(importer), source);
  }
  return null;
}

const noCrossFeatureImports = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid imports from one feature folder into another.' },
    schema: [],
    messages: {
      crossFeature:
        'features/{{own}} imports from features/{{other}}: features never import each other. Move what both need to src/lib, src/components or src/hooks, or put the two together in a page under src/app.',
    },
  },
  create(context) {
    const file = context.physicalFilename ?? context.filename;
    const own = featureOf(path.resolve(file));
    if (!own) return {};

    function check(node) {
      if (!node || node.type !== 'Literal' || typeof node.value !== 'string') return;
      const target = resolveImport(node.value, path.resolve(file));
      const other = target && featureOf(target);
      if (other && other !== own) context.report({ node, messageId: 'crossFeature', data: { own, other } });
    }

    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      // `typeof import('...')` in a type.
      TSImportType: (node) => check(node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument),
    };
  },
};

export default {
  meta: { name: 'prettyscore' },
  rules: { 'no-cross-feature-imports': noCrossFeatureImports },
};
