import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

const require = createRequire(import.meta.url);
const packageDir = (name: string) => path.dirname(require.resolve(`${name}/package.json`));

/** Where one name of a package's index really lives, and how it is imported from there. */
type TTarget = { from: string; kind: 'default' | 'namespace' };

/** lucide-react: each icon (with its aliases) is the default export of its own module. */
function lucideTargets(): Map<string, TTarget> {
  const esmDir = path.join(packageDir('lucide-react'), 'dist/esm');
  const index = readFileSync(path.join(esmDir, 'lucide-react.mjs'), 'utf8');
  const targets = new Map<string, TTarget>();
  for (const [, names, file] of index.matchAll(/export \{([^}]*)\} from '\.\/(icons\/[\w-]+\.mjs)'/g)) {
    for (const [, name] of names!.matchAll(/default as (\w+)/g)) targets.set(name!, { from: path.join(esmDir, file!), kind: 'default' });
  }
  return targets;
}

/** radix-ui: each primitive is the namespace of its own package (Dialog is @radix-ui/react-dialog). */
function radixTargets(): Map<string, TTarget> {
  const index = readFileSync(path.join(packageDir('radix-ui'), 'dist/index.mjs'), 'utf8');
  const targets = new Map<string, TTarget>();
  for (const [, name, from] of index.matchAll(/import \* as (\w+) from "(@radix-ui\/[\w-]+)"/g)) targets.set(name!, { from: from!, kind: 'namespace' });
  for (const [, name, from] of index.matchAll(/import \{ (\w+) \} from "(@radix-ui\/[\w-]+)"/g)) targets.set(name!, { from: from!, kind: 'namespace' });
  return targets;
}

const PACKAGES: Record<string, () => Map<string, TTarget>> = { 'lucide-react': lucideTargets, 'radix-ui': radixTargets };

/**
 * `import { Lock } from 'lucide-react'` and `import { Dialog } from 'radix-ui'` become imports of
 * the icon's or the primitive's own module. Through a package's index every icon or primitive
 * looks imported by every screen that uses any of them, so the code each screen draws could not
 * be told apart when the build groups modules into files (decision 032); imported one by one, each
 * goes with the screens that use it. Names the map does not know (types, helpers) keep their
 * import from the package.
 */
export function directImports(): Plugin {
  const maps = new Map<string, Map<string, TTarget>>();
  const targetsOf = (pkg: string) => {
    if (!maps.has(pkg)) maps.set(pkg, PACKAGES[pkg]!());
    return maps.get(pkg)!;
  };
  const statement = new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*['"](${Object.keys(PACKAGES).join('|')})['"];?`, 'g');
  return {
    name: 'academy:direct-imports',
    enforce: 'pre',
    transform(code, id) {
      if (id.includes('/node_modules/') || !/\.[jt]sx?$/.test(id)) return null;
      if (!Object.keys(PACKAGES).some((pkg) => code.includes(`'${pkg}'`))) return null;
      const rewritten = code.replace(statement, (original, specifiers: string, pkg: string) => {
        const targets = targetsOf(pkg);
        const kept: string[] = [];
        const imports: string[] = [];
        for (const specifier of specifiers.split(',').map((part) => part.trim()).filter(Boolean)) {
          const [imported, local = imported] = specifier.split(/\s+as\s+/).map((part) => part.trim()) as [string, string?];
          const target = specifier.startsWith('type ') ? undefined : targets.get(imported);
          if (!target) kept.push(specifier);
          else if (target.kind === 'default') imports.push(`import ${local} from ${JSON.stringify(target.from)};`);
          else imports.push(`import * as ${local} from ${JSON.stringify(target.from)};`);
        }
        if (imports.length === 0) return original;
        // What remains are types only: a plain import of them would still load the package's index.
        const typesOnly = kept.every((specifier) => specifier.startsWith('type '));
        const rest = kept.length === 0 ? [] : typesOnly ? [`import type { ${kept.map((s) => s.slice(5)).join(', ')} } from '${pkg}';`] : [`import { ${kept.join(', ')} } from '${pkg}';`];
        // One line: the lines after it keep their numbers in the source map.
        return [...imports, ...rest].join(' ');
      });
      return rewritten === code ? null : { code: rewritten, map: null };
    },
  };
}
