/**
 * The app's own ESLint rules, both spellings of an import resolved (the `@/`
 * alias and relative paths):
 * - no-cross-feature-imports: a feature folder (src/features/<name>) never
 *   imports from another one. Features that need the same thing get it from a
 *   shared layer (src/resources, src/lib, src/components, src/hooks) or are put
 *   together by a page in src/app, so each feature can change alone
 *   (bulletproof-react's rule).
 * - api-calls-only-in-resources: only a server resource's folder
 *   (src/resources/<resource>) calls the API client (`api`, `unwrap`,
 *   `noContent`…), so every request, its query key and the keys its
 *   mutation invalidates are found in one place. `ApiError` and the generated
 *   types may be used anywhere.
 * - resources-below-features: a resource module imports only src/lib and
 *   other resources, never a feature, a component, a hook or a page.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');
const FEATURES = path.join(SRC, 'features');
const RESOURCES = path.join(SRC, 'resources');
const API_CLIENT = path.join(SRC, 'lib', 'api-client');
/** What only the resource layer may import from the client: the calls. */
const CLIENT_CALLS = new Set(['api', 'unwrap', 'noContent', 'authMiddleware']);
/** The layers above the resources. */
const ABOVE_RESOURCES = ['features', 'components', 'hooks', 'app'].map((folder) => path.join(SRC, folder));

function isInside(folder, file) {
  const relative = path.relative(folder, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

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

/** The import's target without its extension (`@/lib/api-client.ts` and `@/lib/api-client` are one module). */
function moduleOf(target) {
  return target.replace(/\.(ts|tsx|js|mjs)$/, '');
}

const apiCallsOnlyInResources = {
  meta: {
    type: 'problem',
    docs: { description: 'Only src/resources/<resource> calls the API client.' },
    schema: [],
    messages: {
      clientCall:
        "'{{name}}' is the API client's call: only a resource module (src/resources/<resource>) calls the server. Add the request to its resource's folder, with its query key, and use that resource's hook or function here.",
      openapiFetch: 'openapi-fetch is wrapped once, by src/lib/api-client.ts; resource modules use its `api`.',
    },
  },
  create(context) {
    const file = path.resolve(context.physicalFilename ?? context.filename);
    if (!isInside(SRC, file) || isInside(RESOURCES, file) || moduleOf(file) === API_CLIENT) return {};

    function isClient(node) {
      if (!node || node.type !== 'Literal' || typeof node.value !== 'string') return false;
      const target = resolveImport(node.value, file);
      return target !== null && moduleOf(target) === API_CLIENT;
    }

    function checkPackage(node) {
      if (node?.type === 'Literal' && (node.value === 'openapi-fetch' || String(node.value).startsWith('openapi-fetch/'))) {
        context.report({ node, messageId: 'openapiFetch' });
      }
    }

    function checkSpecifiers(node) {
      checkPackage(node.source);
      if (!isClient(node.source) || node.importKind === 'type' || node.exportKind === 'type') return;
      for (const specifier of node.specifiers ?? []) {
        if (specifier.importKind === 'type' || specifier.exportKind === 'type') continue;
        // import * as client, or a name the client exports for its calls.
        const name =
          specifier.type === 'ImportNamespaceSpecifier'
            ? '*'
            : specifier.type === 'ImportDefaultSpecifier'
              ? 'default'
              : (specifier.imported ?? specifier.local)?.name ?? specifier.local?.name;
        if (name === '*' || CLIENT_CALLS.has(name)) context.report({ node: specifier, messageId: 'clientCall', data: { name } });
      }
    }

    return {
      ImportDeclaration: checkSpecifiers,
      ExportNamedDeclaration: checkSpecifiers,
      ExportAllDeclaration: (node) => {
        checkPackage(node.source);
        if (isClient(node.source) && node.exportKind !== 'type') context.report({ node, messageId: 'clientCall', data: { name: '*' } });
      },
      ImportExpression: (node) => {
        checkPackage(node.source);
        if (isClient(node.source)) context.report({ node, messageId: 'clientCall', data: { name: 'import()' } });
      },
    };
  },
};

const resourcesBelowFeatures = {
  meta: {
    type: 'problem',
    docs: { description: 'A resource module imports only src/lib and other resources.' },
    schema: [],
    messages: {
      upward:
        'src/resources imports from src/{{layer}}: a resource module sits below the features, components, hooks and pages that use it. Move what it needs into the resource (or src/lib).',
    },
  },
  create(context) {
    const file = path.resolve(context.physicalFilename ?? context.filename);
    if (!isInside(RESOURCES, file)) return {};

    function check(node) {
      if (!node || node.type !== 'Literal' || typeof node.value !== 'string') return;
      const target = resolveImport(node.value, file);
      const above = target && ABOVE_RESOURCES.find((folder) => isInside(folder, target));
      if (above) context.report({ node, messageId: 'upward', data: { layer: path.basename(above) } });
    }

    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      TSImportType: (node) => check(node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument),
    };
  },
};

export default {
  meta: { name: 'prettyscore' },
  rules: {
    'no-cross-feature-imports': noCrossFeatureImports,
    'api-calls-only-in-resources': apiCallsOnlyInResources,
    'resources-below-features': resourcesBelowFeatures,
  },
};
