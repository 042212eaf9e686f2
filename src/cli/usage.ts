// yargs' validation messages rewritten as one line that names the option or command, with a
// did-you-mean for a typo (yargs would print the whole help after them).
import type { Argv } from 'yargs';
import { closest, didYouMean } from '../did-you-mean.js';

interface Introspect {
  getOptions(): { key: Record<string, unknown> };
  getInternalMethods(): {
    getCommandInstance(): { getCommands(): string[] };
    getContext(): { commands: string[]; fullCommands: string[] };
  };
}

export function usageMessage(msg: string | undefined, argv: string[], y: Argv): string {
  const yi = y as unknown as Introspect;
  const where = yi.getInternalMethods().getContext().commands.join(' ');
  const help = `synconf ${where ? `${where} ` : ''}--help`;
  const text = (msg ?? 'bad usage').trim();

  const unknown = /^Unknown arguments?: (.*)$/s.exec(text);
  if (unknown) {
    // yargs also lists the camel-case twin of a dashed option
    const names = unknown[1].split(', ').filter((n) => !/[A-Z]/.test(n));
    const positionals = argv.filter((a) => !a.startsWith('-'));
    const commands = yi.getInternalMethods().getCommandInstance().getCommands();
    const options = Object.keys(yi.getOptions().key).filter((k) => k.length > 1 && !/[A-Z]/.test(k) && k !== '$0');
    const parts = names.map((name) => {
      if (positionals.includes(name)) {
        const guess = closest(name, commands);
        if (commands.length)
          return `unknown command "${name}"${guess ? ` (did you mean ${where ? `${where} ` : ''}${guess}?)` : ` (${where ? `${where} ` : ''}commands: ${commands.join(', ')})`}`;
        return `unexpected argument "${name}"`;
      }
      const flag = `${name.length === 1 ? '-' : '--'}${name}`;
      const guess = closest(name, options);
      return `unknown option ${flag}${guess ? ` (did you mean --${guess}?)` : ''}`;
    });
    return `${parts.join('; ')}; see ${help}`;
  }
  const invalid = /^Invalid values?:\s*Argument: (\S+), Given: (.*), Choices: (.*)$/s.exec(text);
  if (invalid) {
    const words = (list: string) => [...list.matchAll(/"([^"]*)"/g)].map((m) => m[1]);
    const choices = words(invalid[3]);
    const wrong = words(invalid[2]).find((w) => !choices.includes(w)) ?? '';
    return `--${invalid[1]}: ${invalid[2]} is not one of ${choices.join(', ')}${didYouMean(wrong, choices, (c) => c)}`;
  }
  const missingOption = /^Missing required arguments?: (.*)$/s.exec(text);
  if (missingOption)
    return `missing required option ${missingOption[1]
      .split(', ')
      .map((o) => `--${o}`)
      .join(', ')}; see ${help}`;
  const few = /^Not enough non-option arguments: got (\d+)/.exec(text);
  if (few) {
    const usage = yi.getInternalMethods().getContext().fullCommands.at(-1) ?? '';
    const required = usage.match(/<[^>]+>/g) ?? [];
    const missing = required.slice(Number(few[1])).join(' ');
    return `missing argument${missing ? ` ${missing}` : ''} (synconf ${[...yi.getInternalMethods().getContext().commands.slice(0, -1), usage].join(' ')}); see ${help}`;
  }
  if (/^Too many non-option arguments/.test(text))
    return `too many arguments: ${text.replace(/^Too many non-option arguments: /, '')}; see ${help}`;
  const implied = /^(?:Implications failed|Missing dependent arguments):\s*(\S+) -> (\S+)/.exec(text);
  if (implied) return `--${implied[1]} only works with --${implied[2]} (without it, it is ignored); see ${help}`;
  const exclusive = /^Arguments (\S+) and (\S+) are mutually exclusive$/.exec(text);
  if (exclusive) return `--${exclusive[1]} and --${exclusive[2]} cannot be given together`;
  return text.replace(/\s*\n\s*/g, '; ');
}
