import { DEFAULT_THEME_COLOR } from './bot-rules.ts';

/**
 * The bot's generated avatar: a circle in its theme colour with up to two initials. It is
 * served publicly, so nothing from the bot reaches the SVG unescaped.
 */

const THEME_COLOR = /^#[0-9a-fA-F]{6}$/;

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

const escapeXml = (text: string): string => text.replace(/[&<>"']/g, (char) => XML_ESCAPES[char]!);

/** The first letter or digit of the first and last words, upper-cased; `?` when there is none. */
export const initialsOf = (name: string): string => {
  const words = name
    .normalize('NFKC')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const first = words[0];
  const last = words.length > 1 ? words.at(-1) : undefined;
  const initials = [first, last]
    .filter((word): word is string => word !== undefined)
    .map((word) => Array.from(word)[0]!.toLocaleUpperCase('en'))
    .join('');
  return initials || '?';
};

export const avatarSvg = (bot: { name: string; themeColor: string }): string => {
  const color = THEME_COLOR.test(bot.themeColor) ? bot.themeColor : DEFAULT_THEME_COLOR;
  const label = escapeXml(bot.name);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128" role="img" aria-label="${label}">`,
    `<title>${label}</title>`,
    `<circle cx="64" cy="64" r="64" fill="${color}"/>`,
    `<text x="64" y="64" dy="0.35em" text-anchor="middle" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif" font-size="52" font-weight="600" fill="#ffffff">${escapeXml(initialsOf(bot.name))}</text>`,
    '</svg>',
  ].join('');
};
