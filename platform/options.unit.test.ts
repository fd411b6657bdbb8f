import { describe, expect, it } from 'vitest';
import { choice, composeOptions, ConfigError, defaultsOf, defineSection, optionsHelp, opt, parseOptions } from './options.js';

const TABLE = {
  widgetCount: opt({ kind: 'int', env: 'WIDGETS', default: 3, min: 1, max: 9, roles: ['ingest'], help: 'Widgets.' }),
  widgetMode: choice({ env: 'WIDGET_MODE', default: 'fast', oneOf: ['fast', 'slow'], roles: ['ingest', 'api'], help: 'Mode.' }),
};

describe('the options machinery', () => {
  it('a section types its value from its own options and what else it declares it reads', () => {
    const section = defineSection(
      TABLE,
      (c: { widgetCount: number; widgetMode: 'fast' | 'slow'; role: string }) => ({
        n: c.widgetCount,
        slow: c.widgetMode === 'slow',
        role: c.role,
      }),
      (c) => {
        if (c.widgetMode === 'slow' && c.widgetCount > 2) throw new ConfigError('too many slow widgets');
      },
    );
    expect(section.value({ ...defaultsOf(TABLE), role: 'ingest' })).toEqual({ n: 3, slow: false, role: 'ingest' });
    expect(() => section.check({ widgetCount: 3, widgetMode: 'slow', role: 'ingest' })).toThrow(/too many slow widgets/);
    expect(() => defineSection(TABLE, (c) => c).check(defaultsOf(TABLE))).not.toThrow();
  });

  it('parses flags over the environment, per role, with the bounds and values declared', () => {
    const parsed = parseOptions(TABLE, 'ingest', ['--widget-count', '5', 'rebuild'], { WIDGETS: '2', WIDGET_MODE: 'slow' });
    expect(parsed).toEqual({ values: { widgetCount: 5, widgetMode: 'slow' }, positionals: ['rebuild'], help: false });
    // The environment of an option the role does not have is ignored; its flag is refused.
    expect(parseOptions(TABLE, 'api', [], { WIDGETS: 'x' }).values.widgetCount).toBe(3);
    expect(() => parseOptions(TABLE, 'api', ['--widget-count', '2'], {})).toThrow(/--widget-count does not apply to role api/);
    expect(() => parseOptions(TABLE, 'ingest', ['--widget-count', '10'], {})).toThrow(
      /option --widget-count: must be at most 9 \(got "10"\)/,
    );
    expect(() => parseOptions(TABLE, 'ingest', ['--widget-mode', 'odd'], {})).toThrow(/must be one of fast, slow/);
    expect(() => parseOptions(TABLE, 'ingest', ['--widgets'], {})).toThrow(ConfigError);
  });

  it('composes tables in order and refuses a name or environment variable declared twice', () => {
    const other = { gadget: opt({ kind: 'bool', env: 'GADGET', default: false, roles: ['api'], help: 'Gadget.' }) };
    expect(Object.keys(composeOptions(TABLE, other))).toEqual(['widgetCount', 'widgetMode', 'gadget']);
    expect(() => composeOptions(TABLE, { widgetCount: other.gadget })).toThrow(/option widgetCount is declared twice/);
    expect(() => composeOptions(TABLE, { gizmo: { ...other.gadget, env: 'WIDGETS' } })).toThrow(/WIDGETS is declared twice/);
  });

  it('prints the help of a role: its options only, with flag, variable and default', () => {
    const text = optionsHelp(TABLE, 'api');
    expect(text).toContain('  --widget-mode (WIDGET_MODE, default "fast")\n      Mode.');
    expect(text).not.toContain('--widget-count');
  });
});
