import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The project's eslint.config.js, run over virtual files in a fixture tree whose only
// package, @careerbot/gadget, exports '.' and './extra'. Each forbidden import must be
// reported by the rule named; each allowed one by no boundary rule.
const eslint = new ESLint({
  cwd: fileURLToPath(new URL('../fixtures/lint-boundaries/', import.meta.url)),
  overrideConfigFile: fileURLToPath(new URL('../../eslint.config.js', import.meta.url)),
});

/** The boundary rules (and import restrictions) that report `statement` written in a file at `filePath`. */
const boundaryRulesFor = async (filePath: string, statement: string) => {
  const [result] = await eslint.lintText(`${statement}\nexport const used = typeof x;\n`, { filePath });
  const unparsed = result!.messages.find((message) => message.fatal);
  if (unparsed) throw new Error(`the fixture does not parse: ${unparsed.message}`);
  return result!.messages.map((message) => message.ruleId).filter((rule) => rule?.startsWith('boundaries/') || rule === 'no-restricted-imports');
};

const cases = (rule: string, table: [filePath: string, statement: string][], expected: string[]) =>
  it.each(table)(`${expected.length ? 'reports' : 'allows'} in %s: %s`, async (filePath, statement) => {
    expect(await boundaryRulesFor(filePath, statement)).toEqual(expected.length ? [rule] : []);
  });

describe('boundaries/adapter-folders: one adapter folder does not import another', () => {
  const rule = 'boundaries/adapter-folders';
  cases(
    rule,
    [
      ['src/adapters/http/x.ts', "import { x } from '../metrics/metrics.ts';"],
      ['src/adapters/http/deep/x.ts', "import type { x } from '../../persistence/db.ts';"],
      ['src/adapters/mail/x.ts', "export { x } from '../cv/read-document.ts';"],
      ['src/adapters/pages/x.tsx', "const x = await import('../http/security.ts');"],
      ['src/adapters/logger.ts', "import { x } from './http/build-app.ts';"],
    ],
    [rule],
  );
  cases(
    rule,
    [
      ['src/adapters/http/x.ts', "import { x } from '../logger.ts';"],
      ['src/adapters/http/x.ts', "import { x } from './security.ts';"],
      ['src/adapters/pages/client/x.tsx', "import { x } from '../page-shell.tsx';"],
      ['src/adapters/http/x.ts', "import { x } from '../../application/ports.ts';"],
      ['src/composition.ts', "import { x } from './adapters/metrics/metrics.ts';"],
    ],
    [],
  );
});

describe('boundaries/package-imports: a package imports no src/ and no other package by path', () => {
  const rule = 'boundaries/package-imports';
  cases(
    rule,
    [
      ['packages/widget/src/x.ts', "import { x } from '../../../src/domain/types.ts';"],
      ['packages/widget/src/x.ts', "import { x } from '../../gadget/src/index.ts';"],
      ['packages/widget/src/x.ts', "import { x } from '@careerbot/gadget/src/index.ts';"],
      ['packages/widget/src/x.ts', "import { x } from '@careerbot/gadget/dist/index.js';"],
    ],
    [rule],
  );
  cases(
    rule,
    [
      ['packages/widget/src/x.ts', "import { x } from '@careerbot/gadget';"],
      ['packages/widget/src/x.ts', "import { x } from '@careerbot/gadget/extra';"],
      ['packages/widget/src/x.ts', "import { x } from './y.ts';"],
      ['packages/widget/src/deep/x.ts', "import { x } from '../../index.js';"],
    ],
    [],
  );
});

describe('boundaries/packages-by-name: code outside packages/ imports a package by its name', () => {
  const rule = 'boundaries/packages-by-name';
  cases(
    rule,
    [
      ['src/adapters/http/x.ts', "import { x } from '../../../packages/gadget/src/index.ts';"],
      ['src/x.ts', "import { x } from '../packages/gadget/dist/index.js';"],
      ['src/x.ts', "import { x } from '@careerbot/gadget/dist/index.js';"],
    ],
    [rule],
  );
  cases(
    rule,
    [
      ['src/x.ts', "import { x } from '@careerbot/gadget';"],
      ['src/x.ts', "import { x } from '@careerbot/gadget/extra';"],
    ],
    [],
  );
});

describe('no-restricted-imports: a script shares nothing with test/, only @careerbot/testkit', () => {
  const rule = 'no-restricted-imports';
  cases(
    rule,
    [
      ['scripts/ops/x.ts', "import { x } from '../../test/support/test-app.ts';"],
      ['scripts/x.ts', "import { x } from '../test/fakes/fake-clock.ts';"],
    ],
    [rule],
  );
  cases(rule, [['scripts/ops/x.ts', "import { x } from '@careerbot/testkit';"]], []);
});
